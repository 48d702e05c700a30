/**
 * The exam import: a Gradus exam JSON file or an IMS QTI 3.0 package is read (json.ts, qti.ts),
 * planned against the database and, when asked and nothing is refused, applied in one
 * transaction. Shared by POST /admin/imports/exam, `npm run admin -- import exam` and the demo.
 *
 * The plan has the exam's row (row null, key = the exam code, or "CODE v2" for a new version)
 * and one row per question (row = its number; key = "CODE q3" from JSON, the item identifier
 * from QTI). Outcomes of the exam, by the latest stored version of its code (matched in any case):
 * - none: create version 1;
 * - the same content digest (SHA-256 of the validated document): unchanged, nothing written;
 * - changed, and no pupil has started that version (no sitting of it with a start, a status
 *   past PENDING or a retake): update in place (its questions by number);
 * - changed, and a pupil has started it: create the next version; the started one is never
 *   touched, and test periods set up afterwards take the newest version.
 * A level the subject lacks is created when the file names it, else 'unknown_level'.
 *
 * Applied imports write one 'import' audit entry ("exam:<code> v<version>", before and after)
 * in the same transaction, and run one at a time (an advisory lock).
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { ImportOutcome, ImportProblem, ImportReason } from '../../../contract/imports.ts';
import type { Db, Tx } from '../../db/client.ts';
import { auditLog, exams, levels, questions, scheduleHistories, subjects } from '../../db/schema.ts';
import { subjectName } from '../../domain/subjects.ts';
import type { ApplyContext, ImportResult, PlannedRow, RecordState } from '../plan.ts';
import { parseExamDocument, parseExamJson, questionColumns, type ExamDocument, type ExamProblem, type QuestionColumns } from './json.ts';
import { looksLikeZip } from './package.ts';
import { readQtiPackage, type QtiOptions } from './qti.ts';

export type ExamImportOptions = {
  apply: boolean;
  qti?: QtiOptions;
  /**
   * The demo seed's own exams only: a stored version without a content digest (written by the
   * seed before its exams were files, when it kept their content in step in place) is updated in
   * place even when started, once; it carries the digest from then on.
   */
  undigestedInPlace?: boolean;
} & ApplyContext;

/** An arbitrary constant naming the exam imports' lock among the database's advisory locks. */
const EXAM_IMPORT_LOCK_ID = 7_230_524;

/** A document read from a file, with how its questions are named in the plan. */
type ReadExam = { ok: true; exam: ExamDocument; questionKey: (number: number) => string } | { ok: false; rows: PlannedRow[] };

/** Reads the bytes (a zip by its magic bytes, else JSON) into a validated exam, or the refused rows. */
export function readExam(bytes: Uint8Array, qti: QtiOptions = {}): ReadExam {
  if (bytes.length === 0) return { ok: false, rows: [refusedRow(null, '', [{ column: null, reason: 'empty_file' }])] };
  if (looksLikeZip(bytes)) {
    const read = readQtiPackage(bytes, qti);
    if (!read.ok) {
      return { ok: false, rows: groupRows(read.problems.map(({ key, row, ...problem }) => ({ key, row, problem: problemOf(problem) }))) };
    }
    const parsed = parseExamDocument(read.document);
    const questionKey = (number: number) => read.itemIds[number - 1] ?? String(number);
    if (!parsed.ok) return { ok: false, rows: rowsOf(parsed.problems, codeOf(read.document), questionKey) };
    return { ok: true, exam: parsed.exam, questionKey };
  }
  const parsed = parseExamJson(bytes);
  if (!parsed.ok) {
    const code = parsed.problems.some((p) => p.reason === 'bad_json') ? '' : codeOfJson(bytes);
    return { ok: false, rows: rowsOf(parsed.problems, code, jsonQuestionKey(code)) };
  }
  return { ok: true, exam: parsed.exam, questionKey: jsonQuestionKey(parsed.exam.code) };
}

/** How a JSON file's questions are named in the plan: "CODE q3". */
export const jsonQuestionKey = (code: string) => (number: number) => `${code} q${number}`;

/** Reads, plans and (with `apply`) applies one exam file or package. */
export async function importExam(db: Db, bytes: Uint8Array, options: ExamImportOptions): Promise<ImportResult> {
  const read = readExam(bytes, options.qti);
  if (!read.ok) return { kind: 'exam', applied: false, rows: read.rows };
  return db.transaction((tx) => importExamDocument(tx, read.exam, read.questionKey, options));
}

/**
 * Plans and (with `apply`) applies one validated exam inside the caller's transaction: the demo
 * seed brings in its exam files this way, in its own transaction.
 */
export async function importExamDocument(
  tx: Tx,
  exam: ExamDocument,
  questionKey: (number: number) => string,
  options: ExamImportOptions,
): Promise<ImportResult> {
  if (options.apply) await tx.execute(sql`select pg_advisory_xact_lock(${EXAM_IMPORT_LOCK_ID})`);
  const plan = await planExam(tx, exam, questionKey, options.undigestedInPlace ?? false);
  if (!options.apply || plan.rows.some((row) => row.outcome === 'refuse')) return { kind: 'exam', applied: false, rows: plan.rows };
  await plan.apply(tx, options);
  return { kind: 'exam', applied: true, rows: plan.rows };
}

/** The SHA-256 of a validated exam: the same content in any key order or spacing has one digest. */
export function examDigest(exam: ExamDocument): string {
  const { $schema: _schema, ...content } = exam;
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

type StoredExam = typeof exams.$inferSelect;

/**
 * The exam versions among `examIds` a pupil has started: a sitting of it with a start, a status
 * past PENDING, or a retake (a reset sitting was started once).
 */
export async function startedExamIds(tx: Tx, examIds: readonly number[]): Promise<Set<number>> {
  if (examIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ examId: scheduleHistories.examId })
    .from(scheduleHistories)
    .where(
      and(
        inArray(scheduleHistories.examId, [...examIds]),
        or(isNotNull(scheduleHistories.startedAt), ne(scheduleHistories.status, 0), eq(scheduleHistories.flagRetake, true)),
      ),
    );
  return new Set(rows.map((row) => row.examId));
}

async function planExam(
  tx: Tx,
  exam: ExamDocument,
  questionKey: (number: number) => string,
  undigestedInPlace: boolean,
): Promise<{ rows: PlannedRow[]; apply: (tx: Tx, context: ApplyContext) => Promise<void> }> {
  const [level] = await tx
    .select({ id: levels.id, name: levels.name })
    .from(levels)
    .where(and(eq(levels.subjectId, exam.subject_id), eq(levels.position, exam.level.position)));
  const nothing = async () => {};
  if (level === undefined && exam.level.name === undefined) {
    return {
      rows: [refusedRow(null, exam.code, [{ column: 'level.position', reason: 'unknown_level', value: String(exam.level.position) }])],
      apply: nothing,
    };
  }

  const [latest] = await tx
    .select()
    .from(exams)
    .where(sql`lower(${exams.code}) = lower(${exam.code})`)
    .orderBy(desc(exams.version))
    .limit(1);
  const digest = examDigest(exam);
  const wanted = exam.questions.map(questionColumns);
  const after = stateOf(exam, digest);

  let outcome: ImportOutcome;
  let version = 1;
  let stored: QuestionColumns[] = [];
  if (latest === undefined) outcome = 'create';
  else if (latest.contentDigest === digest) {
    outcome = 'unchanged';
    version = latest.version;
  } else {
    const inPlace = undigestedInPlace && latest.contentDigest === null;
    outcome = !inPlace && (await startedExamIds(tx, [latest.id])).has(latest.id) ? 'create' : 'update';
    version = outcome === 'create' ? latest.version + 1 : latest.version;
    if (outcome === 'update') stored = await storedQuestions(tx, latest.id);
  }
  const code = latest?.code ?? exam.code;
  const entity = `exam:${code} v${version}`;
  const before = outcome === 'update' && latest ? await storedState(tx, latest) : null;
  const examRow: PlannedRow = { row: null, key: version > 1 && outcome === 'create' ? `${code} v${version}` : code, outcome, problems: [], entity, before, after };
  const questionRows: PlannedRow[] = wanted.map((question, index) => {
    const number = index + 1;
    let rowOutcome: ImportOutcome = outcome;
    if (outcome === 'update') {
      const old = stored[index];
      rowOutcome = old === undefined ? 'create' : canonicalJson(old) === canonicalJson(question) ? 'unchanged' : 'update';
    }
    return { row: number, key: questionKey(number), outcome: rowOutcome, problems: [] };
  });

  const apply = async (tx: Tx, context: ApplyContext) => {
    if (outcome === 'unchanged') return;
    let levelId = level?.id;
    if (levelId === undefined) {
      await tx.insert(subjects).values({ id: exam.subject_id, name: subjectName(exam.subject_id) }).onConflictDoNothing();
      await tx.insert(levels).values({ subjectId: exam.subject_id, position: exam.level.position, name: exam.level.name! }).onConflictDoNothing();
      const [created] = await tx.select({ id: levels.id }).from(levels).where(and(eq(levels.subjectId, exam.subject_id), eq(levels.position, exam.level.position)));
      levelId = created!.id;
    }
    const columns = {
      levelId,
      title: exam.title,
      titles: exam.titles,
      contentDigest: digest,
      timeLimitSeconds: exam.time_limit_seconds,
      passPercent: exam.pass_percent,
    };
    let examId: number;
    if (outcome === 'create') {
      const [inserted] = await tx.insert(exams).values({ code, version, ...columns }).returning({ id: exams.id });
      examId = inserted!.id;
      await tx.insert(questions).values(wanted.map((q, i) => ({ ...q, examId, number: i + 1 })));
    } else {
      examId = latest!.id;
      await tx.update(exams).set(columns).where(eq(exams.id, examId));
      for (const [index, question] of wanted.entries()) {
        if (questionRows[index]!.outcome === 'unchanged') continue;
        await tx
          .insert(questions)
          .values({ ...question, examId, number: index + 1 })
          .onConflictDoUpdate({ target: [questions.examId, questions.number], set: question });
      }
      await tx.delete(questions).where(and(eq(questions.examId, examId), sql`${questions.number} > ${wanted.length}`));
    }
    await tx.insert(auditLog).values({
      at: context.now,
      staffId: context.staffId,
      action: 'import',
      entity,
      before,
      after,
      detail: { kind: 'exam', outcome, questions: wanted.length },
      reason: context.reason,
    });
  };
  return { rows: [examRow, ...questionRows], apply };
}

/** What the audit trail keeps of an exam version: its settings and the digest of its content. */
function stateOf(exam: ExamDocument, digest: string): RecordState {
  return {
    code: exam.code,
    title: exam.title,
    subject_id: exam.subject_id,
    level: exam.level.position,
    time_limit_seconds: exam.time_limit_seconds,
    pass_percent: exam.pass_percent,
    questions: exam.questions.length,
    content_digest: digest,
  };
}

async function storedState(tx: Tx, exam: StoredExam): Promise<RecordState> {
  const [row] = await tx
    .select({ subjectId: levels.subjectId, position: levels.position, count: sql<number>`(select count(*)::int from ${questions} where ${questions.examId} = ${exam.id})` })
    .from(levels)
    .where(eq(levels.id, exam.levelId));
  return {
    code: exam.code,
    title: exam.title,
    subject_id: row?.subjectId ?? null,
    level: row?.position ?? null,
    time_limit_seconds: exam.timeLimitSeconds,
    pass_percent: exam.passPercent,
    questions: Number(row?.count ?? 0),
    content_digest: exam.contentDigest,
  };
}

async function storedQuestions(tx: Tx, examId: number): Promise<QuestionColumns[]> {
  return tx
    .select({
      type: questions.type,
      prompt: questions.prompt,
      choices: questions.choices,
      correctAnswer: questions.correctAnswer,
      unit: questions.unit,
      math: questions.math,
      input: questions.input,
      blocks: questions.blocks,
      caseSensitive: questions.caseSensitive,
    })
    .from(questions)
    .where(eq(questions.examId, examId))
    .orderBy(asc(questions.number));
}

// ---------------------------------------------------------------------------
// Refusals as plan rows
// ---------------------------------------------------------------------------

function refusedRow(row: number | null, key: string, problems: ImportProblem[]): PlannedRow {
  return { row, key, outcome: 'refuse', problems };
}

function problemOf(problem: { column: string | null; reason: ImportReason; value?: string }): ImportProblem {
  return problem.value === undefined ? { column: problem.column, reason: problem.reason } : { column: problem.column, reason: problem.reason, value: problem.value };
}

/** One refused row per (row, key), its problems in the order found. */
function groupRows(problems: readonly { key: string; row: number | null; problem: ImportProblem }[]): PlannedRow[] {
  const rows = new Map<string, PlannedRow>();
  for (const { key, row, problem } of problems) {
    const id = `${row}\u0000${key}`;
    const existing = rows.get(id);
    if (existing) existing.problems.push(problem);
    else rows.set(id, refusedRow(row, key, [problem]));
  }
  return [...rows.values()];
}

function rowsOf(problems: readonly ExamProblem[], code: string, questionKey: (number: number) => string): PlannedRow[] {
  return groupRows(problems.map(({ row, ...problem }) => ({ row, key: row === null ? code : questionKey(row), problem: problemOf(problem) })));
}

function codeOf(document: unknown): string {
  const code = document !== null && typeof document === 'object' ? (document as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code.trim() : '';
}

/** The code a refused JSON file names, for the plan's keys. */
function codeOfJson(bytes: Uint8Array): string {
  try {
    return codeOf(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return '';
  }
}

/** Every stored version of every exam (GET /admin/exams), by code then version. */
export async function listExams(db: Db) {
  const rows = await db
    .select({
      id: exams.id,
      code: exams.code,
      version: exams.version,
      title: exams.title,
      subject_id: levels.subjectId,
      level: levels.position,
      questions: sql<number>`(select count(*)::int from ${questions} where ${questions.examId} = ${exams.id})`,
      pass_percent: exams.passPercent,
      time_limit_seconds: exams.timeLimitSeconds,
    })
    .from(exams)
    .innerJoin(levels, eq(levels.id, exams.levelId))
    .orderBy(asc(exams.code), asc(exams.version));
  const started = await startedExamIds(db, rows.map((row) => row.id));
  return rows.map(({ id, ...row }) => ({ ...row, questions: Number(row.questions), in_use: started.has(id) }));
}

