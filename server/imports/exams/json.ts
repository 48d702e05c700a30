/**
 * The Gradus exam file (docs/formats/exam.schema.json says the same in JSON Schema; README
 * "Running Gradus for a school" shows an example, examples/exam.json): one exam, its level and
 * its questions with their keys. Every rule the file must keep is in the valibot schema below,
 * so the JSON upload, the IMS QTI 3.0 package (server/imports/exams/qti.ts builds this same
 * document from the package) and the demo go through one validation.
 *
 * Promises:
 * - What passes `parseExamDocument` can be stored and scored as it is: every key is in the
 *   answer encoding server/domain/scoring.ts reads (a choice id, the text, a keypad number,
 *   the block ids in order), and a pupil can enter it with the input the question shows.
 * - Each question is worth one point (scoring.ts counts correct answers; the pass mark is
 *   `pass_percent` of the number of questions).
 * - A refusal names the question (1-based `row`), the field (`column`, a dot path inside the
 *   question or the exam) and a reason from contract/imports.ts's ImportReason.
 */
import * as v from 'valibot';
import type { QuestionInput } from '../../db/schema.ts';
import { isPermutationOf, parseNumber } from '../../domain/scoring.ts';
import { subjectIds } from '../../domain/subjects.ts';

/** Why a value was refused: the ImportReason picklist's words this module uses. */
export type ExamReason = 'bad_json' | 'required' | 'invalid' | 'too_long' | 'unknown_column' | 'bad_key' | 'unknown_level';

/** One refusal: `row` is the 1-based question number, null for the exam itself. */
export type ExamProblem = { row: number | null; column: string | null; reason: ExamReason; value?: string };

const trimmed = (max: number) => v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(max, 'too_long'));

/** An exam code: letters, digits, "_" and "-" (as the test periods file names it). */
export const ExamCodeSchema = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(64, 'too_long'), v.regex(/^[A-Za-z0-9_-]+$/));

/** A choice or block id: what the browser sends back as the answer. */
const IdSchema = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(40, 'too_long'), v.regex(/^[A-Za-z0-9_.-]+$/));

/** The letters and space of the on-screen alphabet keyboard (src/components/alphabet-keyboard). */
const ALPHABET_KEYS = /^[A-Za-z ]+$/;

const common = {
  prompt: trimmed(4000),
  /** The unit of the syllabus, for the score report's per-unit analysis. */
  unit: trimmed(100),
  /** The prompt (and a choice question's labels) hold TeX between \( and \), rendered with KaTeX. */
  math: v.optional(v.boolean(), false),
};

const SingleChoiceSchema = v.pipe(
  v.strictObject({
    type: v.literal('single_choice'),
    ...common,
    choices: v.pipe(v.array(v.strictObject({ id: IdSchema, label: trimmed(1000) })), v.minLength(2), v.maxLength(10, 'too_long')),
    /** The id of the right choice. */
    key: IdSchema,
  }),
  v.forward(
    v.partialCheck([['choices'], ['key']], (q) => q.choices.some((c) => c.id === q.key), 'bad_key'),
    ['key'],
  ),
  v.forward(
    v.partialCheck([['choices']], (q) => new Set(q.choices.map((c) => c.id)).size === q.choices.length, 'invalid'),
    ['choices'],
  ),
);

const TextInputSchema = v.variant('kind', [
  /** The on-screen alphabet keyboard (A-Z and space); `upper_case` shows capitals only. */
  v.strictObject({ kind: v.literal('alphabet'), upper_case: v.optional(v.boolean(), false) }),
  /** The device's own keyboard (any script). */
  v.strictObject({ kind: v.literal('keyboard') }),
]);

const TextSchema = v.pipe(
  v.strictObject({
    type: v.literal('text'),
    ...common,
    /** The expected text. */
    key: trimmed(200),
    input: v.optional(TextInputSchema, { kind: 'alphabet', upper_case: false }),
    /** Compare case-sensitively (default: A and a are one letter). */
    case_sensitive: v.optional(v.boolean(), false),
  }),
  // The pupil must be able to type the key on the keyboard the question shows.
  v.forward(
    v.partialCheck(
      [['key'], ['input'], ['case_sensitive']],
      (q) =>
        q.input.kind === 'keyboard' ||
        (ALPHABET_KEYS.test(q.key) && !(q.input.upper_case && q.case_sensitive && q.key !== q.key.toUpperCase())),
      'bad_key',
    ),
    ['key'],
  ),
);

const NumberSchema = v.pipe(
  v.strictObject({
    type: v.literal('number'),
    ...common,
    /** A keypad number: "-3", "2.5", "3/4" (equal rationals score alike: "1/2" = "0.5"). */
    key: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(40, 'too_long')),
    /** The keys the keypad offers besides the digits. */
    keypad: v.optional(
      v.strictObject({
        negative: v.optional(v.boolean(), false),
        decimal: v.optional(v.boolean(), false),
        fraction: v.optional(v.boolean(), false),
      }),
      { negative: false, decimal: false, fraction: false },
    ),
  }),
  // A well-formed keypad number the keypad offered can type.
  v.forward(
    v.partialCheck(
      [['key'], ['keypad']],
      (q) =>
        parseNumber(q.key) !== undefined &&
        (q.keypad.negative || !q.key.startsWith('-')) &&
        (q.keypad.decimal || !q.key.includes('.')) &&
        (q.keypad.fraction || !q.key.includes('/')),
      'bad_key',
    ),
    ['key'],
  ),
);

/** Visual Programming block categories (the colours the exam screen draws). */
export const blockCategories = ['event', 'motion', 'looks', 'sound', 'control'] as const;

const OrderingSchema = v.pipe(
  v.strictObject({
    type: v.literal('ordering'),
    ...common,
    /** The blocks in the order first shown. */
    blocks: v.pipe(
      v.array(v.strictObject({ id: IdSchema, label: trimmed(200), category: v.optional(v.picklist(blockCategories), 'control') })),
      v.minLength(2),
      v.maxLength(20, 'too_long'),
    ),
    /** The block ids in the right order. */
    key: v.array(IdSchema),
  }),
  v.forward(
    v.partialCheck(
      [['blocks'], ['key']],
      (q) => {
        const ids = q.blocks.map((b) => b.id);
        return new Set(ids).size === ids.length && isPermutationOf(q.key.join(','), ids);
      },
      'bad_key',
    ),
    ['key'],
  ),
);

export const ExamQuestionSchema = v.variant('type', [SingleChoiceSchema, TextSchema, NumberSchema, OrderingSchema]);

export const ExamDocumentSchema = v.strictObject({
  /** The JSON Schema this file follows (editors use it); ignored. */
  $schema: v.optional(v.string()),
  code: ExamCodeSchema,
  /** Seed section 1's subjects (server/domain/subjects.ts). */
  subject_id: v.picklist(subjectIds),
  /** The level by its position in the subject; `name` creates it when the subject has no such level yet. */
  level: v.strictObject({
    position: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(99)),
    name: v.optional(trimmed(100)),
  }),
  title: trimmed(200),
  /** The title in other interface languages, by catalog key ("ja", "pt-BR"). */
  titles: v.optional(v.record(v.pipe(v.string(), v.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/)), trimmed(200)), {}),
  time_limit_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(60), v.maxValue(6 * 3600)), 2400),
  pass_percent: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 60),
  questions: v.pipe(v.array(ExamQuestionSchema), v.minLength(1), v.maxLength(300, 'too_long')),
});

/** A file before validation (what qti.ts builds). */
export type ExamDocumentInput = v.InferInput<typeof ExamDocumentSchema>;
/** A valid exam, defaults filled in. */
export type ExamDocument = v.InferOutput<typeof ExamDocumentSchema>;
export type ExamQuestion = v.InferOutput<typeof ExamQuestionSchema>;

/** A question's stored columns (server/db/schema.ts, questions), the key in scoring's encoding. */
export type QuestionColumns = {
  type: ExamQuestion['type'];
  prompt: string;
  choices: { id: string; label: string }[];
  correctAnswer: string;
  unit: string;
  math: boolean;
  input: QuestionInput | null;
  blocks: { id: string; label: string; category: 'event' | 'motion' | 'looks' | 'sound' | 'control' }[];
  caseSensitive: boolean;
};

/** The stored columns of a validated question. */
export function questionColumns(question: ExamQuestion): QuestionColumns {
  const base = { type: question.type, prompt: question.prompt, unit: question.unit, math: question.math, choices: [], blocks: [], input: null, caseSensitive: false };
  switch (question.type) {
    case 'single_choice':
      return { ...base, choices: question.choices, correctAnswer: question.key };
    case 'text':
      return {
        ...base,
        correctAnswer: question.key,
        // null: the device keyboard (server/db/schema.ts, questions.input).
        input: question.input.kind === 'alphabet' ? { kind: 'alphabet', upper_case: question.input.upper_case } : null,
        caseSensitive: question.case_sensitive,
      };
    case 'number':
      return { ...base, correctAnswer: question.key, input: { kind: 'keypad', ...question.keypad } };
    case 'ordering':
      return { ...base, blocks: question.blocks, correctAnswer: question.key.join(',') };
  }
}

export type ParsedExam = { ok: true; exam: ExamDocument } | { ok: false; problems: ExamProblem[] };

/** Reads the bytes of an exam JSON file (UTF-8, with or without BOM). */
export function parseExamJson(bytes: Uint8Array): ParsedExam {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, problems: [{ row: null, column: null, reason: 'bad_json', value: 'not UTF-8' }] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ row: null, column: null, reason: 'bad_json', value: error instanceof Error ? error.message.slice(0, 200) : undefined }] };
  }
  return parseExamDocument(value);
}

/** Validates a parsed document (a JSON file's, or the one qti.ts builds from a package). */
export function parseExamDocument(value: unknown): ParsedExam {
  const result = v.safeParse(ExamDocumentSchema, value);
  if (result.success) return { ok: true, exam: result.output };
  const problems: ExamProblem[] = [];
  const seen = new Set<string>();
  for (const issue of result.issues) {
    const problem = problemOf(issue);
    const id = `${problem.row}/${problem.column}`;
    // The first problem of a field is the one worth telling (the variant's other branches add noise).
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push(problem);
  }
  return { ok: false, problems };
}

const REASONS: readonly string[] = ['too_long', 'bad_key', 'invalid'] satisfies ExamReason[];

function problemOf(issue: v.BaseIssue<unknown>): ExamProblem {
  const keys = (issue.path ?? []).map((item) => String(item.key));
  let row: number | null = null;
  let path = keys;
  if (keys[0] === 'questions' && keys.length >= 2 && /^\d+$/.test(keys[1]!)) {
    row = Number(keys[1]) + 1;
    path = keys.slice(2);
  }
  const column = path.length > 0 ? path.join('.') : row === null ? null : 'question';
  let reason: ExamReason;
  if (issue.type === 'strict_object' && issue.input !== undefined) reason = 'unknown_column';
  else if (REASONS.includes(issue.message)) reason = issue.message as ExamReason;
  else if (issue.input === undefined || issue.input === null || issue.input === '' || issue.type === 'non_empty') reason = 'required';
  else reason = 'invalid';
  const value = shown(issue.input);
  return value === undefined ? { row, column, reason } : { row, column, reason, value };
}

/** A short printable form of a refused value (never a whole object). */
function shown(input: unknown): string | undefined {
  if (typeof input === 'string') return input.slice(0, 100);
  if (typeof input === 'number' || typeof input === 'boolean') return String(input);
  return undefined;
}
