/**
 * The roster commands of `npm run admin`, on the same database as the server:
 *
 *   import <schools|venues|schedules|pupils> <file.csv> [--apply]
 *     The same import as the console (server/imports/roster.ts). Without --apply a dry run.
 *     Prints the summary and every refusal as `row N, column X: <reason in English>`.
 *     Exit 0 when nothing was refused (and, with --apply, it was applied), 1 when anything was
 *     refused or the file or database could not be read, 2 usage.
 *
 *   reissue-code <school code> <pupil id>
 *     A new login code for the pupil (server/imports/login-codes.ts); the old one stops working
 *     at once. Prints the new code. Exit 1 when no such pupil.
 *
 * Changes from the command line are audited with no staff member and the reason 'command line'.
 */
import { readFile, stat } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { importKinds, MAX_ROSTER_FILE_BYTES, type ImportKind, type ImportProblem, type ImportReason } from '../../contract/imports.ts';
import { withDatabase, type CliIo } from './database.ts';
import { examinees, organizations } from '../db/schema.ts';
import { reissueLoginCode } from '../imports/login-codes.ts';
import { summaryOf } from '../imports/plan.ts';
import { importRoster } from '../imports/roster.ts';

export const importUsage = 'npm run admin -- import <schools|venues|schedules|pupils> <file.csv> [--apply]';
export const reissueCodeUsage = 'npm run admin -- reissue-code <school code> <pupil id>';

type Io = CliIo;

/** What each refusal reason means, in English (the console has its own translations). */
export const reasonText: Record<ImportReason, string> = {
  too_large: `the file is larger than ${MAX_ROSTER_FILE_BYTES / 1024 / 1024} MB`,
  encoding: 'the file is not UTF-8 text (save it as "CSV UTF-8")',
  empty_file: 'the file is empty',
  missing_column: 'this required column is missing from the header',
  unknown_column: 'no such column',
  duplicate_column: 'this column is named twice in the header',
  required: 'a value is required',
  invalid: 'this value is not valid here',
  too_long: 'this value is too long',
  bad_date: 'not a date and time with an offset, e.g. 2026-06-01T09:00+07:00 (or a date YYYY-MM-DD)',
  bad_window: 'the end is not after the start',
  unknown_school: 'no school with this code (import the schools first)',
  unknown_classroom: 'no classroom of this name in the school (import the classrooms first)',
  unknown_schedule: 'no test period with this code in the school (import the test periods first)',
  unknown_exam: 'no exam with this code (import the exam first)',
  duplicate_in_file: 'another row of the file has the same key',
  duplicate_login_id: 'another pupil has this login id',
  duplicate_login_code: 'another pupil has this login code',
  started_cannot_change: 'pupils have sittings of it, so it cannot be changed',
  bad_zip: 'not a readable zip file',
  zip_bomb: 'the package unpacks to too much data',
  path_outside_package: 'a path points outside the package',
  missing_manifest: 'the package has no imsmanifest.xml',
  missing_file: 'a file the package names is missing',
  bad_xml: 'not well-formed XML',
  external_entity: 'the XML declares entities (never read)',
  unsupported_interaction: 'an interaction Gradus does not show',
  missing_key: 'the item has no correct answer',
  bad_key: 'the correct answer does not fit the question',
  unknown_level: 'no such level',
  bad_json: 'not valid JSON',
};

/** `row 4, column school: no school with this code (import the schools first): "NOPE"`. */
export function problemLine(row: number | null, problem: ImportProblem): string {
  const where = [row === null ? 'file' : `row ${row}`, problem.column === null ? null : `column ${problem.column}`].filter((part) => part !== null).join(', ');
  const value = problem.value === undefined ? '' : `: "${problem.value}"`;
  return `${where}: ${reasonText[problem.reason]}${value}`;
}

/** `args`: what follows `import` (the kind, the file, --apply). */
export async function runImportCommand(args: readonly string[], io: Io): Promise<number> {
  const apply = args.includes('--apply');
  const rest = args.filter((arg) => arg !== '--apply');
  const [kind, file] = rest;
  if (rest.length !== 2 || !importKinds.includes(kind as ImportKind) || file === undefined) {
    io.err(`Usage: ${importUsage}`);
    return 2;
  }
  let bytes: Uint8Array;
  try {
    const size = (await stat(file)).size;
    // Refused unread, as the console refuses it.
    if (size > MAX_ROSTER_FILE_BYTES) {
      io.err(`Nothing was imported. ${problemLine(null, { column: null, reason: 'too_large', value: String(size) })}`);
      return 1;
    }
    bytes = new Uint8Array(await readFile(file));
  } catch (error) {
    io.err(`Nothing was imported: cannot read ${file} (${error instanceof Error ? error.message : String(error)}).`);
    return 1;
  }
  return withDatabase(io, 'changed', async (database) => {
    const result = await importRoster(database.db, kind as ImportKind, bytes, { apply, now: new Date(), staffId: null, reason: 'command line' });
    const summary = summaryOf(result.rows);
    const counts = `${summary.create} to create, ${summary.update} to update, ${summary.unchanged} unchanged, ${summary.refuse} refused`;
    for (const row of result.rows) for (const problem of row.problems) io.err(problemLine(row.row, problem));
    if (summary.refuse > 0) {
      io.err(`${kind} from ${file}: ${counts}. Nothing was imported.`);
      return 1;
    }
    if (result.applied) io.out(`${kind} from ${file} imported on ${database.driver} (${database.location}): ${counts.replaceAll('to ', '')}.`);
    else io.out(`${kind} from ${file} (dry run on ${database.driver}): ${counts}. Run again with --apply to import.`);
    return 0;
  });
}

/** `args`: what follows `reissue-code` (the school code and the pupil id). */
export async function runReissueCode(args: readonly string[], io: Io): Promise<number> {
  const [school, pupilId, ...rest] = args;
  if (school === undefined || pupilId === undefined || rest.length > 0) {
    io.err(`Usage: ${reissueCodeUsage}`);
    return 2;
  }
  return withDatabase(io, 'changed', async (database) => {
    const [pupil] = await database.db
      .select({ id: examinees.id, name: examinees.name })
      .from(examinees)
      .innerJoin(organizations, eq(organizations.id, examinees.organizationId))
      .where(and(eq(organizations.code, school), eq(examinees.externalId, pupilId)));
    const result = pupil ? await reissueLoginCode(database.db, pupil.id, { now: new Date(), staffId: null, reason: 'command line' }) : { ok: false as const };
    if (!pupil || !result.ok) {
      io.err(`No pupil "${pupilId}" in the school "${school}". Nothing was changed.`);
      return 1;
    }
    io.out(`New login code of ${pupil.name} (${school}/${pupilId}): ${result.loginCode}. The old code ${result.previous} no longer logs in.`);
    return 0;
  });
}
