/**
 * Login by login code (login type 0): finds the pupil by the normalised code, picks the sitting
 * the code is for, applies the refusals of seed section 8 (disabled organisation or classroom,
 * wrong login method, exam already done, test period not open) and issues a token bound to
 * that sitting.
 */
import { eq } from 'drizzle-orm';
import { LoginType, ScheduleHistoryStatus, type ErrorCode, type ExamineeInfo } from '../../src/shared/contract.ts';
import type { Db } from '../db/client.ts';
import { examinees } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { loginRefusal } from './schedule-history.ts';
import { loadSittingsOfExaminee, type Sitting } from './sitting.ts';
import { examineeInfo } from './views.ts';
import { issueToken } from './tokens.ts';

/** Org login method 1: schedule history login, the one that uses login codes (seed section 3). */
const SCHEDULE_HISTORY_LOGIN = 1;

export type LoginResult = { accessToken: string; examinee: ExamineeInfo };

export async function loginWithCode(
  db: Db,
  input: { loginCode: string; now: Date; tokenTtlMs: number },
): Promise<LoginResult> {
  const { loginCode, now } = input;
  return db.transaction(async (tx) => {
    const [examinee] = await tx
      .select({ id: examinees.id, disabled: examinees.disabled })
      .from(examinees)
      .where(eq(examinees.loginCode, loginCode))
      .limit(1);
    if (!examinee || examinee.disabled) throw new DomainError('LOGIN_CODE_INCORRECT', 'Login code incorrect.');

    const sitting = pickSitting(await loadSittingsOfExaminee(tx, examinee.id), now);
    if (!sitting) throw new DomainError('INVALID_SCHEDULE', 'No test is booked for this login code.');

    const refusal = refusalAt(sitting, now);
    if (refusal) throw new DomainError(refusal);

    const accessToken = await issueToken(tx, {
      examineeId: examinee.id,
      scheduleHistoryId: sitting.history.id,
      now,
      ttlMs: input.tokenTtlMs,
    });
    return { accessToken, examinee: examineeInfo(sitting, LoginType.CODE) };
  });
}

/**
 * The sitting a login is for: an open one (DOING before PENDING) whose test period contains
 * now; else the next one still to sit (so the refusal says why); else the newest.
 */
function pickSitting(sittings: Sitting[], now: Date): Sitting | undefined {
  const open = sittings.filter((s) => loginRefusal(s.history.status) === undefined);
  const inWindow = open.filter((s) => s.schedule.startsAt <= now && now <= s.schedule.endsAt);
  const doing = inWindow.find((s) => s.history.status === ScheduleHistoryStatus.DOING);
  return doing ?? inWindow[0] ?? open[0] ?? sittings[0];
}

function refusalAt(sitting: Sitting, now: Date): ErrorCode | undefined {
  if (sitting.organization.disabled) return 'DISABLED_ORGANIZATION';
  if (sitting.organization.loginMethod !== SCHEDULE_HISTORY_LOGIN) return 'INCORRECT_LOGIN_METHOD';
  const statusRefusal = loginRefusal(sitting.history.status);
  if (statusRefusal) return statusRefusal;
  if (sitting.venueDisabled) return 'DISABLED_CLASS';
  // A pupil already in the exam may come back after the period closed to finish and send answers.
  if (sitting.history.status === ScheduleHistoryStatus.DOING) return undefined;
  if (now < sitting.schedule.startsAt) return 'TIME_START';
  if (now > sitting.schedule.endsAt) return 'TIME_END';
  return undefined;
}
