/**
 * What every roster import shares: a file is read (csv.ts), each row validated with the kind's
 * valibot schema into a typed record, the records planned against the database by the kind's
 * module (create / update / unchanged / refuse, each refusal with its column and reason), and the
 * plan applied only when asked and only when nothing is refused: in ONE transaction with one
 * audit entry ('import', before and after) per created or updated record, all or nothing.
 *
 * Promises: a dry run writes nothing; applying the same file twice changes nothing the second
 * time (every row 'unchanged'); imports that apply run one at a time (a transaction-scoped
 * advisory lock), so two administrators' files never interleave.
 */
import { sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import {
  IMPORT_PLAN_ROWS_SHOWN,
  importReasons,
  type ImportKind,
  type ImportOutcome,
  type ImportPlanResponse,
  type ImportProblem,
  type ImportReason,
  type PlanKind,
} from '../../contract/imports.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { EXTRA_CELLS, readCsv, type CsvColumns, type CsvRecord } from './csv.ts';

/** A record's state as the audit trail and the comparison see it: flat, wire-named values. */
export type RecordState = Record<string, string | number | boolean | null>;

/** One record of a plan; `entity`, `before` and `after` are set for a create or an update. */
export type PlannedRow = {
  row: number | null;
  key: string;
  outcome: ImportOutcome;
  problems: ImportProblem[];
  /** "<kind>:<natural key>" in the audit trail. */
  entity?: string;
  before?: RecordState | null;
  after?: RecordState;
};

/** Who applies a plan, and when. `staffId` null: the command line. */
export type ApplyContext = { now: Date; staffId: number | null; reason: string };

/** A kind's plan: its rows and, when nothing is refused, the work that carries it out. */
export type KindPlan = { rows: PlannedRow[]; apply: (tx: Tx, context: ApplyContext) => Promise<void> };

/** One kind of roster file: its columns and how its rows are planned. */
export type RosterImporter = {
  kind: ImportKind;
  columns: CsvColumns;
  plan: (tx: Tx, table: { columns: ReadonlySet<string>; records: CsvRecord[] }) => Promise<KindPlan>;
};

export type ImportResult = { kind: PlanKind; applied: boolean; rows: PlannedRow[] };

/** An arbitrary constant naming the roster imports' lock among the database's advisory locks. */
const IMPORT_LOCK_ID = 7_230_523;

type ImportOptions = { apply: boolean } & ApplyContext;
type Table = { columns: ReadonlySet<string>; records: CsvRecord[] };

/** Reads, plans and (with `apply`) applies one roster file, in a transaction of its own. */
export function runImport(db: Db, importer: RosterImporter, bytes: Uint8Array, options: ImportOptions): Promise<ImportResult> {
  return readThen(importer, bytes, (table) => db.transaction((tx) => planAndApply(tx, importer, table, options)));
}

/** The same inside the caller's transaction (the demo seed's, which brings in its files together). */
export function runImportInTransaction(tx: Tx, importer: RosterImporter, bytes: Uint8Array, options: ImportOptions): Promise<ImportResult> {
  return readThen(importer, bytes, (table) => planAndApply(tx, importer, table, options));
}

/** The file read, then `plan`; a file refused whole (size, encoding, header) goes no further. */
async function readThen(importer: RosterImporter, bytes: Uint8Array, plan: (table: Table) => Promise<ImportResult>): Promise<ImportResult> {
  const table = readCsv(bytes, importer.columns);
  if (!table.ok) return { kind: importer.kind, applied: false, rows: [{ row: table.refusal.row, key: '', outcome: 'refuse', problems: table.refusal.problems }] };
  return plan(table);
}

/** Takes the imports' lock for the rest of the transaction: imports that apply run one at a time. */
export async function lockImports(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_ID})`);
}

async function planAndApply(tx: Tx, importer: RosterImporter, table: Table, options: ImportOptions): Promise<ImportResult> {
  if (options.apply) await lockImports(tx);
  const plan = await importer.plan(tx, table);
  if (!options.apply || plan.rows.some((row) => row.outcome === 'refuse')) return { kind: importer.kind, applied: false, rows: plan.rows };
  await plan.apply(tx, options);
  await writeAudit(tx, plan.rows, options);
  return { kind: importer.kind, applied: true, rows: plan.rows };
}

/** One 'import' audit entry per created or updated record, five thousand to a statement (unnest). */
async function writeAudit(tx: Tx, rows: readonly PlannedRow[], context: ApplyContext): Promise<void> {
  const written = rows.filter((row) => row.outcome === 'create' || row.outcome === 'update');
  for (const batch of chunks(written, 5000)) {
    const json = (of: (row: PlannedRow) => unknown) => sql.param(batch.map((row) => { const value = of(row); return value === null || value === undefined ? null : JSON.stringify(value); }));
    await tx.execute(sql`
      insert into ${auditLog} (at, staff_id, action, entity, before, after, detail, reason)
      select ${context.now.toISOString()}::timestamptz, ${context.staffId}::int, 'import', entity, before::jsonb, after::jsonb, detail::jsonb, ${context.reason}
      from unnest(${sql.param(batch.map((row) => row.entity ?? row.key))}::text[], ${json((row) => row.before)}::text[], ${json((row) => row.after)}::text[],
        ${json((row) => ({ row: row.row }))}::text[]) as t(entity, before, after, detail)`);
  }
}

export function summaryOf(rows: readonly PlannedRow[]): ImportPlanResponse['summary'] {
  const summary = { create: 0, update: 0, unchanged: 0, refuse: 0 };
  for (const row of rows) summary[row.outcome]++;
  return summary;
}

/** The wire form of a result: the first IMPORT_PLAN_ROWS_SHOWN rows and every refused one. */
export function planResponse(result: ImportResult, now: Date): ImportPlanResponse {
  const rows = result.rows.filter((row, index) => index < IMPORT_PLAN_ROWS_SHOWN || row.outcome === 'refuse');
  return {
    kind: result.kind,
    applied: result.applied,
    summary: summaryOf(result.rows),
    rows: rows.map(({ row, key, outcome, problems }) => ({ row, key, outcome, problems })),
    server_time: now.toISOString(),
  };
}

// ---------------------------------------------------------------------------
// Rows: validation, keys, comparison
// ---------------------------------------------------------------------------

const reasonSet: ReadonlySet<string> = new Set(importReasons);

/** A record validated, or the problems that refuse it. */
export type Checked<T> = { record: CsvRecord; key: string; value: T | undefined; problems: ImportProblem[] };

/**
 * Validates every record with the kind's schema (a schema's messages are ImportReasons; anything
 * else reads as 'required' for an empty cell and 'invalid' otherwise) and refuses a second row
 * with the same natural key ('duplicate_in_file' on the key's columns).
 */
export function checkRecords<TSchema extends v.GenericSchema>(
  records: readonly CsvRecord[],
  schema: TSchema,
  key: { columns: readonly string[]; of: (cells: Record<string, string>) => string; folded?: (cells: Record<string, string>) => string },
): Checked<v.InferOutput<TSchema>>[] {
  const firstRows = new Map<string, number>();
  return records.map((record) => {
    const problems: ImportProblem[] = [];
    const extra = record.cells[EXTRA_CELLS];
    const cells = { ...record.cells };
    delete cells[EXTRA_CELLS];
    if (extra !== undefined) problems.push({ column: null, reason: 'invalid', value: extra });
    const result = v.safeParse(schema, cells);
    if (!result.success) problems.push(...problemsOf(result.issues));
    const keyText = key.of(cells);
    const folded = (key.folded ?? key.of)(cells);
    if (firstRows.has(folded)) {
      for (const column of key.columns) problems.push({ column, reason: 'duplicate_in_file', value: cells[column] ?? '' });
    } else firstRows.set(folded, record.row);
    return { record, key: keyText, value: result.success ? result.output : undefined, problems };
  });
}

function problemsOf(issues: readonly v.BaseIssue<unknown>[]): ImportProblem[] {
  const byColumn = new Map<string, ImportProblem>();
  for (const issue of issues) {
    const first = issue.path?.[0];
    const column = first !== undefined && typeof first.key === 'string' ? first.key : '';
    if (byColumn.has(column)) continue; // the first problem of a cell is the one worth telling
    const input = first?.value;
    const empty = input === undefined || input === '';
    const reason: ImportReason = reasonSet.has(issue.message) ? (issue.message as ImportReason) : empty ? 'required' : 'invalid';
    const problem: ImportProblem = { column: column === '' ? null : column, reason };
    if (typeof input === 'string' && input !== '') problem.value = input.slice(0, 200);
    byColumn.set(column, problem);
  }
  return [...byColumn.values()];
}

/** Each checked row planned by `plan`; a row that did not read cleanly is refused as it stands. */
export function planRows<T>(checked: readonly Checked<T>[], plan: (checked: Checked<T>, value: T) => PlannedRow): PlannedRow[] {
  return checked.map((c) => (!c.value || c.problems.length > 0 ? refused(c) : plan(c, c.value)));
}

/** A refused row of the plan. */
export function refused(checked: Checked<unknown>, extra: readonly ImportProblem[] = []): PlannedRow {
  return { row: checked.record.row, key: checked.key, outcome: 'refuse', problems: [...checked.problems, ...extra] };
}

/**
 * The outcome of a valid row: create when nothing is stored, else update when the state the file
 * asks for differs from the stored one, else unchanged.
 */
export function plannedRow(checked: Checked<unknown>, entity: string, before: RecordState | null, after: RecordState): PlannedRow {
  const outcome: ImportOutcome = before === null ? 'create' : sameState(before, after) ? 'unchanged' : 'update';
  return { row: checked.record.row, key: checked.key, outcome, problems: [], entity, before, after };
}

function sameState(a: RecordState, b: RecordState): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if ((a[key] ?? null) !== (b[key] ?? null)) return false;
  return true;
}

/**
 * The stored state with the file's values over it. A column the file leaves out (undefined)
 * keeps what is stored; an empty cell is the column's default (the schema turns it into one).
 */
export function overlay<T extends RecordState>(stored: T, given: { [K in keyof T]?: T[K] | undefined }): T {
  const next: RecordState = { ...stored };
  for (const [key, value] of Object.entries(given)) if (value !== undefined) next[key] = value;
  return next as T;
}

/** The rows a raw statement answers (PGlite and node-postgres both answer `{ rows }`). */
export async function queryRows<T>(tx: Tx, query: SQL): Promise<T[]> {
  const result: unknown = await tx.execute(query);
  if (typeof result === 'object' && result !== null && 'rows' in result && Array.isArray(result.rows)) return result.rows as T[];
  throw new Error('The database answered a statement with no rows array.');
}

export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/** Lower-case, for codes matched in any case (server/domain/lookups.ts does the same for logins). */
export const fold = (code: string) => code.toLowerCase();

// ---------------------------------------------------------------------------
// Cells: the valibot pieces every kind's schema is made of
// ---------------------------------------------------------------------------

/** A required text of at most `max` characters. */
export const requiredText = (max: number) => v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(max, 'too_long'));

/** An optional column: absent stays undefined (keep what is stored), an empty cell is `empty`. */
export function optionalCell<TSchema extends v.GenericSchema<string, unknown>, TEmpty>(schema: TSchema, empty: TEmpty) {
  return v.optional(v.union([v.pipe(v.literal(''), v.transform((): TEmpty => empty)), schema]));
}

/** Organisation, schedule and exam codes: letters, digits, hyphen and underscore. */
export const codeCell = v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(64, 'too_long'), v.regex(/^[A-Za-z0-9_-]+$/, 'invalid'));

/** yes/no, true/false, 1/0 in any case. */
export const flagCell = v.pipe(
  v.string(),
  v.toLowerCase(),
  v.picklist(['yes', 'no', 'true', 'false', '1', '0'], 'invalid'),
  v.transform((word) => word === 'yes' || word === 'true' || word === '1'),
);

/**
 * A time with its offset, ISO 8601: `2026-06-01T09:00+07:00`, `2026-06-01 09:00:00Z`. A time
 * without an offset is refused: a roster is read on a server whose zone is not the school's.
 */
export const instantCell = v.pipe(
  v.string(),
  v.check((text) => parseInstant(text) !== undefined, 'bad_date'),
  v.transform((text) => parseInstant(text)!.toISOString()),
);

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d{1,3})?\s*(?:(Z)|([+-])(\d{2}):?(\d{2}))$/i;

export function parseInstant(text: string): Date | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  if (!validDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMinutes = match[7] ? 0 : (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10]));
  if (Math.abs(offsetMinutes) > 14 * 60) return undefined;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000);
}

/** A calendar date `YYYY-MM-DD`. */
export const dateCell = v.pipe(
  v.string(),
  v.check((text) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    return match !== null && validDay(Number(match[1]), Number(match[2]), Number(match[3]));
  }, 'bad_date'),
);

function validDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && year <= 2200 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
