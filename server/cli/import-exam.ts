/**
 * `npm run admin -- import exam <file.json|package.zip> [--apply] [--subject <1|2|3|6>]
 * [--level <n>] [--level-name <name>]`: a Gradus exam JSON file or an IMS QTI 3.0 package,
 * through the same import as the console (server/imports/exams/apply.ts). Without --apply a dry
 * run. `--subject/--level/--level-name` say what a QTI package's manifest does not (they win
 * over it). Prints the plan in English: one line per exam and question, every refusal with its
 * item or file, column and reason. Applied imports are audited with no staff member (the
 * command line).
 *
 * Exit 0 when nothing was refused (and, with --apply, applied), 1 when anything was refused or
 * the file or database could not be read, 2 usage.
 */
import { readFile, stat } from 'node:fs/promises';
import { MAX_EXAM_FILE_BYTES } from '../../contract/imports.ts';
import { withDatabase, type CliIo } from './database.ts';
import { importExam } from '../imports/exams/apply.ts';
import type { QtiOptions } from '../imports/exams/qti.ts';
import { summaryOf, type ImportResult, type PlannedRow } from '../imports/plan.ts';

export const importExamUsage = 'npm run admin -- import exam <file.json|package.zip> [--apply] [--subject <1|2|3|6>] [--level <n>] [--level-name <name>]';

type Io = CliIo;

type Args = { file: string; apply: boolean; qti: QtiOptions };

function argsOf(args: readonly string[]): Args | null {
  let file: string | undefined;
  let apply = false;
  const qti: QtiOptions = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = args[i + 1];
    if (arg === '--apply') {
      apply = true;
      continue;
    }
    if (arg.startsWith('--')) {
      if (value === undefined) return null;
      if (arg === '--subject' && ['1', '2', '3', '6'].includes(value)) qti.subject = Number(value);
      else if (arg === '--level' && /^[1-9][0-9]?$/.test(value)) qti.level = Number(value);
      else if (arg === '--level-name' && value.trim() !== '') qti.levelName = value.trim();
      else return null;
      i++;
      continue;
    }
    if (file !== undefined) return null;
    file = arg;
  }
  return file === undefined ? null : { file, apply, qti };
}

/** `args`: what follows `import exam`. */
export async function runImportExam(args: readonly string[], io: Io): Promise<number> {
  const parsed = argsOf(args);
  if (parsed === null) {
    io.err(`Usage: ${importExamUsage}`);
    return 2;
  }
  let bytes: Uint8Array;
  try {
    const size = (await stat(parsed.file)).size;
    if (size > MAX_EXAM_FILE_BYTES) {
      io.err(`Nothing was imported: ${parsed.file} is ${size} bytes, over the ${MAX_EXAM_FILE_BYTES} bytes an exam file may have (too_large).`);
      return 1;
    }
    bytes = new Uint8Array(await readFile(parsed.file));
  } catch (error) {
    io.err(`Nothing was imported: cannot read ${parsed.file} (${error instanceof Error ? error.message : String(error)}).`);
    return 1;
  }

  return withDatabase(io, 'imported', async (database) => {
    const result = await importExam(database.db, bytes, { apply: parsed.apply, qti: parsed.qti, now: new Date(), staffId: null, reason: 'exam import (command line)' });
    for (const line of planLines(result)) io.out(line);
    const summary = summaryOf(result.rows);
    const refused = summary.refuse > 0;
    const where = `${database.driver} (${database.location})`;
    if (refused) io.err(`Nothing was imported: ${summary.refuse} refused.`);
    else if (result.applied) io.out(`Applied on ${where}.`);
    else io.out(`Dry run on ${where}: nothing was changed. Add --apply to import.`);
    return refused ? 1 : 0;
  });
}

/** The plan in English, one line a row, refusals with their reasons. */
export function planLines(result: ImportResult): string[] {
  const summary = summaryOf(result.rows);
  const lines = [`exam: ${summary.create} to create, ${summary.update} to update, ${summary.unchanged} unchanged, ${summary.refuse} refused`];
  for (const row of result.rows) lines.push(rowLine(row));
  return lines;
}

function rowLine(row: PlannedRow): string {
  const where = `${row.key || '(file)'}${row.row === null ? '' : ` (question ${row.row})`}`;
  if (row.outcome !== 'refuse') return `  ${row.outcome.padEnd(9)} ${where}`;
  const problems = row.problems.map((p) => `${p.column === null ? '' : `${p.column}: `}${p.reason}${p.value === undefined ? '' : ` (${p.value})`}`);
  return `  refuse    ${where}: ${problems.join('; ')}`;
}
