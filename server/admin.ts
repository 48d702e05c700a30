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
 *
 *   npm run admin -- rank-display <organisation code> show|hide
 *   npm run admin -- application-mode <schedule code> personal|group
 *
 * The school settings of seed section 3 (server/domain/school-settings.ts): whether the
 * organisation's score reports show the pupil's rank (display flag 1 or 3), and whether a test
 * period was applied for personally or by the school as a group (1 or 2: in group mode nobody of
 * it is asked for the exam fee). Unknown codes exit with code 1, unknown words with code 2.
 */
import { exportResultsUsage, runExportResults } from './cli/export-results.ts';
import { runSlips, slipsUsage } from './cli/slips.ts';
import { importExamUsage, runImportExam } from './cli/import-exam.ts';
import { importUsage, reissueCodeUsage, runImportCommand, runReissueCode } from './cli/import.ts';
import { createStaffUsage, runCreateStaff } from './cli/create-staff.ts';
import { withDatabase, type CliIo } from './cli/database.ts';
import type { Database } from './db/client.ts';
import { resetAccount } from './domain/retake.ts';
import { applicationModeWords, rankDisplayWords, setApplicationMode, setRankDisplay, type SettingResult } from './domain/school-settings.ts';

/** The reset itself lives in server/domain/retake.ts, shared with the proctor console's retake. */
export { resetAccount, type ResetResult } from './domain/retake.ts';

const usage = [
  'Usage: npm run admin -- reset <login code | login id>',
  `       ${createStaffUsage}`,
  `       ${importUsage}`,
  `       ${importExamUsage}`,
  `       ${reissueCodeUsage}`,
  '       npm run admin -- rank-display <organisation code> show|hide',
  '       npm run admin -- application-mode <schedule code> personal|group',
  `       ${slipsUsage}`,
  `       ${exportResultsUsage}`,
].join('\n');

type Command =
  | { kind: 'reset'; account: string }
  | { kind: 'setting'; run: (db: Database['db']) => Promise<SettingResult>; what: string };

/** The command the arguments name, or null (usage). */
function commandOf(args: readonly string[]): Command | null {
  const [command, subject, word, ...rest] = args;
  if (subject === undefined || rest.length > 0) return null;
  if (command === 'reset') return word === undefined ? { kind: 'reset', account: subject } : null;
  if (command === 'rank-display' && word !== undefined && Object.hasOwn(rankDisplayWords, word)) {
    const flag = rankDisplayWords[word as keyof typeof rankDisplayWords];
    return { kind: 'setting', run: (db) => setRankDisplay(db, subject, flag), what: `organisation "${subject}": rank display flag ${flag} (${word})` };
  }
  if (command === 'application-mode' && word !== undefined && Object.hasOwn(applicationModeWords, word)) {
    const mode = applicationModeWords[word as keyof typeof applicationModeWords];
    return { kind: 'setting', run: (db) => setApplicationMode(db, subject, mode), what: `test period "${subject}": application mode ${mode} (${word})` };
  }
  return null;
}

/** The CLI: returns the exit code; writes what it did to `out`, problems to `err`. */
export async function runAdmin(args: readonly string[], io: CliIo): Promise<number> {
  // Login slips (PDF) and results (CSV) of a test period: server/cli/slips.ts, export-results.ts.
  if (args[0] === 'slips') return runSlips(args.slice(1), io);
  if (args[0] === 'export-results') return runExportResults(args.slice(1), io);
  // Exams in (a JSON exam file or an IMS QTI 3.0 package): server/cli/import-exam.ts.
  if (args[0] === 'import' && args[1] === 'exam') return runImportExam(args.slice(2), io);
  // Rosters in (schools, classrooms, test periods, pupils) and a pupil's new login code: server/cli/import.ts.
  if (args[0] === 'import') return runImportCommand(args.slice(1), io);
  if (args[0] === 'reissue-code') return runReissueCode(args.slice(1), io);
  // A staff account (the first administrator of an empty deployment): server/cli/create-staff.ts.
  if (args[0] === 'create-staff') return runCreateStaff(args.slice(1), io);
  const command = commandOf(args);
  if (command === null) {
    io.err(usage);
    return 2;
  }
  return withDatabase(io, command.kind === 'reset' ? 'reset' : 'changed', async (database) => {
    if (command.kind === 'setting') {
      const result = await command.run(database.db);
      if (!result.ok) {
        io.err(result.message);
        return 1;
      }
      io.out(`Set ${command.what} on ${database.driver} (${database.location}); it was ${result.previous}.`);
      return 0;
    }
    const account = command.account;
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
  });
}

if (import.meta.main) {
  const code = await runAdmin(process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  process.exitCode = code;
}
