/**
 * Whether an answer is correct, for every question type, in the contract's answer encoding
 * (contract/exam.ts, QuestionTypeSchema; the rules are its isRightAnswer, which the tutorial's
 * practice is judged by too). Pure: no database, no clock.
 *
 * - single_choice: the chosen choice id equals the stored one;
 * - text: trimmed (and inner runs of white space made one space), compared case-insensitively
 *   unless the question is marked case-sensitive;
 * - number: equal as rational numbers, so "0.5", "1/2" and "2/4" are one answer; a value that
 *   is not a well-formed number ("1,5", "1/0", "") is wrong;
 * - ordering: the block ids in exactly the stored order.
 *
 * Also the format checks the answer endpoint applies before saving (isWellFormedNumber,
 * isPermutationOf), so saving and scoring read values the same way.
 */
import { isRightAnswer, parseKeypadNumber, type QuestionType } from '../../contract/exam.ts';

export type ScorableQuestion = {
  type: QuestionType;
  /** In the contract's answer encoding (server/db/schema.ts, questions.correct_answer). */
  correctAnswer: string;
  /** Text questions only; default false. */
  caseSensitive?: boolean;
};

/** A number answer as a fraction in lowest terms (the contract's one parser of number answers). */
export const parseNumber = parseKeypadNumber;

/** True when the value is a well-formed keypad number (the contract's number encoding). */
export function isWellFormedNumber(value: string): boolean {
  return parseNumber(value) !== undefined;
}

/** True when `value` lists every one of `ids` exactly once, joined with ",". */
export function isPermutationOf(value: string, ids: readonly string[]): boolean {
  const given = value.split(',');
  if (given.length !== ids.length) return false;
  const wanted = new Set(ids);
  return new Set(given).size === given.length && given.every((id) => wanted.has(id));
}

export function isCorrect(question: ScorableQuestion, value: string): boolean {
  return isRightAnswer(question.type, question.correctAnswer, value, question.caseSensitive === true);
}
