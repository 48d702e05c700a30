/**
 * A pupil terminal's presence (contract/presence.ts): what the proctor roster calls "last
 * contact" and "question n of 20", and how a terminal learns its current deadline.
 *
 * - heartbeat: checked like every exam call (own sitting, device binding, DOING, before the
 *   deadline: else TIME_END), then ONE UPDATE of last_contact_at, question_index and the
 *   answers the terminal says it still holds (waiting_answers, the roster's badge). A
 *   terminal that a proctor's move released the sitting for is bound here too (as by Start,
 *   server/domain/exam.ts), so a client that resumes without pressing Start is bound as well.
 * - recordContact: any successful exam call of a DOING sitting counts as contact (one UPDATE by
 *   key; the HTTP layer calls it after the response is decided).
 */
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Db, Tx } from '../db/client.ts';
import { scheduleHistories } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { answeringRefusal, toStatus, type Status } from './schedule-history.ts';
import { assertDevice, loadOwnSitting, ownSittings } from './sitting.ts';
import type { Principal } from './tokens.ts';

export type HeartbeatResult = { status: Status; deadlineAt: Date };

export async function heartbeat(
  db: Db,
  principal: Principal,
  input: { scheduleHistoryId: number; questionIndex: number; waitingAnswers?: number; deviceToken: string | undefined; now: Date },
): Promise<HeartbeatResult> {
  const { now } = input;
  const sitting = await loadOwnSitting(db, principal, input.scheduleHistoryId);
  const { history } = sitting;
  assertDevice(sitting, input.deviceToken);
  const refusal = answeringRefusal(history.status);
  if (refusal) throw new DomainError(refusal);
  if (!history.deadlineAt) throw new Error(`Sitting ${history.id} is DOING without a deadline`);
  if (now > history.deadlineAt) throw new DomainError('TIME_END', 'The time for this exam is over.');

  if (isReleased(history) && input.deviceToken !== undefined) {
    // Another terminal bound it between our read and now: that one holds the sitting.
    if (!(await bindReleasedSitting(db, history.id, input.deviceToken, now))) {
      throw new DomainError('INCORRECT_DEVICE', 'This exam was started on another terminal.');
    }
  }
  await db
    .update(scheduleHistories)
    .set({ lastContactAt: now, questionIndex: input.questionIndex, waitingAnswers: input.waitingAnswers ?? 0 })
    .where(and(eq(scheduleHistories.id, history.id), eq(scheduleHistories.status, ScheduleHistoryStatus.DOING)));
  return { status: toStatus(history.status), deadlineAt: history.deadlineAt };
}

/** A proctor moved the pupil: no terminal holds the sitting until one binds it. */
export function isReleased(history: { deviceToken: string | null; deviceReleasedAt: Date | null }): boolean {
  return history.deviceToken === null && history.deviceReleasedAt !== null;
}

/**
 * Binds a released sitting to the terminal that resumes it (Start or heartbeat after a move);
 * the guard keeps a second terminal from taking it over once one has. True when bound.
 */
export async function bindReleasedSitting(tx: Tx, scheduleHistoryId: number, deviceToken: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(scheduleHistories)
    .set({ deviceToken, deviceReleasedAt: null, lastContactAt: now })
    .where(
      and(
        eq(scheduleHistories.id, scheduleHistoryId),
        eq(scheduleHistories.status, ScheduleHistoryStatus.DOING),
        isNull(scheduleHistories.deviceToken),
        isNotNull(scheduleHistories.deviceReleasedAt),
      ),
    )
    .returning({ id: scheduleHistories.id });
  return rows.length > 0;
}

/** Marks contact on the caller's DOING sitting (the token's own one, or any of an examinee-wide login). */
export async function recordContact(tx: Tx, principal: Principal, now: Date): Promise<void> {
  await tx
    .update(scheduleHistories)
    .set({ lastContactAt: now })
    .where(and(ownSittings(principal), eq(scheduleHistories.status, ScheduleHistoryStatus.DOING)));
}
