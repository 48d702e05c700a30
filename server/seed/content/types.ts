/**
 * The shape of the exam content (one module per subject in this folder) and small helpers to
 * write questions compactly. Correct answers are in the contract's answer encoding
 * (contract/exam.ts, QuestionTypeSchema) and stay on the server: the seed writes them to
 * questions.correct_answer, which nothing sent to the browser reads.
 */
import type { QuestionBlock, QuestionChoice, QuestionInput } from '../../db/schema.ts';

export type ContentQuestion = {
  type: 'single_choice' | 'text' | 'number' | 'ordering';
  prompt: string;
  choices: QuestionChoice[];
  correctAnswer: string;
  /** One of the subject's units (per-unit analysis). */
  unit: string;
  /** Prompt and choices contain TeX between \( and \). */
  math: boolean;
  input: QuestionInput | null;
  /** Ordering questions: the blocks in the order first shown. */
  blocks: QuestionBlock[];
  /** Text questions: compare case-sensitively. */
  caseSensitive: boolean;
};

export type ContentExam = {
  code: string;
  subjectId: 1 | 2 | 3 | 6;
  level: number;
  title: string;
  /** 40 minutes (seed section 9). */
  timeLimitSeconds: number;
  questions: ContentQuestion[];
};

/** 40 minutes (seed section 9). */
export const FORTY_MINUTES = 2400;

const defaults = (): Pick<ContentQuestion, 'choices' | 'math' | 'input' | 'blocks' | 'caseSensitive'> => ({
  choices: [],
  math: false,
  input: null,
  blocks: [],
  caseSensitive: false,
});
const letters = 'abcdefghij';

/** A single-choice question; `correct` is the letter of the right choice (a, b, c, ...). */
export function choice(unit: string, prompt: string, correct: string, labels: string[], options: { math?: boolean } = {}): ContentQuestion {
  return {
    ...defaults(),
    type: 'single_choice',
    unit,
    prompt,
    choices: labels.map((label, i) => ({ id: letters[i]!, label })),
    correctAnswer: correct,
    math: options.math ?? false,
  };
}

/** A typed-text question; `input` null means the device keyboard. */
export function text(
  unit: string,
  prompt: string,
  answer: string,
  input: QuestionInput | null,
  options: { caseSensitive?: boolean } = {},
): ContentQuestion {
  return { ...defaults(), type: 'text', unit, prompt, correctAnswer: answer, input, caseSensitive: options.caseSensitive ?? false };
}

/** The on-screen alphabet keyboard, in lower case or upper case. */
export const alphabet = { kind: 'alphabet', upper_case: false } as const satisfies QuestionInput;
export const alphabetUpper = { kind: 'alphabet', upper_case: true } as const satisfies QuestionInput;

/** The on-screen keypad with the keys a number question allows. */
export function keypad(keys: { negative?: boolean; decimal?: boolean; fraction?: boolean } = {}): QuestionInput {
  return { kind: 'keypad', negative: keys.negative ?? false, decimal: keys.decimal ?? false, fraction: keys.fraction ?? false };
}

/** A number question entered on the keypad; `answer` normalised ("-3", "2.5", "3/4"). */
export function number(
  unit: string,
  prompt: string,
  answer: string,
  keys: { negative?: boolean; decimal?: boolean; fraction?: boolean } = {},
  options: { math?: boolean } = {},
): ContentQuestion {
  return { ...defaults(), type: 'number', unit, prompt, correctAnswer: answer, input: keypad(keys), math: options.math ?? false };
}

/**
 * An ordering question. `program` lists the blocks in the right order; `shown` is the order
 * they are first shown in, as positions in `program` (a permutation that differs from it). Block
 * ids are letters given by the shown position, so they say nothing about the right order.
 */
export function ordering(
  unit: string,
  prompt: string,
  program: [label: string, category: QuestionBlock['category']][],
  shown: number[],
): ContentQuestion {
  const blocks = shown.map((position, i) => {
    const [label, category] = program[position]!;
    return { id: letters[i]!, label, category };
  });
  const correct = program.map((_, position) => letters[shown.indexOf(position)]!);
  return { ...defaults(), type: 'ordering', unit, prompt, blocks, correctAnswer: correct.join(',') };
}
