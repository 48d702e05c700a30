/**
 * The tutorial's settings (seed section 2 `exam-tutorial`, section 7 `GET /tutorial-setting`):
 * what the exam the pupil is about to sit asks of them (its question types and number of
 * questions), its time rules, and one practice question of each type it uses.
 *
 * Practice questions are fixed practice content, never one of the exam's questions: their ids
 * are negative (a real question's id is a positive serial, and POST /exam/answers takes only
 * ids from 1), and they come with their answer, because the terminal checks a practice answer
 * itself (`isPracticeAnswerRight`) and sends nothing of the practice anywhere. Each is shaped
 * like a question of the exam (QuestionSchema), so the exam's own question components render
 * it with the same on-screen alphabet keyboard, keypad keys and blocks.
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';
import { serverTime } from './common.ts';
import { ExamDetailsQuerySchema, isRightAnswer, QuestionSchema, QuestionTypeSchema } from './exam.ts';

/** GET /tutorial-setting?schedule_history_id= (the pupil's own sitting, as /exam-details). */
export const TutorialSettingQuerySchema = ExamDetailsQuerySchema;

/**
 * The exam's time rules, as the tutorial tells them (seed sections 2, 4 and 9). Each rule is the
 * one this product has; the wire names it so a screen states it rather than assumes it.
 */
export const TimeRulesSchema = v.object({
  /** The time limit in seconds (40 minutes, seed section 9). */
  limit_seconds: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** The time starts when Start is pressed, and the exam cannot be started over (seed section 4). */
  starts: v.literal('at_start'),
  /** At 00:00 the exam finishes by itself with every answer given. */
  at_end: v.literal('finishes_itself'),
  /** Every answer is saved as it is given. */
  answers_saved: v.literal('as_you_go'),
  /** Answers can be changed until the pupil finishes the exam. */
  answers_changeable: v.literal('until_finished'),
});

export type TimeRules = v.InferOutput<typeof TimeRulesSchema>;

/** One practice question: a question the exam's components render, with its answer (practice only). */
export const PracticeQuestionSchema = v.object({
  /** Its id is negative: it can never name one of the exam's questions. */
  question: v.pipe(
    QuestionSchema,
    v.check((question) => Number.isInteger(question.id) && question.id < 0, 'A practice question has a negative id.'),
  ),
  /** The right answer, in the contract's answer encoding (contract/exam.ts, QuestionTypeSchema). */
  answer: v.string(),
  /** Text questions: the answer is compared case-sensitively. */
  case_sensitive: v.boolean(),
});

export type PracticeQuestion = v.InferOutput<typeof PracticeQuestionSchema>;

/** GET /tutorial-setting: the tutorial of one sitting. */
export const TutorialSettingSchema = v.object({
  schedule_history_id: v.number(),
  /** How many questions the exam has. */
  question_count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** The question types the exam uses, in the order they first appear in it. */
  question_types: v.array(QuestionTypeSchema),
  time: TimeRulesSchema,
  /** One practice question per type in `question_types`, in the same order. */
  practice: v.array(PracticeQuestionSchema),
  ...serverTime,
});

export type TutorialSetting = v.InferOutput<typeof TutorialSettingSchema>;

/** Whether a practice answer is right, judged on the terminal by the rules the exam is scored by (isRightAnswer). */
export function isPracticeAnswerRight(practice: PracticeQuestion, value: string): boolean {
  return isRightAnswer(practice.question.type, practice.answer, value, practice.case_sensitive);
}
