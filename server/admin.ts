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
import { eq, or } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../src/shared/contract.ts';
import { configFromEnv } from './config.ts';
import { DataDirectoryInUseError, openDatabase, type Database, type Db } from './db/client.ts';
import { answerArchive, answers, examinees, resultUnits, results, scheduleHistories } from './db/schema.ts';
import { nextStatus } from './domain/schedule-history.ts';
import { revokeAllOfExaminee } from './domain/tokens.ts';

export type ResetResult =
  | { ok: true; examineeId: number; scheduleHistoryId: number; previousStatus: number; archivedAnswers: number; revokedTokens: number }
  | { ok: false; reason: 'unknown-account' | 'nothing-to-reset'; message: string };

/** Resets (retake) the account with this login code or login id; see the module comment. */
export async function resetAccount(db: Db, account: string, now: Date): Promise<ResetResult> {
  const key = account.trim();
  if (key === '') return { ok: false, reason: 'unknown-account', message: 'No account given.' };
  return db.transaction(async (tx) => {
    const [examinee] = await tx
      .select({ id: examinees.id })
      .from(examinees)
      .where(or(eq(examinees.loginCode, key), eq(examinees.loginId, key)))
      .limit(1);
    if (!examinee) return { ok: false, reason: 'unknown-account', message: `No account with login code or login id "${key}".` };

    const candidates = (
      await tx
        .select({ id: scheduleHistories.id, status: scheduleHistories.status })
        .from(scheduleHistories)
        .where(eq(scheduleHistories.examineeId, examinee.id))
        .for('update')
    ).flatMap((c) => {
      const resetTo = nextStatus(c.status, { type: 'retake.reset' });
      return resetTo === undefined ? [] : [{ ...c, resetTo }];
    });
    const pick =
      candidates.filter((c) => c.status === ScheduleHistoryStatus.DOING).sort((a, b) => b.id - a.id)[0] ??
      candidates.sort((a, b) => b.id - a.id)[0];
    if (!pick) {
      return { ok: false, reason: 'nothing-to-reset', message: `Account "${key}" has no started or finished exam to reset.` };
    }

    const old = await tx.select().from(answers).where(eq(answers.scheduleHistoryId, pick.id));
    if (old.length > 0) {
      await tx.insert(answerArchive).values(
        old.map((a) => ({
          scheduleHistoryId: a.scheduleHistoryId,
          questionId: a.questionId,
          value: a.value,
          answeredAt: a.answeredAt,
          receivedAt: a.receivedAt,
          idempotencyKey: a.idempotencyKey,
          late: a.late,
          supersededAt: now,
        })),
      );
      await tx.delete(answers).where(eq(answers.scheduleHistoryId, pick.id));
    }
    await tx.delete(resultUnits).where(eq(resultUnits.scheduleHistoryId, pick.id));
    await tx.delete(results).where(eq(results.scheduleHistoryId, pick.id));
    await tx
      .update(scheduleHistories)
      .set({
        status: pick.resetTo,
        flagRetake: true,
        startedAt: null,
        deadlineAt: null,
        finishedAt: null,
        deviceToken: null,
        answerCount: null,
        answersDigest: null,
      })
      .where(eq(scheduleHistories.id, pick.id));
    const revokedTokens = await revokeAllOfExaminee(tx, examinee.id, now, 'retake');
    return {
      ok: true,
      examineeId: examinee.id,
      scheduleHistoryId: pick.id,
      previousStatus: pick.status,
      archivedAnswers: old.length,
      revokedTokens,
    };
  });
}

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
