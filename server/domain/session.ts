/**
 * What a logged-in examinee asks about themselves, whichever way they came in:
 * - who the token belongs to (GET /me: after single sign-on the token is all the client has);
 * - their exam list (GET /exams) with step-mode locks;
 * - basic information, registered once and never changed (seed section 5);
 * - the testing menu's status (GET /get-status-choose-page): exam fee, exam, result release.
 */
import type { CallerLanguages } from './exam-titles.ts';
import { and, eq, isNull } from 'drizzle-orm';
import { ApplicationMode, LoginType } from '../../contract/enums.ts';
import { type ChoosePageStatus } from '../../contract/results.ts';
import { type ExamineeInfo, type ExamListItem } from '../../contract/session.ts';
import type { Db } from '../db/client.ts';
import { examinees } from '../db/schema.ts';
import { ownedBy } from './purchases.ts';
import { DomainError } from './errors.ts';
import { releaseAt, resultAvailability } from '../../machines/schedule-history/schedule-history.selectors.ts';
import { loginRefusal, toStatus } from './schedule-history.ts';
import { isStepLocked, isSuspended, loadSittingsOfExaminee, paysExamFee, type Sitting } from './sitting.ts';
import type { Principal } from './tokens.ts';
import { examineeInfo, examineeWideInfo, examListItem, sortForList } from './views.ts';

/** Results are viewable from one week after the exam (seed section 9: 604800000 ms). */
export { RESULT_RELEASE_MS } from '../../machines/schedule-history/schedule-history.machine.ts';

type LoginTypeValue = ExamineeInfo['login_type'];

function loginTypeOf(principal: Principal): LoginTypeValue {
  const t = principal.loginType;
  if (t !== null && Number.isInteger(t) && t >= 0 && t <= 7) return t as LoginTypeValue;
  return principal.scheduleHistoryId === null ? LoginType.EXAMINEE : LoginType.CODE;
}

/** The sittings the principal may act on: the bound one, or all of the examinee's. */
async function sittingsOf(db: Db, principal: Principal): Promise<Sitting[]> {
  const all = await loadSittingsOfExaminee(db, principal.examineeId);
  return principal.scheduleHistoryId === null ? all : all.filter((s) => s.history.id === principal.scheduleHistoryId);
}

/** The session info of the principal, as login answered it. */
export async function sessionInfo(db: Db, principal: Principal): Promise<ExamineeInfo> {
  const sittings = await sittingsOf(db, principal);
  const loginType = loginTypeOf(principal);
  if (principal.scheduleHistoryId !== null) {
    const [bound] = sittings;
    if (!bound) throw new DomainError('NOT_LOGGED_IN');
    return examineeInfo(bound, loginType);
  }
  const [first] = sortForList(sittings);
  if (!first) throw new DomainError('INVALID_SCHEDULE', 'No test is booked for this account.');
  return examineeWideInfo(first, loginType);
}

export async function listExams(db: Db, principal: Principal, wanted: CallerLanguages): Promise<ExamListItem[]> {
  const all = await loadSittingsOfExaminee(db, principal.examineeId);
  const visible = principal.scheduleHistoryId === null ? all : all.filter((s) => s.history.id === principal.scheduleHistoryId);
  return sortForList(visible).map((s) => examListItem(s, all, wanted));
}

/** Registers name, grade and email once; a second registration is ER_DUP_ENTRY and changes nothing. */
export async function saveBasicInfo(
  db: Db,
  principal: Principal,
  input: { examineeName: string; gradeId: number; email: string },
  now: Date,
): Promise<ExamineeInfo> {
  const updated = await db
    .update(examinees)
    .set({ name: input.examineeName, gradeId: input.gradeId, email: input.email, basicInfoRegisteredAt: now })
    .where(and(eq(examinees.id, principal.examineeId), isNull(examinees.basicInfoRegisteredAt)))
    .returning({ id: examinees.id });
  if (updated.length === 0) {
    throw new DomainError('ER_DUP_ENTRY', 'Basic information is already registered and cannot be changed.');
  }
  return sessionInfo(db, principal);
}

/**
 * The testing menu. The sitting is the bound one, else the requested one, else the examinee's
 * current one (open before finished, newest first).
 */
export async function choosePageStatus(
  db: Db,
  principal: Principal,
  requestedId: number | undefined,
  now: Date,
): Promise<Omit<ChoosePageStatus, 'server_time'>> {
  const sittings = await sittingsOf(db, principal);
  let sitting: Sitting | undefined;
  if (requestedId !== undefined) {
    sitting = sittings.find((s) => s.history.id === requestedId);
    if (!sitting) throw new DomainError('NOT_FOUND', 'No such schedule history.');
  } else {
    sitting = sittings.find((s) => loginRefusal(s.history.status) === undefined) ?? sittings[0];
  }

  const feeRequired = sitting ? paysExamFee(sitting) : false;
  const owned = sitting ? await ownedBy(db, sitting.history.id, now) : undefined;
  const examFeeStatus = owned?.examFee ?? 0;

  let canTake = false;
  let released = false;
  let expired = false;
  if (sitting) {
    const { history, schedule, organization } = sitting;
    canTake =
      loginRefusal(history.status) === undefined &&
      (!feeRequired || examFeeStatus === 2) &&
      !organization.disabled &&
      !sitting.venueDisabled &&
      schedule.startsAt <= now &&
      now <= schedule.endsAt &&
      !isSuspended(schedule, now) &&
      !isStepLocked(sitting, await loadSittingsOfExaminee(db, principal.examineeId));
    // The shared availability rule (machines/schedule-history): a week after the exam, scored, within two years.
    // Past the two years the result was released and can no longer be viewed: both say so.
    const availability = resultAvailability({ status: history.status, finishedAt: history.finishedAt, now });
    expired = availability === 'expired';
    released = availability === 'viewable' || expired;
  }
  return {
    // Personal or group mode (seed section 3): in group mode the school settled the fee (required false).
    exam_fee: {
      required: feeRequired,
      status: examFeeStatus,
      application_mode: sitting?.schedule.applicationMode === ApplicationMode.GROUP ? ApplicationMode.GROUP : ApplicationMode.PERSONAL,
    },
    exam: {
      schedule_history_id: sitting?.history.id ?? null,
      status: sitting ? toStatus(sitting.history.status) : null,
      can_take: canTake,
    },
    // Result payment status (seed section 4): NOT_PAID 0, PAID_ALL 1, PAID_PART 2.
    result: {
      released,
      expired,
      payment_status: owned?.result ?? 0,
      // When the result is (or was) released: a week after the exam (machines/schedule-history releaseAt).
      release_at: sitting?.history.finishedAt ? releaseAt(sitting.history.finishedAt).toISOString() : null,
    },
  };
}
