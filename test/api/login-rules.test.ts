/**
 * The login rules of server/domain/login.ts at the domain's edge: which of a pupil's sittings a
 * login is for, the test period to the millisecond (both ends open for login), the order the
 * refusals of seed section 8 are checked in, and the pages a login ID belongs to. The API tests
 * (login.test.ts, login-id.test.ts, examinee.test.ts) show each refusal on the wire.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { authTokens, examinees, scheduleHistories, schedules } from '../../server/db/schema.ts';
import { loginExaminee, loginWithCode, loginWithId } from '../../server/domain/login.ts';
import { hashToken } from '../../server/domain/tokens.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { addAnotherSitting, addSitting, type SittingOptions } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const START = new Date('2026-06-01T09:00:00.000Z');
const END = new Date('2026-06-01T17:00:00.000Z');
const period = { startsAt: START.toISOString(), endsAt: END.toISOString() };
const TTL = 3_600_000;
const PASSWORD = 'gradus-test';

/** The code a login is refused with, or the sitting it is for. */
const outcome = (promise: Promise<{ examinee: { schedule_history_id: number | null } }>) =>
  promise.then(
    (result) => result.examinee.schedule_history_id,
    (error: { code?: string }) => error.code ?? String(error),
  );

describe.each(kinds)('login rules on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });
  const byCode = (loginCode: string, now: Date, deviceToken?: string) =>
    outcome(loginWithCode(database.db, { loginCode, now, tokenTtlMs: TTL, deviceToken }));
  const setHistory = (id: number, values: Partial<typeof scheduleHistories.$inferInsert>) =>
    database.db.update(scheduleHistories).set(values).where(eq(scheduleHistories.id, id));
  const pupilIn = (options: SittingOptions = {}) => addSitting(database.db, { schedule: period, password: PASSWORD, ...options });

  test('the test period: open from its first to its last millisecond', async () => {
    const pupil = await pupilIn();
    expect(await byCode(pupil.loginCode, new Date(START.getTime() - 1))).toBe('TIME_START');
    expect(await byCode(pupil.loginCode, START)).toBe(pupil.scheduleHistoryId);
    expect(await byCode(pupil.loginCode, END)).toBe(pupil.scheduleHistoryId);
    expect(await byCode(pupil.loginCode, new Date(END.getTime() + 1))).toBe('TIME_END');
  });

  test('a suspension refuses from its start up to its end', async () => {
    const from = new Date(START.getTime() + TTL);
    const until = new Date(START.getTime() + 2 * TTL);
    const pupil = await pupilIn({ schedule: { ...period, suspendedFrom: from.toISOString(), suspendedUntil: until.toISOString() } });
    expect(await byCode(pupil.loginCode, new Date(from.getTime() - 1))).toBe(pupil.scheduleHistoryId);
    expect(await byCode(pupil.loginCode, from)).toBe('SCHEDULE_SUSPENSION_TIME');
    expect(await byCode(pupil.loginCode, until)).toBe(pupil.scheduleHistoryId);
  });

  test('a pupil in the exam comes back after the period, on the terminal that started it', async () => {
    const pupil = await pupilIn();
    await setHistory(pupil.scheduleHistoryId, { status: S.DOING, deviceToken: 'terminal-a' });
    const after = new Date(END.getTime() + TTL);
    expect(await byCode(pupil.loginCode, after, 'terminal-a')).toBe(pupil.scheduleHistoryId);
    expect(await byCode(pupil.loginCode, after, 'terminal-b')).toBe('INCORRECT_DEVICE');
  });

  test('the refusals in order: organisation, login method, status, classroom, then the period', async () => {
    const before = new Date(START.getTime() - 1);
    const everything = await pupilIn({ organization: { disabled: true, loginMethod: 2 }, status: S.EXPIRED, venue: { disabled: true } });
    expect(await byCode(everything.loginCode, before)).toBe('DISABLED_ORGANIZATION');
    const method = await pupilIn({ organization: { loginMethod: 2 }, status: S.EXPIRED, venue: { disabled: true } });
    expect(await byCode(method.loginCode, before)).toBe('INCORRECT_LOGIN_METHOD');
    const examinee = await pupilIn({ organization: { loginMethod: 3 } });
    expect(await byCode(examinee.loginCode, START)).toBe('INCORRECT_LOGIN_METHOD');
    const status = await pupilIn({ status: S.EXPIRED, venue: { disabled: true } });
    expect(await byCode(status.loginCode, before)).toBe('EXPIRED');
    const room = await pupilIn({ venue: { disabled: true } });
    expect(await byCode(room.loginCode, before)).toBe('DISABLED_CLASS');
  });

  test('back for results: a finished sitting of a pupil who pays online, whatever the period; the others are refused', async () => {
    const after = new Date(END.getTime() + 30 * 24 * TTL);
    const myPage = await pupilIn({ isMyPageLogin: true, status: S.RESULT_PUBLIC });
    expect(await byCode(myPage.loginCode, after)).toBe(myPage.scheduleHistoryId);
    const foreign = await pupilIn({ organization: { foreignPaymentMethod: true }, status: S.COMPLETED });
    expect(await byCode(foreign.loginCode, new Date(START.getTime() - 1))).toBe(foreign.scheduleHistoryId);
    const school = await pupilIn({ status: S.COMPLETED });
    expect(await byCode(school.loginCode, START)).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
    // Paying online does not reopen the exam itself after its period.
    const notTaken = await pupilIn({ isMyPageLogin: true });
    expect(await byCode(notTaken.loginCode, after)).toBe('TIME_END');
  });

  test('which sitting: one in the exam before one to start, one in its period before one outside', async () => {
    const pupil = await pupilIn();
    const second = await addAnotherSitting(database.db, pupil, { examCode: 'CALC-1' });
    // Both PENDING in the period: the first in the list (newest first).
    expect(await byCode(pupil.loginCode, START)).toBe(second);
    await setHistory(pupil.scheduleHistoryId, { status: S.DOING });
    expect(await byCode(pupil.loginCode, START)).toBe(pupil.scheduleHistoryId);
  });

  test('which sitting: the period that contains now, else the next still to sit, else the newest', async () => {
    const pupil = await pupilIn();
    const later = await addSitting(database.db, { schedule: { startsAt: '2026-07-01T09:00:00Z', endsAt: '2026-07-01T17:00:00Z' } });
    // Move the later sitting to the first pupil (a second booking in another period).
    await setHistory(later.scheduleHistoryId, { examineeId: pupil.examineeId });
    expect(await byCode(pupil.loginCode, START)).toBe(pupil.scheduleHistoryId);
    expect(await byCode(pupil.loginCode, new Date('2026-07-01T10:00:00Z'))).toBe(later.scheduleHistoryId);
    // Between the two periods none contains now: the first still to sit (newest first) says why.
    expect(await byCode(pupil.loginCode, new Date('2026-06-15T10:00:00Z'))).toBe('TIME_START');
    // Nothing left to sit: the newest sitting, refused for its status.
    await setHistory(pupil.scheduleHistoryId, { status: S.EXPIRED });
    await setHistory(later.scheduleHistoryId, { status: S.CANCELED_PENDING });
    expect(await byCode(pupil.loginCode, START)).toBe('ER_SCHEDULE_HISTORY_CANCELLED');
  });

  test('a finished sitting for results comes before one still to sit outside its period', async () => {
    const pupil = await pupilIn({ isMyPageLogin: true, status: S.RESULT_PUBLIC });
    const next = await addSitting(database.db, { schedule: { startsAt: '2026-07-01T09:00:00Z', endsAt: '2026-07-01T17:00:00Z' } });
    await setHistory(next.scheduleHistoryId, { examineeId: pupil.examineeId });
    expect(await byCode(pupil.loginCode, new Date('2026-06-15T10:00:00Z'))).toBe(pupil.scheduleHistoryId);
    expect(await byCode(pupil.loginCode, new Date('2026-07-01T10:00:00Z'))).toBe(next.scheduleHistoryId);
  });

  test('a code of a disabled pupil, or no sitting at all, is refused', async () => {
    const pupil = await pupilIn();
    await database.db.update(examinees).set({ disabled: true }).where(eq(examinees.id, pupil.examineeId));
    expect(await byCode(pupil.loginCode, START)).toBe('LOGIN_CODE_INCORRECT');
    const alone = await pupilIn();
    await database.db.delete(scheduleHistories).where(eq(scheduleHistories.id, alone.scheduleHistoryId));
    expect(await byCode(alone.loginCode, START)).toBe('INVALID_SCHEDULE');
  });

  describe('login ID (type 1) and its pages', () => {
    const byId = (loginId: string, page: { orgCode?: string; scheduleCode?: string; venueId?: number }, password = PASSWORD) =>
      outcome(loginWithId(database.db, { loginId, password, ...page, now: START, tokenTtlMs: TTL }));

    test('on its school, its schedule, its schedule and room, or no page', async () => {
      const pupil = await pupilIn();
      for (const page of [
        {},
        { orgCode: pupil.orgCode },
        { scheduleCode: pupil.scheduleCode },
        { scheduleCode: pupil.scheduleCode, orgCode: pupil.orgCode, venueId: pupil.venueId! },
      ]) {
        expect(await byId(pupil.loginId!, page), JSON.stringify(page)).toBe(pupil.scheduleHistoryId);
      }
    });

    test("another school's or schedule's page is INVALID_SCHEDULE or wrong credentials; never a login", async () => {
      const pupil = await pupilIn();
      const other = await pupilIn({ organization: {} });
      expect(await byId(pupil.loginId!, { scheduleCode: pupil.scheduleCode, orgCode: other.orgCode })).toBe('INVALID_SCHEDULE');
      expect(await byId(pupil.loginId!, { scheduleCode: pupil.scheduleCode, venueId: other.venueId! })).toBe('INVALID_SCHEDULE');
      expect(await byId(pupil.loginId!, { scheduleCode: 'NO-SUCH-SCHEDULE' })).toBe('INVALID_SCHEDULE');
      expect(await byId(pupil.loginId!, { orgCode: 'NO-SUCH-SCHOOL' })).toBe('INVALID_SCHEDULE');
      expect(await byId(pupil.loginId!, { orgCode: other.orgCode })).toBe('INCORRECT_ID_PASSWORD');
      // The other school's schedule: the account is not of that organisation.
      expect(await byId(pupil.loginId!, { scheduleCode: other.scheduleCode })).toBe('INCORRECT_ID_PASSWORD');
    });

    test('a schedule page picks that schedule\'s sitting', async () => {
      const pupil = await pupilIn();
      const later = await addSitting(database.db, { schedule: { startsAt: '2026-07-01T09:00:00Z', endsAt: '2026-07-01T17:00:00Z' } });
      await setHistory(later.scheduleHistoryId, { examineeId: pupil.examineeId });
      await database.db.update(schedules).set({ organizationId: pupil.organizationId }).where(eq(schedules.id, later.scheduleId));
      expect(await byId(pupil.loginId!, { scheduleCode: later.scheduleCode })).toBe('TIME_START');
      expect(await byId(pupil.loginId!, { scheduleCode: pupil.scheduleCode })).toBe(pupil.scheduleHistoryId);
    });

    test('a wrong password, an unknown or disabled account are the same wrong credentials', async () => {
      const pupil = await pupilIn();
      expect(await byId(pupil.loginId!, {}, 'wrong-password')).toBe('INCORRECT_ID_PASSWORD');
      expect(await byId('no.such.pupil', {})).toBe('INCORRECT_ID_PASSWORD');
      await database.db.update(examinees).set({ disabled: true }).where(eq(examinees.id, pupil.examineeId));
      expect(await byId(pupil.loginId!, {})).toBe('INCORRECT_ID_PASSWORD');
    });
  });

  describe('examinee login (type 5)', () => {
    const asExaminee = (loginId: string, orgCode: string, password = PASSWORD) =>
      outcome(loginExaminee(database.db, { loginId, password, orgCode, now: START, tokenTtlMs: TTL }));

    test('an account of an organisation with login method 3 gets a token for all its sittings', async () => {
      const pupil = await pupilIn({ organization: { loginMethod: 3 } });
      const result = await loginExaminee(database.db, { loginId: pupil.loginId!, password: PASSWORD, orgCode: pupil.orgCode, now: START, tokenTtlMs: TTL });
      expect(result.examinee).toMatchObject({ login_type: 5, schedule_history_id: null, org_code: pupil.orgCode });
      const [token] = await database.db.select().from(authTokens).where(eq(authTokens.tokenHash, hashToken(result.accessToken)));
      expect(token).toMatchObject({ examineeId: pupil.examineeId, scheduleHistoryId: null, loginType: 5 });
    });

    test('the password first, then the organisation, its login method and a booking', async () => {
      const disabled = await pupilIn({ organization: { loginMethod: 3, disabled: true } });
      expect(await asExaminee(disabled.loginId!, disabled.orgCode, 'wrong-password')).toBe('INCORRECT_ID_PASSWORD');
      expect(await asExaminee(disabled.loginId!, disabled.orgCode)).toBe('DISABLED_ORGANIZATION');
      const schoolLogin = await pupilIn({ organization: { loginMethod: 1 } });
      expect(await asExaminee(schoolLogin.loginId!, schoolLogin.orgCode)).toBe('INCORRECT_LOGIN_METHOD');
      const unbooked = await pupilIn({ organization: { loginMethod: 3 } });
      await database.db.delete(scheduleHistories).where(eq(scheduleHistories.id, unbooked.scheduleHistoryId));
      expect(await asExaminee(unbooked.loginId!, unbooked.orgCode)).toBe('INVALID_SCHEDULE');
      const other = await pupilIn({ organization: { loginMethod: 3 } });
      expect(await asExaminee(unbooked.loginId!, other.orgCode)).toBe('INCORRECT_ID_PASSWORD');
      await database.db.update(examinees).set({ disabled: true }).where(eq(examinees.id, other.examineeId));
      expect(await asExaminee(other.loginId!, other.orgCode)).toBe('INCORRECT_ID_PASSWORD');
      expect(await asExaminee(other.loginId!, 'NO-SUCH-SCHOOL')).toBe('INVALID_SCHEDULE');
    });
  });
});
