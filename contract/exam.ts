/**
 * The exam: details, start, questions and answer types, saving answers, finishing with a receipt, focus losses (seed sections 3, 4, 7).
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';
import { isoTimestamp, serverTime } from './common.ts';
import { ScheduleHistoryStatusSchema, SubjectIdSchema } from './enums.ts';

/** GET /exam-details?schedule_history_id= */
export const ExamDetailsQuerySchema = v.object({
  schedule_history_id: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/, 'invalid'), v.transform(Number)),
});

export const ExamDetailsSchema = v.object({
  schedule_history_id: v.number(),
  examinee_name: v.string(),
  subject: v.object({ id: SubjectIdSchema, name: v.string() }),
  /** `order`: the level's place in its subject (1, 2, ...), so the screen names it in the pupil's language. */
  level: v.object({ id: v.number(), name: v.string(), order: v.optional(v.number()) }),
  exam: v.object({
    id: v.number(),
    title: v.string(),
    question_count: v.number(),
    time_limit_seconds: v.number(),
  }),
  status: ScheduleHistoryStatusSchema,
  /** Set when Start was pressed (status DOING or later). */
  started_at: v.nullable(isoTimestamp),
  /** started_at + the time limit, fixed by the server. */
  deadline_at: v.nullable(isoTimestamp),
  /**
   * A sitting a proctor moved to another terminal, not yet taken up by one: the 0-based question
   * the server last knew the pupil was on, so the new terminal resumes there. Otherwise null (the
   * terminal's own stored position, at least as new, is the one to resume at).
   */
  resume_question_index: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)))),
  ...serverTime,
});

export type ExamDetails = v.InferOutput<typeof ExamDetailsSchema>;

/** Body of every call that acts on one schedule history (start, finish). */
export const ScheduleHistoryBodySchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** POST /exam/start: fixes the deadline; pressing it again returns the same deadline. */
export const StartExamResponseSchema = v.object({
  status: ScheduleHistoryStatusSchema,
  started_at: isoTimestamp,
  deadline_at: isoTimestamp,
  ...serverTime,
});

export type StartExamResponse = v.InferOutput<typeof StartExamResponseSchema>;

/**
 * Question types, and how each answer travels as the string `value`:
 * - single_choice: the chosen choice's id;
 * - text: the typed text (trimmed; compared case-insensitively unless the question says not);
 * - number: a number as typed on the keypad, normalised: an optional "-", digits, and either
 *   one "." with digits or one "/" with a non-zero denominator ("-3", "2.5", "3/4");
 * - ordering: the ids of the blocks in the pupil's order, joined with "," ("b3,b1,b2").
 */
export const QuestionTypeSchema = v.picklist(['single_choice', 'text', 'number', 'ordering']);

export type QuestionType = v.InferOutput<typeof QuestionTypeSchema>;

/** A number answer's encoding: optional "-", digits, then one "." with digits or one "/" with digits. */
const KEYPAD_NUMBER = /^(-?)(\d+)(?:\.(\d+)|\/(\d+))?$/;

/** A rational number in lowest terms with a positive denominator. */
export type Rational = { num: bigint; den: bigint };

/**
 * A number answer ("-3", "2.5", "3/4") as a fraction in lowest terms, or undefined when it is not
 * a well-formed keypad number (a zero denominator, over 40 characters). The one parser of number
 * answers: scoring on the server, the tutorial's practice on the terminal, the exam import.
 */
export function parseKeypadNumber(value: string): Rational | undefined {
  if (value.length > 40) return undefined;
  const match = KEYPAD_NUMBER.exec(value);
  if (!match) return undefined;
  const [, sign, whole, fractionDigits, denominator] = match;
  let num = BigInt(whole!);
  let den = 1n;
  if (fractionDigits !== undefined) {
    den = 10n ** BigInt(fractionDigits.length);
    num = num * den + BigInt(fractionDigits);
  } else if (denominator !== undefined) {
    den = BigInt(denominator);
    if (den === 0n) return undefined;
  }
  if (sign === '-') num = -num;
  const divisor = gcd(num < 0n ? -num : num, den);
  return { num: num / divisor, den: den / divisor };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

const normalizedText = (text: string) => text.trim().replace(/\s+/g, ' ');

/**
 * Whether `value` is the right answer `answer` to a question of this type: the rules the server
 * scores the exam by (server/domain/scoring.ts) and the terminal judges the tutorial's practice
 * by (contract/tutorial.ts). Text is trimmed and inner runs of white space made one space, then
 * compared case-insensitively unless `caseSensitive` (an empty text is wrong); numbers are equal
 * as fractions ("0.5" = "1/2"; a malformed one is wrong); an ordering is the blocks in exactly
 * the right order (an empty one is wrong); a choice is the right choice's id.
 */
export function isRightAnswer(type: QuestionType, answer: string, value: string, caseSensitive: boolean): boolean {
  switch (type) {
    case 'single_choice':
      return value === answer;
    case 'text': {
      const given = normalizedText(value);
      const expected = normalizedText(answer);
      if (given === '') return false;
      return caseSensitive ? given === expected : given.toLowerCase() === expected.toLowerCase();
    }
    case 'number': {
      const given = parseKeypadNumber(value);
      const expected = parseKeypadNumber(answer);
      return given !== undefined && expected !== undefined && given.num === expected.num && given.den === expected.den;
    }
    case 'ordering':
      return value !== '' && value === answer;
  }
}

/** How a typed answer is entered (text and number questions). */
export const AnswerInputSchema = v.variant('kind', [
  /** The device's own keyboard. */
  v.object({ kind: v.literal('keyboard') }),
  /** The on-screen alphabet keyboard (seed: alphabets_keyboard_flag), optionally in upper-case mode (mode_upper_case_flag). */
  v.object({ kind: v.literal('alphabet'), upper_case: v.boolean() }),
  /** The on-screen number keypad, with the keys this question allows. */
  v.object({ kind: v.literal('keypad'), negative: v.boolean(), decimal: v.boolean(), fraction: v.boolean() }),
]);

export type AnswerInput = v.InferOutput<typeof AnswerInputSchema>;

/** A Visual Programming block, drawn as SVG (ordering questions). */
export const ProgramBlockSchema = v.object({
  id: v.string(),
  label: v.string(),
  category: v.picklist(['event', 'motion', 'looks', 'sound', 'control']),
});

export type ProgramBlock = v.InferOutput<typeof ProgramBlockSchema>;

/** A question as the browser sees it: never with its correct answer. */
export const QuestionSchema = v.object({
  id: v.number(),
  /** 1-based position in the exam. */
  number: v.number(),
  type: QuestionTypeSchema,
  prompt: v.string(),
  /** Choices of a single-choice question; empty for other types. */
  choices: v.array(v.object({ id: v.string(), label: v.string() })),
  /** The unit of the syllabus the question belongs to (per-unit analysis). */
  unit: v.optional(v.string()),
  /** Prompt and choices contain TeX between \( and \), rendered with KaTeX. */
  math: v.optional(v.boolean()),
  /** How text and number answers are entered; absent: the device keyboard. */
  input: v.optional(v.nullable(AnswerInputSchema)),
  /** Ordering questions: the blocks to arrange, in the order first shown. */
  blocks: v.optional(v.array(ProgramBlockSchema)),
});

export type Question = v.InferOutput<typeof QuestionSchema>;

export const SavedAnswerSchema = v.object({
  question_id: v.number(),
  value: v.string(),
  answered_at: isoTimestamp,
});

export type SavedAnswer = v.InferOutput<typeof SavedAnswerSchema>;

/** GET /exam/questions?schedule_history_id=: only while the exam is DOING. */
export const ExamQuestionsSchema = v.object({
  questions: v.array(QuestionSchema),
  answers: v.array(SavedAnswerSchema),
  deadline_at: isoTimestamp,
  ...serverTime,
});

export type ExamQuestions = v.InferOutput<typeof ExamQuestionsSchema>;

/** POST /exam/answers: one answer, idempotent by its key. */
export const SaveAnswerRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  question_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  value: v.pipe(v.string(), v.maxLength(500, 'invalid')),
  /** Client-made key (uuid); the same key saved twice is one answer. */
  idempotency_key: v.pipe(v.string(), v.uuid('invalid')),
  /** When the pupil gave the answer, on the server's time as the client tracks it. */
  answered_at: isoTimestamp,
});

export type SaveAnswerRequest = v.InferInput<typeof SaveAnswerRequestSchema>;

/**
 * How the server took one answer: saved (it is now the question's answer), duplicate (this key
 * was already held: a resend), superseded (acknowledged, but a later answer to the question,
 * from another window or terminal of the pupil, is held instead: `current_value`).
 */
export const SaveAnswerOutcomeSchema = v.picklist(['saved', 'duplicate', 'superseded']);

export type SaveAnswerOutcome = v.InferOutput<typeof SaveAnswerOutcomeSchema>;

export const SaveAnswerResponseSchema = v.object({
  question_id: v.number(),
  idempotency_key: v.string(),
  outcome: SaveAnswerOutcomeSchema,
  /** The value the server holds for the question; only when the outcome is superseded. */
  current_value: v.optional(v.string()),
  /** The sitting's current deadline (a proctor's extension or a time credit moves it). */
  deadline_at: isoTimestamp,
  ...serverTime,
});

export type SaveAnswerResponse = v.InferOutput<typeof SaveAnswerResponseSchema>;

/** POST /exam/finish: completes the exam; the receipt proves what the server holds. */
export const FinishExamResponseSchema = v.object({
  status: ScheduleHistoryStatusSchema,
  answer_count: v.number(),
  /** SHA-256 (hex) over the saved answers, in question order. */
  digest: v.string(),
  finished_at: isoTimestamp,
  ...serverTime,
});

export type FinishExamResponse = v.InferOutput<typeof FinishExamResponseSchema>;

/** POST /exam/focus-loss: the terminal's running count of focus losses (audit only, never blocking). */
export const FocusLossRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)),
  /** When the latest loss happened, on the server's time as the client tracks it. */
  at: isoTimestamp,
});

export type FocusLossRequest = v.InferInput<typeof FocusLossRequestSchema>;

export const FocusLossResponseSchema = v.object({ ok: v.literal(true), ...serverTime });

/**
 * The text that FinishExamResponse.digest is the SHA-256 (hex, of its UTF-8 bytes) of: the
 * saved non-empty answers, in question order, as JSON `[[question_id, value], ...]`. A client
 * can recompute it from what it sent to check the receipt.
 */
export function answersDigestText(answers: readonly { question_id: number; value: string }[]): string {
  return JSON.stringify(answers.map((a) => [a.question_id, a.value]));
}

/**
 * Whether a sitting is over for good: `now` later than its deadline plus the upload window (the
 * answers still on their way from an offline terminal; the server's UPLOAD_WINDOW_HOURS, which
 * the proctor's roster carries as `upload_window_ms`). The server refuses its answers from then
 * on (server/domain/answers/) and a proctor's extension of it (server/domain/proctor.ts), and
 * the proctor page stops offering that extension (machines/proctor/proctor.rules.ts).
 */
export function isPastUploadWindow(deadlineAt: Date, now: Date, uploadWindowMs: number): boolean {
  return now.getTime() > deadlineAt.getTime() + uploadWindowMs;
}
