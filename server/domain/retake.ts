/**
 * The reset for a retake, one function for both ways in: the command line
 * (`npm run admin -- reset <account>`, server/admin.ts: resetAccount) and the proctor console
 * (POST /api/admin/sittings/:id/retake, server/domain/proctor.ts: resetSitting).
 *
 * A reset takes a started or finished sitting (DOING, or finished with its result not public
 * yet: COMPLETED, SCORING_COMPLETED, STATISTIC_COMPLETED, as the schedule history machine's
 * `retake.reset` allows) back to PENDING with flag_retake; started_at, deadline_at,
 * finished_at, the receipt, the bound device, the presence columns and the time credited are
 * cleared, and its result (score, rank, units) deleted. Its answers move to answer_archive
 * under the sitting's next reset number (so the same pupil can be reset any number of times),
 * and every live token of the examinee is revoked with the reason 'retake': the pupil's next
 * call answers 401 ER_SCHEDULE_HISTORY_RETAKE and the pupil logs in again. Everything happens
 * in the caller's transaction, under the sitting's row lock, with an audit entry.
 */
import { eq, max, or } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { type ErrorCode } from '../../contract/errors.ts';
import type { Db, Tx } from '../db/client.ts';
import { answerArchive, answers, auditLog, deviceMoves, examinees, resultUnits, results, scheduleHistories } from '../db/schema.ts';
import { isFinished, nextStatus } from './schedule-history.ts';
import { revokeAllOfExaminee } from './tokens.ts';

const S = ScheduleHistoryStatus;

export type SittingReset = {
  scheduleHistoryId: number;
  previousStatus: number;
  archivedAnswers: number;
  revokedTokens: number;
  resetNumber: number;
};

/** Why a sitting in this status cannot be reset, or undefined when it can. */
export function retakeRefusal(status: number): ErrorCode | undefined {
  if (nextStatus(status, { type: 'retake.reset' }) !== undefined) return undefined;
  if (status === S.PENDING) return 'EXAM_NOT_STARTED';
  if (isFinished(status)) return 'ER_SCHEDULE_HISTORY_COMPLETED';
  if (status === S.CANCELED_PENDING || status === S.CANCELED_COMPLETED) return 'ER_SCHEDULE_HISTORY_CANCELLED';
  if (status === S.EXPIRED) return 'EXPIRED';
  return 'GENERIC_ERROR';
}

/**
 * Resets one sitting, which the caller has locked FOR UPDATE in `tx` and checked with
 * retakeRefusal; writes the audit entry (staffId null: the command line; `detail` adds to its
 * detail, e.g. the proctor's idempotency key) and returns what it did.
 */
export async function resetSitting(
  tx: Tx,
  sitting: { id: number; status: number; examineeId: number; scheduleId: number },
  context: { now: Date; staffId: number | null; reason: string; detail?: Record<string, unknown> },
): Promise<SittingReset> {
  const { now } = context;
  const resetTo = nextStatus(sitting.status, { type: 'retake.reset' });
  if (resetTo === undefined) throw new Error(`Sitting ${sitting.id} cannot be reset from status ${sitting.status}`);

  const [last] = await tx
    .select({ n: max(answerArchive.resetNumber) })
    .from(answerArchive)
    .where(eq(answerArchive.scheduleHistoryId, sitting.id));
  const resetNumber = (last?.n ?? 0) + 1;
  const old = await tx.select().from(answers).where(eq(answers.scheduleHistoryId, sitting.id));
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
        resetNumber,
      })),
    );
    await tx.delete(answers).where(eq(answers.scheduleHistoryId, sitting.id));
  }
  await tx.delete(resultUnits).where(eq(resultUnits.scheduleHistoryId, sitting.id));
  // A terminal the pupil was moved away from holds answers of the attempt reset here: never of the next.
  await tx.delete(deviceMoves).where(eq(deviceMoves.scheduleHistoryId, sitting.id));
  await tx.delete(results).where(eq(results.scheduleHistoryId, sitting.id));
  await tx
    .update(scheduleHistories)
    .set({
      status: resetTo,
      flagRetake: true,
      startedAt: null,
      deadlineAt: null,
      finishedAt: null,
      deviceToken: null,
      answerCount: null,
      answersDigest: null,
      lastContactAt: null,
      questionIndex: null,
      extraSeconds: 0,
      deviceReleasedAt: null,
      waitingAnswers: 0,
    })
    .where(eq(scheduleHistories.id, sitting.id));
  const revokedTokens = await revokeAllOfExaminee(tx, sitting.examineeId, now, 'retake');
  await tx.insert(auditLog).values({
    at: now,
    staffId: context.staffId,
    action: 'retake',
    scheduleId: sitting.scheduleId,
    scheduleHistoryId: sitting.id,
    detail: { archived_answers: old.length, previous_status: sitting.status, revoked_tokens: revokedTokens, ...context.detail },
    reason: context.reason,
  });
  return { scheduleHistoryId: sitting.id, previousStatus: sitting.status, archivedAnswers: old.length, revokedTokens, resetNumber };
}

export type ResetResult =
  | { ok: true; examineeId: number; scheduleHistoryId: number; previousStatus: number; archivedAnswers: number; revokedTokens: number }
  | { ok: false; reason: 'unknown-account' | 'nothing-to-reset'; message: string };

/** What the command line writes as the audit entry's reason. */
export const COMMAND_LINE_REASON = 'Reset from the command line (npm run admin -- reset).';

/**
 * The command line's reset by account (login code or login id): the examinee's newest DOING
 * sitting, else their newest resettable finished one.
 */
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
        .select({ id: scheduleHistories.id, status: scheduleHistories.status, scheduleId: scheduleHistories.scheduleId })
        .from(scheduleHistories)
        .where(eq(scheduleHistories.examineeId, examinee.id))
        .for('update')
    ).filter((c) => retakeRefusal(c.status) === undefined);
    const pick =
      candidates.filter((c) => c.status === S.DOING).sort((a, b) => b.id - a.id)[0] ?? candidates.sort((a, b) => b.id - a.id)[0];
    if (!pick) {
      return { ok: false, reason: 'nothing-to-reset', message: `Account "${key}" has no started or finished exam to reset.` };
    }
    const reset = await resetSitting(tx, { ...pick, examineeId: examinee.id }, { now, staffId: null, reason: COMMAND_LINE_REASON });
    return {
      ok: true,
      examineeId: examinee.id,
      scheduleHistoryId: reset.scheduleHistoryId,
      previousStatus: reset.previousStatus,
      archivedAnswers: reset.archivedAnswers,
      revokedTokens: reset.revokedTokens,
    };
  });
}
