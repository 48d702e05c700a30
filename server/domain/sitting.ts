/**
 * A "sitting": one schedule history with the exam, level, subject, examinee, schedule,
 * organisation and venue around it, loaded in one query. Every exam action starts here, and
 * this is where access is decided: a caller only ever sees their own sitting; anything else is
 * NOT_FOUND, so ids of other pupils' sittings cannot be probed.
 */
import { and, eq, type SQL } from 'drizzle-orm';
import { ApplicationMode, ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Tx } from '../db/client.ts';
import {
  examinees,
  exams,
  levels,
  organizations,
  scheduleHistories,
  schedules,
  subjects,
  venues,
} from '../db/schema.ts';
import { DomainError } from './errors.ts';
import type { Principal } from './tokens.ts';

/** Ids are PostgreSQL `integer`s: anything larger cannot exist (and must not reach the database). */
export const MAX_ID = 2_147_483_647;

function sittingQuery(tx: Tx) {
  return tx
    .select({
      history: scheduleHistories,
      exam: { id: exams.id, title: exams.title, titles: exams.titles, timeLimitSeconds: exams.timeLimitSeconds },
      level: { id: levels.id, name: levels.name, position: levels.position },
      subject: { id: subjects.id, name: subjects.name },
      examinee: {
        id: examinees.id,
        name: examinees.name,
        gradeId: examinees.gradeId,
        email: examinees.email,
        isMyPageLogin: examinees.isMyPageLogin,
        basicInfoRegisteredAt: examinees.basicInfoRegisteredAt,
      },
      schedule: {
        id: schedules.id,
        code: schedules.scheduleCode,
        startsAt: schedules.startsAt,
        endsAt: schedules.endsAt,
        venueId: schedules.venueId,
        suspendedFrom: schedules.suspendedFrom,
        suspendedUntil: schedules.suspendedUntil,
        applicationMode: schedules.applicationMode,
      },
      organization: {
        id: organizations.id,
        code: organizations.code,
        category: organizations.category,
        loginMethod: organizations.loginMethod,
        enableModeStep: organizations.enableModeStep,
        foreignPaymentMethod: organizations.foreignPaymentMethod,
        disabled: organizations.disabled,
      },
      venueDisabled: venues.disabled,
    })
    .from(scheduleHistories)
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .innerJoin(levels, eq(levels.id, exams.levelId))
    .innerJoin(subjects, eq(subjects.id, levels.subjectId))
    .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
    .innerJoin(schedules, eq(schedules.id, scheduleHistories.scheduleId))
    .innerJoin(organizations, eq(organizations.id, schedules.organizationId))
    .leftJoin(venues, eq(venues.id, schedules.venueId));
}

export type Sitting = Awaited<ReturnType<ReturnType<typeof sittingQuery>['execute']>>[number];

/** Row locks: `update` for state changes (start, finish), `share` for answers (many at once, none during finish). */
export type SittingLock = 'update' | 'share';

async function loadSitting(
  tx: Tx,
  where: ReturnType<typeof eq>,
  lock: SittingLock | undefined,
): Promise<Sitting | undefined> {
  const query = sittingQuery(tx).where(where).limit(1);
  const rows = lock ? await query.for(lock, { of: scheduleHistories }) : await query;
  return rows[0];
}

/**
 * The caller's own sitting, or NOT_FOUND. In step mode a sitting still to be taken whose
 * earlier level is not done yet is refused with ER_SCHEDULE_HISTORY_STEP_MODE.
 */
export async function loadOwnSitting(
  tx: Tx,
  principal: Principal,
  scheduleHistoryId: number,
  lock?: SittingLock,
): Promise<Sitting> {
  if (!isOwnId(principal, scheduleHistoryId)) throw notFound();
  const sitting = await loadSitting(tx, eq(scheduleHistories.id, scheduleHistoryId), lock);
  if (!sitting || sitting.history.examineeId !== principal.examineeId) throw notFound();
  if (sitting.organization.enableModeStep && sitting.history.status === ScheduleHistoryStatus.PENDING) {
    const all = await loadSittingsOfExaminee(tx, principal.examineeId);
    if (isStepLocked(sitting, all)) {
      throw new DomainError('ER_SCHEDULE_HISTORY_STEP_MODE', 'Finish the previous level of this subject first.');
    }
  }
  return sitting;
}

/**
 * Step mode: a sitting is locked while the examinee still has an earlier level of the same
 * subject to take (PENDING or DOING). A cancelled or expired earlier level does not lock later
 * ones (it can never be completed).
 */
/**
 * Pays online and comes back for results: my-page logins and pupils of foreign-payment
 * organisations (seed section 2, "Next screen after login"). The exam fee, the testing menu and
 * the login after the exam all follow this one rule.
 */
export function paysOnline(sitting: Sitting): boolean {
  return sitting.examinee.isMyPageLogin || sitting.organization.foreignPaymentMethod;
}

/**
 * Pays the exam fee online before the test: a pupil who pays online, in a test period applied for
 * personally (seed section 3, personal or group mode 1). In group mode (2) the school applied for
 * its pupils and settled the fee: the menu, the checkout and Start never ask for it. Results are
 * still the pupil's to buy (paysOnline).
 */
export function paysExamFee(sitting: Sitting): boolean {
  return paysOnline(sitting) && sitting.schedule.applicationMode !== ApplicationMode.GROUP;
}

export function isStepLocked(sitting: Sitting, all: readonly Sitting[]): boolean {
  if (!sitting.organization.enableModeStep) return false;
  return all.some(
    (other) =>
      other.history.id !== sitting.history.id &&
      other.subject.id === sitting.subject.id &&
      other.level.position < sitting.level.position &&
      (other.history.status === ScheduleHistoryStatus.PENDING || other.history.status === ScheduleHistoryStatus.DOING),
  );
}

/** Whether the sitting's schedule is suspended at `now` (SCHEDULE_SUSPENSION_TIME). */
export function isSuspended(schedule: Sitting['schedule'], now: Date): boolean {
  const { suspendedFrom, suspendedUntil } = schedule;
  return suspendedFrom !== null && suspendedUntil !== null && suspendedFrom <= now && now < suspendedUntil;
}

/** All sittings of an examinee, newest first (login picks one; the exam list sorts its own). */
export async function loadSittingsOfExaminee(tx: Tx, examineeId: number): Promise<Sitting[]> {
  const rows = await sittingQuery(tx).where(eq(scheduleHistories.examineeId, examineeId));
  return rows.sort((a, b) => b.history.id - a.history.id);
}

function isOwnId(principal: Principal, scheduleHistoryId: number): boolean {
  if (!Number.isInteger(scheduleHistoryId) || scheduleHistoryId < 1 || scheduleHistoryId > MAX_ID) return false;
  return principal.scheduleHistoryId === null || principal.scheduleHistoryId === scheduleHistoryId;
}

/**
 * The caller's own sittings as a condition on schedule_histories, for queries that reach a
 * sitting through another table (isOwnId's rule in SQL): the examinee's, and of those only the
 * token's own one when the token names one.
 */
export function ownSittings(principal: Principal): SQL | undefined {
  return and(
    eq(scheduleHistories.examineeId, principal.examineeId),
    principal.scheduleHistoryId === null ? undefined : eq(scheduleHistories.id, principal.scheduleHistoryId),
  );
}

function notFound(): DomainError {
  return new DomainError('NOT_FOUND', 'No such schedule history.');
}

/**
 * Device binding: once started, a sitting belongs to the terminal whose X-Device-Token pressed
 * Start; any other terminal (or none) is refused with INCORRECT_DEVICE while it is DOING.
 * A sitting started without a device token is not bound.
 */
export function assertDevice(sitting: Sitting, deviceToken: string | undefined): void {
  if (isBoundElsewhere(sitting, deviceToken)) throw startedElsewhere();
}

/** Whether the sitting is in the exam on a terminal other than `deviceToken` (see assertDevice). */
export function isBoundElsewhere(sitting: Sitting, deviceToken: string | undefined): boolean {
  const bound = sitting.history.deviceToken;
  return sitting.history.status === ScheduleHistoryStatus.DOING && bound !== null && bound !== deviceToken;
}

export function startedElsewhere(): DomainError {
  return new DomainError('INCORRECT_DEVICE', 'This exam was started on another terminal.');
}

/** The device check of an exam call, by id, for calls whose domain function does not load the sitting here. */
export async function assertOwnDevice(
  tx: Tx,
  principal: Principal,
  scheduleHistoryId: number,
  deviceToken: string | undefined,
): Promise<void> {
  if (!isOwnId(principal, scheduleHistoryId)) return; // the call itself answers NOT_FOUND
  const [row] = await tx
    .select({ status: scheduleHistories.status, deviceToken: scheduleHistories.deviceToken, examineeId: scheduleHistories.examineeId })
    .from(scheduleHistories)
    .where(eq(scheduleHistories.id, scheduleHistoryId))
    .limit(1);
  if (!row || row.examineeId !== principal.examineeId) return;
  if (row.status === ScheduleHistoryStatus.DOING && row.deviceToken !== null && row.deviceToken !== deviceToken) {
    throw new DomainError('INCORRECT_DEVICE', 'This exam was started on another terminal.');
  }
}
