/**
 * A proctor's exam-day actions on the sittings of their organisation, and the audit trail.
 * Each action runs in ONE transaction: the sitting's row lock, the change, and its audit entry
 * (who, when, what, why) commit together or not at all.
 *
 * - moveTerminal: for a pupil who changes terminals (not a retake). The device binding is
 *   released and every live token of the pupil revoked with the reason 'moved' (the old
 *   terminal's next call: 403 INCORRECT_DEVICE); answers, deadline and status stay. The pupil
 *   logs in on the new terminal, and Start there binds it and resumes (server/domain/exam.ts).
 *   The old terminal and the moment are kept (device_moves): it may still deliver the answers it
 *   holds that were given before the move (server/domain/answers/), nothing later.
 * - retake: the reset (server/domain/retake.ts), shared with the command line.
 * - extendSitting / extendSchedule: give a DOING sitting (one pupil, or every DOING sitting of a
 *   schedule or of one room of it) whole minutes more. The minutes run from the later of the
 *   deadline and now (`extendedDeadline`): before the deadline they are added to it; once it has
 *   passed (the roster's `time_up`, while answers given before it may still arrive) the pupil
 *   gets that many minutes from the moment the proctor gives them, never fewer. Past the upload
 *   window the sitting is over (its answers are refused TIME_END, server/domain/answers/; the
 *   automatic finish ends it): the extension is refused TIME_END too (`extensionRefusal`), and
 *   the room-wide one leaves such a sitting out. extra_seconds counts the time given. Everything
 *   that judges time reads deadline_at (answers and their upload window, the heartbeat, Start,
 *   the automatic finish, which re-reads it under the row lock), so the new deadline holds
 *   everywhere at once.
 *
 * Every action is done at most once per idempotency key (contract/admin.ts): "Try again" after a
 * lost answer finds the audit entry of the first and answers as it did, changing nothing.
 *
 * Only a sitting in the exam (DOING) can be moved or extended; otherwise the refusal is the
 * code the exam itself would answer (EXAM_NOT_STARTED, ER_SCHEDULE_HISTORY_COMPLETED,
 * ER_SCHEDULE_HISTORY_CANCELLED, EXPIRED): a finished sitting is never extended, nor one past
 * its upload window (TIME_END).
 * Anything outside the proctor's organisation is NOT_FOUND (server/domain/roster.ts).
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AUDIT_LIMIT, type AuditAction, type AuditEntry, type RosterPupil } from '../../contract/admin.ts';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { isPastUploadWindow } from '../../contract/exam.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog, deviceMoves, examinees, scheduleHistories, schedules, staff } from '../db/schema.ts';
import { auditColumns, auditEntryOf } from './audit-entries.ts';
import { DomainError } from './errors.ts';
import { resetSitting, retakeRefusal } from './retake.ts';
import { findSchedule, findVenue, notFound, roomWhere, rosterPupil } from './roster.ts';
import { answeringRefusal } from './schedule-history.ts';
import { MAX_ID } from './sitting.ts';
import { withinReach, type StaffPrincipal } from './staff.ts';
import { revokeAllOfExaminee } from './tokens.ts';

/** `idempotencyKey`: the page's key of this confirmed action (contract/admin.ts); absent, every request acts. */
type ActionContext = { now: Date; reason: string; idempotencyKey?: string | undefined };

/** The sitting, locked FOR UPDATE, when it belongs to the proctor's organisation; else NOT_FOUND. */
async function lockStaffSitting(tx: Tx, principal: StaffPrincipal, scheduleHistoryId: number) {
  if (!Number.isInteger(scheduleHistoryId) || scheduleHistoryId < 1 || scheduleHistoryId > MAX_ID) throw notFound('No such sitting.');
  const [row] = await tx
    .select({
      id: scheduleHistories.id,
      status: scheduleHistories.status,
      examineeId: scheduleHistories.examineeId,
      scheduleId: scheduleHistories.scheduleId,
      deadlineAt: scheduleHistories.deadlineAt,
      deviceToken: scheduleHistories.deviceToken,
    })
    .from(scheduleHistories)
    .innerJoin(schedules, eq(schedules.id, scheduleHistories.scheduleId))
    .where(and(eq(scheduleHistories.id, scheduleHistoryId), withinReach(principal, schedules.organizationId)))
    .for('update', { of: scheduleHistories });
  if (!row) throw notFound('No such sitting.');
  return row;
}

/** Only a sitting in the exam can be moved or extended: the exam's own refusal otherwise. */
function assertInExam(status: number): void {
  const refusal = answeringRefusal(status);
  if (refusal) throw new DomainError(refusal, refusalMessage(refusal));
}

function refusalMessage(code: string): string {
  switch (code) {
    case 'EXAM_NOT_STARTED':
      return 'The pupil has not started this exam.';
    case 'ER_SCHEDULE_HISTORY_COMPLETED':
      return 'This exam is finished.';
    case 'ER_SCHEDULE_HISTORY_CANCELLED':
      return 'This exam was cancelled.';
    case 'EXPIRED':
      return 'This exam has expired.';
    default:
      return code;
  }
}

async function audit(
  tx: Tx,
  entry: { at: Date; staffId: number | null; action: AuditAction; scheduleId: number; scheduleHistoryId: number | null; detail: Record<string, unknown>; reason: string },
): Promise<void> {
  await tx.insert(auditLog).values(entry);
}

type StaffSitting = Awaited<ReturnType<typeof lockStaffSitting>>;

/**
 * The audit entry of this proctor's action with this idempotency key on this sitting (or, for
 * the room-wide extension, this schedule), when the action was done already: "Try again" after
 * an answer lost on the way back then changes nothing. Called under the lock the action takes
 * (the sitting's row, or the schedule's DOING rows), so two copies of one request never both act.
 */
async function doneAlready(
  tx: Tx,
  principal: StaffPrincipal,
  action: AuditAction,
  on: { scheduleHistoryId: number } | { scheduleId: number },
  key: string | undefined,
): Promise<{ detail: Record<string, unknown> } | undefined> {
  if (key === undefined) return undefined;
  const [row] = await tx
    .select({ detail: auditLog.detail })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.staffId, principal.staffId),
        eq(auditLog.action, action),
        'scheduleHistoryId' in on ? eq(auditLog.scheduleHistoryId, on.scheduleHistoryId) : eq(auditLog.scheduleId, on.scheduleId),
        sql`${auditLog.detail}->>'idempotency_key' = ${key}`,
      ),
    )
    .limit(1);
  return row;
}

/** The key kept in the audit entry's detail, when the request had one. */
function keyDetail(context: ActionContext): { idempotency_key?: string } {
  return context.idempotencyKey === undefined ? {} : { idempotency_key: context.idempotencyKey };
}

/**
 * A proctor's action on one sitting, called as (db, principal, scheduleHistoryId, context): in
 * its own transaction, `act` runs with the sitting locked (see lockStaffSitting).
 */
function sittingAction<C extends ActionContext, T>(
  act: (tx: Tx, sitting: StaffSitting, principal: StaffPrincipal, context: C) => Promise<T>,
): (db: Db, principal: StaffPrincipal, scheduleHistoryId: number, context: C) => Promise<T> {
  return (db, principal, scheduleHistoryId, context) =>
    db.transaction(async (tx) => act(tx, await lockStaffSitting(tx, principal, scheduleHistoryId), principal, context));
}

/**
 * The deadline an extension of `seconds` gives: that much time from the later of the deadline and
 * now. A pupil whose deadline passed a few minutes ago gets the whole extension from now, as the
 * proctor who gives "5 more minutes" means.
 */
export function extendedDeadline(deadlineAt: Date, seconds: number, now: Date): Date {
  return new Date(Math.max(deadlineAt.getTime(), now.getTime()) + seconds * 1000);
}

/**
 * TIME_END when the sitting is past its upload window (now later than deadline + window): its
 * answers are refused from then on (`isPastUploadWindow`, contract/exam.ts) and the
 * automatic finish ends it, so it is not reopened. Null while it can still be extended.
 */
export function extensionRefusal(deadlineAt: Date, now: Date, uploadWindowMs: number): 'TIME_END' | null {
  return isPastUploadWindow(deadlineAt, now, uploadWindowMs) ? 'TIME_END' : null;
}

/** The audit entry of an action on one sitting, by this proctor, now, for the reason given. */
function auditSitting(
  tx: Tx,
  principal: StaffPrincipal,
  sitting: StaffSitting,
  context: ActionContext,
  action: AuditAction,
  detail: Record<string, unknown>,
): Promise<void> {
  return audit(tx, {
    at: context.now,
    staffId: principal.staffId,
    action,
    scheduleId: sitting.scheduleId,
    scheduleHistoryId: sitting.id,
    detail,
    reason: context.reason,
  });
}

export const moveTerminal = sittingAction(async (tx, sitting, principal, context: ActionContext): Promise<RosterPupil> => {
  const { now } = context;
  if (await doneAlready(tx, principal, 'move_terminal', { scheduleHistoryId: sitting.id }, context.idempotencyKey)) {
    return rosterPupil(tx, sitting.id, now);
  }
  assertInExam(sitting.status);
  await tx
    .update(scheduleHistories)
    .set({ deviceToken: null, deviceReleasedAt: now, waitingAnswers: 0, refusedElsewhereAt: null })
    .where(eq(scheduleHistories.id, sitting.id));
  if (sitting.deviceToken !== null) {
    // The terminal moved away from may still deliver what it holds, given before now (server/domain/answers/).
    await tx
      .insert(deviceMoves)
      .values({ scheduleHistoryId: sitting.id, deviceToken: sitting.deviceToken, movedAt: now })
      .onConflictDoUpdate({ target: [deviceMoves.scheduleHistoryId, deviceMoves.deviceToken], set: { movedAt: now } });
  }
  const revokedTokens = await revokeAllOfExaminee(tx, sitting.examineeId, now, 'moved');
  await auditSitting(tx, principal, sitting, context, 'move_terminal', {
    revoked_tokens: revokedTokens,
    deadline_at: sitting.deadlineAt?.toISOString(),
    ...keyDetail(context),
  });
  return rosterPupil(tx, sitting.id, now);
});

export const retakeSitting = sittingAction(async (tx, sitting, principal, context: ActionContext): Promise<RosterPupil> => {
  if (await doneAlready(tx, principal, 'retake', { scheduleHistoryId: sitting.id }, context.idempotencyKey)) {
    return rosterPupil(tx, sitting.id, context.now);
  }
  const refusal = retakeRefusal(sitting.status);
  if (refusal) {
    const message = sitting.status === ScheduleHistoryStatus.RESULT_PUBLIC ? 'The result is already public.' : refusalMessage(refusal);
    throw new DomainError(refusal, message);
  }
  await resetSitting(tx, sitting, { now: context.now, staffId: principal.staffId, reason: context.reason, detail: keyDetail(context) });
  return rosterPupil(tx, sitting.id, context.now);
});

/** An extension: the minutes, and the upload window (AppSettings) that says when a sitting is over. */
type ExtensionContext = ActionContext & { minutes: number; uploadWindowMs: number };

export const extendSitting = sittingAction(
  async (tx, sitting, principal, context: ExtensionContext): Promise<{ pupil: RosterPupil; deadlineAt: Date }> => {
    const seconds = context.minutes * 60;
    if (await doneAlready(tx, principal, 'extend', { scheduleHistoryId: sitting.id }, context.idempotencyKey)) {
      const pupil = await rosterPupil(tx, sitting.id, context.now);
      return { pupil, deadlineAt: pupil.deadline_at === null ? context.now : new Date(pupil.deadline_at) };
    }
    assertInExam(sitting.status);
    if (sitting.deadlineAt === null) throw new Error(`Sitting ${sitting.id} is DOING without a deadline`);
    const refusal = extensionRefusal(sitting.deadlineAt, context.now, context.uploadWindowMs);
    if (refusal) throw new DomainError(refusal, 'The time for this exam is over and its answers can no longer be sent.');
    const deadlineAt = extendedDeadline(sitting.deadlineAt, seconds, context.now);
    await tx
      .update(scheduleHistories)
      .set({ deadlineAt, extraSeconds: sql`${scheduleHistories.extraSeconds} + ${seconds}` })
      .where(eq(scheduleHistories.id, sitting.id));
    await auditSitting(tx, principal, sitting, context, 'extend', {
      seconds,
      previous_deadline_at: sitting.deadlineAt.toISOString(),
      deadline_at: deadlineAt.toISOString(),
      ...keyDetail(context),
    });
    return { pupil: await rosterPupil(tx, sitting.id, context.now), deadlineAt };
  },
);

/**
 * Every DOING sitting of the schedule (of one room of it, with venueId) gets `minutes` more, from
 * the later of its deadline and now; a sitting past its upload window is left out. One audit
 * entry for the room. Returns how many were extended (0 when none was in the exam: still
 * audited, so the page shows that the proctor asked).
 */
export async function extendSchedule(
  db: Db,
  principal: StaffPrincipal,
  code: string,
  context: ExtensionContext & { venueId?: number | undefined },
): Promise<number> {
  const { now } = context;
  const seconds = context.minutes * 60;
  return db.transaction(async (tx) => {
    const schedule = await findSchedule(tx, principal, code);
    const venue = context.venueId === undefined ? null : await findVenue(tx, principal, context.venueId);
    // A pupil's room is their classroom, else their schedule's venue (roster.ts `roomWhere`).
    const locked = await tx
      .select({ id: scheduleHistories.id, deadlineAt: scheduleHistories.deadlineAt })
      .from(scheduleHistories)
      .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
      .where(and(roomWhere(schedule, venue), eq(scheduleHistories.status, ScheduleHistoryStatus.DOING)))
      .for('update', { of: scheduleHistories });
    const done = await doneAlready(tx, principal, 'extend_room', { scheduleId: schedule.id }, context.idempotencyKey);
    if (done) return typeof done.detail['sittings'] === 'number' ? done.detail['sittings'] : 0;
    const open = locked.filter((r) => r.deadlineAt !== null && extensionRefusal(r.deadlineAt, now, context.uploadWindowMs) === null);
    const ids = open.map((r) => r.id);
    if (ids.length > 0) {
      // extendedDeadline in SQL: the minutes from the later of each deadline and now.
      await tx
        .update(scheduleHistories)
        .set({
          deadlineAt: sql`greatest(${scheduleHistories.deadlineAt}, ${now.toISOString()}::timestamptz) + ${seconds} * interval '1 second'`,
          extraSeconds: sql`${scheduleHistories.extraSeconds} + ${seconds}`,
        })
        .where(and(inArray(scheduleHistories.id, ids), eq(scheduleHistories.status, ScheduleHistoryStatus.DOING)));
    }
    await audit(tx, {
      at: now,
      staffId: principal.staffId,
      action: 'extend_room',
      scheduleId: schedule.id,
      scheduleHistoryId: null,
      detail: { seconds, sittings: ids.length, venue_id: venue?.id ?? null, ...keyDetail(context) },
      reason: context.reason,
    });
    return ids.length;
  });
}

/** The audit trail of a schedule, newest first (at most AUDIT_LIMIT entries). */
export async function listAudit(tx: Tx, principal: StaffPrincipal, code: string): Promise<AuditEntry[]> {
  const schedule = await findSchedule(tx, principal, code);
  const sittings = alias(scheduleHistories, 'sitting');
  const rows = await tx
    .select({ ...auditColumns, examineeName: examinees.name, scheduleHistoryId: auditLog.scheduleHistoryId })
    .from(auditLog)
    .leftJoin(staff, eq(staff.id, auditLog.staffId))
    .leftJoin(sittings, eq(sittings.id, auditLog.scheduleHistoryId))
    .leftJoin(examinees, eq(examinees.id, sittings.examineeId))
    .where(eq(auditLog.scheduleId, schedule.id))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_LIMIT);
  return rows.map((r) => ({ ...auditEntryOf(r), examinee_name: r.examineeName, schedule_history_id: r.scheduleHistoryId }));
}
