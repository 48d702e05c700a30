/**
 * Administration from the command line, on the same database as the server (DATABASE_URL, else
 * PGlite under DATA_DIR, default ./data). On PostgreSQL it acts beside running servers, which
 * see the change at once. A PGlite directory belongs to the one process that holds it: while a
 * server runs on it this command refuses (exit code 1, nothing changed) and points to the
 * proctor console (/proctor), which acts through the running server.
 *
 *   npm run admin -- reset <login code | login id>
 *
 * reset (a retake): the examinee's started or finished schedule history (the newest DOING one,
 * else the newest finished one whose result is not public yet: COMPLETED, SCORING_COMPLETED or
 * STATISTIC_COMPLETED, as the schedule history machine's `retake.reset` allows) goes back to
 * PENDING with flag_retake set; started_at, deadline_at, finished_at, the receipt, the bound
 * device and its result (score, rank, units) are cleared; its answers move to
 * answer_archive (kept for audit, detached from the exam); every live token of the examinee is
 * revoked with the reason 'retake', so the pupil's next call answers 401
 * ER_SCHEDULE_HISTORY_RETAKE and the pupil must log in again. Unknown accounts exit with code 1.
 */
import { configFromEnv } from './config.ts';
import { DataDirectoryInUseError, openDatabase, type Database } from './db/client.ts';
import { resetAccount } from './domain/retake.ts';

/** The reset itself lives in server/domain/retake.ts, shared with the proctor console's retake. */
export { resetAccount, type ResetResult } from './domain/retake.ts';

const usage = 'Usage: npm run admin -- reset <login code | login id>';

/** The CLI: returns the exit code; writes what it did to `out`, problems to `err`. */
export async function runAdmin(
  args: readonly string[],
  io: { out: (line: string) => void; err: (line: string) => void; env?: Record<string, string | undefined> },
): Promise<number> {
  const [command, account, ...rest] = args;
  if (command !== 'reset' || account === undefined || rest.length > 0) {
    io.err(usage);
    return 2;
  }
  const config = configFromEnv(io.env ?? process.env);
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    // PGlite held by the running server: nothing was done, and the exit code says so.
    if (!(error instanceof DataDirectoryInUseError)) throw error;
    io.err(`Nothing was reset. ${error.message}`);
    return 1;
  }
  try {
    const result = await resetAccount(database.db, account, new Date());
    if (!result.ok) {
      io.err(result.message);
      return 1;
    }
    io.out(
      `Reset account "${account}" (examinee ${result.examineeId}) on ${database.driver} (${database.location}): ` +
        `schedule history ${result.scheduleHistoryId} from status ${result.previousStatus} to PENDING with flag_retake; ` +
        `${result.archivedAnswers} answer(s) archived; ${result.revokedTokens} token(s) revoked. The pupil must log in again.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  const code = await runAdmin(process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  process.exitCode = code;
}
