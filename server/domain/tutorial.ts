/**
 * The tutorial of one sitting (seed section 2 `exam-tutorial`, section 7 `GET /tutorial-setting`):
 * the exam's number of questions, the question types it uses, its time rules, and one practice
 * question of each of those types.
 *
 * Promises:
 * - only the pupil's own sitting (anything else is NOT_FOUND, as every exam call: ids of other
 *   pupils' sittings cannot be probed), and only while it can still be sat (PENDING, or DOING
 *   after a reload): a closed sitting is refused with the code Start would give;
 * - practice questions are fixed practice content from this file, never the exam's questions
 *   (nothing of `questions` but the type, input and math flag is read), with negative ids;
 * - each practice question is answered the way the exam's questions of its type are: the text
 *   question with the on-screen alphabet keyboard when the exam's text questions use it (in
 *   capitals when all of them do), the number question on the keypad with every key the exam's
 *   number questions allow (and a sum that needs the most telling of them: the fraction bar, the
 *   decimal point or the minus sign), set with KaTeX when the exam's questions of that type are;
 * - reads only: nothing is written, no answer is created.
 */
import { asc, eq } from 'drizzle-orm';
import type { AnswerInput, Question, QuestionType } from '../../contract/exam.ts';
import type { PracticeQuestion, TutorialSetting } from '../../contract/tutorial.ts';
import type { Db } from '../db/client.ts';
import { questions } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { startRefusal } from './schedule-history.ts';
import { loadOwnSitting } from './sitting.ts';
import type { Principal } from './tokens.ts';

type SubjectId = 1 | 2 | 3 | 6;

/** What the exam's questions of one type ask of the pupil, as far as the practice copies it. */
export type TypeFeatures = {
  /** Some question of this type is set with KaTeX. */
  math: boolean;
  /** Text: some question uses the on-screen alphabet keyboard. */
  alphabet: boolean;
  /** Text: every alphabet-keyboard question types capitals only. */
  upperCaseOnly: boolean;
  /** Number: the keypad keys any question of this type allows. */
  keys: { negative: boolean; decimal: boolean; fraction: boolean };
};

/** The exam's question types in the order they first appear, with what each asks for. */
export function featuresOf(rows: readonly { type: QuestionType; math: boolean; input: AnswerInput | null }[]): Map<QuestionType, TypeFeatures> {
  const byType = new Map<QuestionType, TypeFeatures & { alphabetCount: number; upperCount: number }>();
  for (const row of rows) {
    let features = byType.get(row.type);
    if (!features) {
      features = { math: false, alphabet: false, upperCaseOnly: false, keys: { negative: false, decimal: false, fraction: false }, alphabetCount: 0, upperCount: 0 };
      byType.set(row.type, features);
    }
    features.math ||= row.math;
    if (row.input?.kind === 'alphabet') {
      features.alphabet = true;
      features.alphabetCount += 1;
      if (row.input.upper_case) features.upperCount += 1;
    }
    if (row.input?.kind === 'keypad') {
      features.keys.negative ||= row.input.negative;
      features.keys.decimal ||= row.input.decimal;
      features.keys.fraction ||= row.input.fraction;
    }
  }
  return new Map(
    [...byType].map(([type, { alphabetCount, upperCount, ...features }]) => [
      type,
      { ...features, upperCaseOnly: alphabetCount > 0 && upperCount === alphabetCount },
    ]),
  );
}

/** A practice question before it is numbered: what the pupil sees and the answer. */
type Practice = Pick<Question, 'type' | 'prompt' | 'choices' | 'math' | 'input' | 'blocks'> & {
  answer: string;
  caseSensitive: boolean;
};

/** What a practice question has unless it says otherwise (copied per question by practiceOf). */
const plain: Pick<Practice, 'choices' | 'math' | 'input' | 'blocks' | 'caseSensitive'> = {
  choices: [],
  math: false,
  input: null,
  blocks: [],
  caseSensitive: false,
};

/** The four choices of a single-choice practice question, in the order shown. */
const choiceIds = ['a', 'b', 'c', 'd'] as const;

/** A single-choice practice question: its prompt, its four choices (a to d, in order) and the right one. */
function choicePracticeOf(
  prompt: string,
  labels: readonly [string, string, string, string],
  answer: (typeof choiceIds)[number],
  math = false,
): Practice {
  return { ...plain, type: 'single_choice', math, prompt, choices: labels.map((label, i) => ({ id: choiceIds[i]!, label })), answer };
}

/** A single-choice practice question in the subject's own language and manner. */
const choicePractice: Record<SubjectId, Practice> = {
  1: choicePracticeOf('Which one is a fruit?', ['a chair', 'an apple', 'a shoe', 'a cloud'], 'b'),
  2: choicePracticeOf('Which number is the smallest?', ['8', '5', '3', '9'], 'c'),
  3: choicePracticeOf('くだものは どれですか。', ['いす', 'りんご', 'くつ', 'くも'], 'b'),
  6: choicePracticeOf('Which block makes the cat move?', ['say Hello', 'play sound Pop', 'move 10 steps', 'when green flag clicked'], 'c'),
};

/** The single-choice practice for an exam whose choices are set with KaTeX. */
const mathChoicePractice = choicePracticeOf('Which one is the same as \\(2 + 2\\)?', ['\\(3\\)', '\\(4\\)', '\\(5\\)', '\\(6\\)'], 'b', true);

function textPractice(features: TypeFeatures): Practice {
  const input: AnswerInput | null = features.alphabet ? { kind: 'alphabet', upper_case: features.upperCaseOnly } : null;
  return features.upperCaseOnly
    ? { ...plain, type: 'text', prompt: 'Type the word SUN in capital letters.', input, answer: 'SUN', caseSensitive: true }
    : { ...plain, type: 'text', prompt: "Type the word 'sun'.", input, answer: 'sun' };
}

/** The number practice: a sum that needs the most telling key the exam's keypad has. */
function numberPractice(features: TypeFeatures): Practice {
  const { keys, math } = features;
  const input: AnswerInput = { kind: 'keypad', ...keys };
  const sum = (tex: string, text: string, answer: string): Practice => ({
    ...plain,
    type: 'number',
    prompt: math ? `\\(${tex}\\)` : text,
    math,
    input,
    answer,
  });
  if (keys.fraction) return sum('\\frac{1}{6} + \\frac{4}{6} = ?', '1/6 + 4/6 = ?', '5/6');
  if (keys.decimal) return sum('0.5 + 0.2 = ?', '0.5 + 0.2 = ?', '0.7');
  if (keys.negative) return sum('2 - 5 = ?', '2 − 5 = ?', '-3');
  return sum('6 + 3 = ?', '6 + 3 = ?', '9');
}

/** The ordering practice: three blocks, shown out of order (ids by shown position, as the exams do). */
const orderingPractice: Practice = {
  ...plain,
  type: 'ordering',
  prompt: 'Arrange the blocks so that when the flag is clicked, the cat says Hi and then walks 10 steps.',
  blocks: [
    { id: 'a', label: 'move 10 steps', category: 'motion' },
    { id: 'b', label: 'when green flag clicked', category: 'event' },
    { id: 'c', label: 'say Hi', category: 'looks' },
  ],
  answer: 'b,c,a',
};

/** The practice question of one type, for this subject and what the exam's questions of the type ask. */
export function practiceFor(subjectId: SubjectId, type: QuestionType, features: TypeFeatures): Practice {
  switch (type) {
    case 'single_choice':
      return features.math ? mathChoicePractice : choicePractice[subjectId];
    case 'text':
      return textPractice(features);
    case 'number':
      return numberPractice(features);
    case 'ordering':
      return orderingPractice;
  }
}

/** The practice of an exam: one question per type it uses, in that order, numbered from 1 with ids from -1 down. */
export function practiceOf(subjectId: SubjectId, features: ReadonlyMap<QuestionType, TypeFeatures>): PracticeQuestion[] {
  return [...features].map(([type, typeFeatures], i) => {
    const { answer, caseSensitive, ...question } = practiceFor(subjectId, type, typeFeatures);
    return {
      question: { ...question, id: -(i + 1), number: i + 1, choices: [...question.choices], blocks: [...(question.blocks ?? [])] },
      answer,
      case_sensitive: caseSensitive,
    };
  });
}

export async function getTutorialSetting(
  db: Db,
  principal: Principal,
  scheduleHistoryId: number,
): Promise<Omit<TutorialSetting, 'server_time'>> {
  const sitting = await loadOwnSitting(db, principal, scheduleHistoryId);
  const refusal = startRefusal(sitting.history.status);
  if (refusal) throw new DomainError(refusal);
  const rows = await db
    .select({ type: questions.type, math: questions.math, input: questions.input })
    .from(questions)
    .where(eq(questions.examId, sitting.history.examId))
    .orderBy(asc(questions.number));
  const features = featuresOf(rows.map((row) => ({ ...row, input: row.input ?? null })));
  return {
    schedule_history_id: sitting.history.id,
    question_count: rows.length,
    question_types: [...features.keys()],
    time: {
      limit_seconds: sitting.exam.timeLimitSeconds,
      starts: 'at_start',
      at_end: 'finishes_itself',
      answers_saved: 'as_you_go',
      answers_changeable: 'until_finished',
    },
    practice: practiceOf(sitting.subject.id as SubjectId, features),
  };
}
