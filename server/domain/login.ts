/**
 * The ways in that issue our own tokens (single sign-on lives in server/sso/):
 * - login code (login type 0) and login ID + password (login type 1): schedule history logins
 *   (organisation login method 1); the token is bound to one sitting;
 * - examinee login (login type 5): an examinee account of an organisation with login method 3;
 *   the token covers all the examinee's sittings, and the pupil picks one from GET /exams.
 * Refusals follow seed section 8: wrong credentials, ACCOUNT_LOCKED (the login throttle, server/security/throttle.ts),
 * DISABLED_ORGANIZATION, INCORRECT_LOGIN_METHOD, the sitting's status (COMPLETED, CANCELLED,
 * EXPIRED), DISABLED_CLASS, SCHEDULE_SUSPENSION_TIME, TIME_START and TIME_END.
 *
 * Coming back for results: a my-page examinee or a pupil of a foreign-payment organisation (the
 * pupils whose next screen is the testing menu, seed section 2) may log in to a finished sitting
 * (COMPLETED, SCORING_COMPLETED, STATISTIC_COMPLETED, RESULT_PUBLIC) at any time, even after the
 * test period, to wait for and read their results; the exam itself stays closed (Start and
 * answers are refused as before). Every other pupil is refused ER_SCHEDULE_HISTORY_COMPLETED.
 */
import { and, eq } from 'drizzle-orm';
import { LoginType, ScheduleHistoryStatus } from '../../contract/enums.ts';
import { type ErrorCode } from '../../contract/errors.ts';
import { type ExamineeInfo } from '../../contract/session.ts';
import type { Db, Tx } from '../db/client.ts';
import { examinees, scheduleHistories } from '../db/schema.ts';
import { checkPassword, passwordAccountColumns, wrongCredentials } from './credentials.ts';
import { DomainError } from './errors.ts';
import { verifyPassword } from './passwords.ts';
import { invalidSchedule, organizationOfCode, scheduleOfPage } from './lookups.ts';
import { isFinished, loginRefusal } from './schedule-history.ts';
import { isBoundElsewhere, isSuspended, loadSittingsOfExaminee, paysOnline, startedElsewhere, type Sitting } from './sitting.ts';
import { examineeInfo, examineeWideInfo, sortForList } from './views.ts';
import { issueToken } from './tokens.ts';

/** Org login methods (seed section 3). */
export const OrgLoginMethod = { SCHEDULE_HISTORY: 1, OAUTH: 2, EXAMINEE: 3 } as const;

export type LoginResult = { accessToken: string; examinee: ExamineeInfo };

/** deviceToken: the terminal's X-Device-Token; a login into a DOING exam started elsewhere is INCORRECT_DEVICE. */
type TokenContext = { now: Date; tokenTtlMs: number; deviceToken?: string | undefined };

export async function loginWithCode(db: Db, input: { loginCode: string } & TokenContext): Promise<LoginResult> {
  const { loginCode, now } = input;
  const admitted = await db.transaction(async (tx) => {
    const [examinee] = await tx
      .select({ id: examinees.id, disabled: examinees.disabled })
      .from(examinees)
      .where(eq(examinees.loginCode, loginCode))
      .limit(1);
    if (!examinee || examinee.disabled) throw new DomainError('LOGIN_CODE_INCORRECT', 'Login code incorrect.');

    const sitting = pickSitting(await loadSittingsOfExaminee(tx, examinee.id), now);
    if (!sitting) throw invalidSchedule('No test is booked for this login code.');
    return admit(tx, examinee.id, sitting, { ...input, loginType: LoginType.CODE });
  });
  // Thrown once the transaction kept the refusal's record.
  if (admitted instanceof DomainError) throw admitted;
  return admitted;
}

/**
 * A schedule history login (code or ID) to the sitting picked for it: refused as `refusalAt`
 * says, else a token bound to that sitting. On another terminal's DOING exam the refusal
 * (INCORRECT_DEVICE) is recorded on the sitting for the proctor's roster and returned, for the
 * caller to throw once that record is kept.
 */
async function admit(
  tx: Tx,
  examineeId: number,
  sitting: Sitting,
  input: TokenContext & { loginType: typeof LoginType.CODE | typeof LoginType.ID },
): Promise<LoginResult | DomainError> {
  const refusal = refusalAt(sitting, input.now);
  if (refusal) throw new DomainError(refusal);
  if (isBoundElsewhere(sitting, input.deviceToken)) {
    await tx.update(scheduleHistories).set({ refusedElsewhereAt: input.now }).where(eq(scheduleHistories.id, sitting.history.id));
    return startedElsewhere();
  }
  const accessToken = await issueToken(tx, {
    examineeId,
    scheduleHistoryId: sitting.history.id,
    loginType: input.loginType,
    now: input.now,
    ttlMs: input.tokenTtlMs,
  });
  return { accessToken, examinee: examineeInfo(sitting, input.loginType) };
}

export type LoginWithIdInput = {
  loginId: string;
  password: string;
  /** The school's page the pupil logs in on. */
  orgCode?: string;
  /** The schedule's page (with its venue, when the URL names one). */
  scheduleCode?: string;
  venueId?: number;
} & TokenContext;

/** Login type 1. The page's organisation or schedule must exist and be the account's. */
export async function loginWithId(db: Db, input: LoginWithIdInput): Promise<LoginResult> {
  const { now } = input;
  let organizationId: number | undefined;
  let scheduleId: number | undefined;
  if (input.scheduleCode !== undefined) {
    const schedule = await scheduleOfPage(db, { scheduleCode: input.scheduleCode, orgCode: input.orgCode, venueId: input.venueId });
    organizationId = schedule.organizationId;
    scheduleId = schedule.id;
  } else if (input.orgCode !== undefined) {
    organizationId = (await organizationOfCode(db, input.orgCode)).id;
  }

  const [account] = await db
    .select({ ...passwordAccountColumns, organizationId: examinees.organizationId, disabled: examinees.disabled })
    .from(examinees)
    .where(eq(examinees.loginId, input.loginId))
    .limit(1);
  if (!account || account.disabled || (organizationId !== undefined && account.organizationId !== organizationId)) {
    await verifyPassword(input.password, null);
    throw wrongCredentials();
  }
  await checkPassword(account, input.password);

  const all = await loadSittingsOfExaminee(db, account.id);
  const sitting = pickSitting(scheduleId === undefined ? all : all.filter((s) => s.schedule.id === scheduleId), now);
  if (!sitting) throw invalidSchedule('No test is booked for this account.');
  const admitted = await admit(db, account.id, sitting, { ...input, loginType: LoginType.ID });
  if (admitted instanceof DomainError) throw admitted;
  return admitted;
}

/** Login type 5: an examinee account of an organisation with login method 3. */
export async function loginExaminee(
  db: Db,
  input: { loginId: string; password: string; orgCode: string } & TokenContext,
): Promise<LoginResult> {
  const { now } = input;
  const organization = await organizationOfCode(db, input.orgCode);
  const [account] = await db
    .select({ ...passwordAccountColumns, disabled: examinees.disabled })
    .from(examinees)
    .where(and(eq(examinees.loginId, input.loginId), eq(examinees.organizationId, organization.id)))
    .limit(1);
  if (!account || account.disabled) {
    await verifyPassword(input.password, null);
    throw wrongCredentials();
  }
  await checkPassword(account, input.password);

  if (organization.disabled) throw new DomainError('DISABLED_ORGANIZATION');
  if (organization.loginMethod !== OrgLoginMethod.EXAMINEE) throw new DomainError('INCORRECT_LOGIN_METHOD');
  const [first] = sortForList(await loadSittingsOfExaminee(db, account.id));
  if (!first) throw invalidSchedule('No test is booked for this account.');

  const accessToken = await issueToken(db, {
    examineeId: account.id,
    scheduleHistoryId: null,
    loginType: LoginType.EXAMINEE,
    now,
    ttlMs: input.tokenTtlMs,
  });
  return { accessToken, examinee: examineeWideInfo(first, LoginType.EXAMINEE) };
}

/**
 * The sitting a login is for: an open one (DOING before PENDING) whose test period contains
 * now; else the next one still to sit (so the refusal says why); else the newest.
 */
function pickSitting(sittings: Sitting[], now: Date): Sitting | undefined {
  const toTake = sittings.filter((s) => loginRefusal(s.history.status) === undefined);
  const inWindow = toTake.filter((s) => s.schedule.startsAt <= now && now <= s.schedule.endsAt);
  const doing = inWindow.find((s) => s.history.status === ScheduleHistoryStatus.DOING);
  const forResults = sittings.find((s) => isFinished(s.history.status) && paysOnline(s));
  return doing ?? inWindow[0] ?? forResults ?? toTake[0] ?? sittings[0];
}

/** Why a schedule history login (code or ID) to this sitting is refused now, if it is. */
function refusalAt(sitting: Sitting, now: Date): ErrorCode | undefined {
  if (sitting.organization.disabled) return 'DISABLED_ORGANIZATION';
  if (sitting.organization.loginMethod !== OrgLoginMethod.SCHEDULE_HISTORY) return 'INCORRECT_LOGIN_METHOD';
  const forResults = paysOnline(sitting);
  const statusRefusal = loginRefusal(sitting.history.status, { forResults });
  if (statusRefusal) return statusRefusal;
  if (sitting.venueDisabled) return 'DISABLED_CLASS';
  // Back for results: the test period no longer matters.
  if (forResults && isFinished(sitting.history.status)) return undefined;
  // A pupil already in the exam may come back after the period closed to finish and send answers.
  if (sitting.history.status === ScheduleHistoryStatus.DOING) return undefined;
  if (now < sitting.schedule.startsAt) return 'TIME_START';
  if (now > sitting.schedule.endsAt) return 'TIME_END';
  if (isSuspended(sitting.schedule, now)) return 'SCHEDULE_SUSPENSION_TIME';
  return undefined;
}
