/**
 * `npm run admin -- export-results <schedule code> [--venue <venue name or id>] --out <file.csv>`:
 * the results CSV of a test period, or of one of its classrooms (server/exports/results-csv.ts),
 * written to a file, audited (results_export, no staff member: the command line). On the same
 * database as the server (DATABASE_URL, else PGlite under DATA_DIR; a PGlite directory a server
 * holds is refused: export from the console then). Exit 0 written, 1 unknown test period or
 * classroom or database in use, 2 usage.
 */
import { writeFile } from 'node:fs/promises';
import { withDatabase, type CliIo } from './database.ts';
import { DomainError } from '../domain/errors.ts';
import { resultsCsv } from '../exports/results-csv.ts';
import { auditExport, exportScope } from '../exports/scope.ts';
import { exportArgsOf } from './export-options.ts';

export const exportResultsUsage = 'npm run admin -- export-results <schedule code> [--venue <venue name or id>] --out <file.csv>';

export type { CliIo };

export async function runExportResults(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = exportArgsOf(args);
  if (!parsed) {
    io.err(`Usage: ${exportResultsUsage}`);
    return 2;
  }
  return withDatabase(io, 'exported', async (database) => {
    try {
      const { db } = database;
      const made = await db.transaction(async (tx) => {
        const scope = await exportScope(tx, parsed.scheduleCode, parsed.venue);
        const csv = await resultsCsv(tx, scope);
        await auditExport(tx, { at: new Date(), staffId: null, action: 'results_export', scope, detail: { rows: csv.rows } });
        // Inside the transaction: a file that cannot be written leaves no audit entry behind.
        await writeFile(parsed.out, csv.csv, 'utf8');
        return { scope, csv };
      });
      const place = made.scope.venue ? `, classroom "${made.scope.venue.name}"` : '';
      io.out(`Wrote ${made.csv.rows} result row(s) of test period "${made.scope.schedule.code}" (${made.scope.school.name}${place}) to ${parsed.out}.`);
      return 0;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') {
        io.err(error.message);
        return 1;
      }
      throw error;
    }
  });
}
