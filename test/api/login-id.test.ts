/**
 * POST /api/login with login type 1 (login ID and password) on a school's or a schedule's page:
 * passwords stored as salted scrypt hashes, wrong credentials, the account lock (5 wrong
 * passwords: locked for 1 minute, shared by every process, reset by a right password; kept by
 * the login throttle per client address and login ID, in real time: see
 * test/api/throttle.test.ts for the addresses), and the refusals of seed section 8 for ID and
 * code logins alike.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { type ErrorCode } from '../../contract/errors.ts';
import { LoginResponseSchema } from '../../contract/session.ts';
import { createApp } from '../../server/app.ts';
import { examinees } from '../../server/db/schema.ts';
import { LOCK_MS, MAX_FAILED_LOGINS } from '../../server/domain/credentials.ts';
import { silentLogger } from '../../server/logger.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiResponse } from '../helpers/server-api.ts';
import { addSitting, snapshotTables, type SittingOptions, type TestSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'correct horse 42';

describe.each(kinds)('login by ID and password on %s', (kind) => {
  const api = useApi(kind);
  /**
   * Each pupil at a terminal of their own (its X-Device-Token), as in a lab: the login throttle
   * counts failures per terminal, and this file's wrong passwords are many pupils', not one machine's.
   */
  const terminalOf = (body: Record<string, unknown>) => `terminal-${String(body.login_id ?? 'page').replace(/[^A-Za-z0-9._-]/g, '_')}`;
  const login = (body: Record<string, unknown>) =>
    api.call('POST', '/api/login', { body: { login_type: 1, ...body }, headers: { 'X-Device-Token': terminalOf(body) } });
  const loginAs = (pupil: TestSitting, password = PASSWORD, page: Record<string, unknown> = { org_code: pupil.orgCode }) =>
    login({ login_id: pupil.loginId, password, ...page });
  const expectError = (response: ApiResponse, status: number, code: ErrorCode) => {
    expect(response.status).toBe(status);
    expect(errorOf(response).code).toBe(code);
  };
  const account = async (pupil: TestSitting) =>
    (await api.db.select().from(examinees).where(eq(examinees.id, pupil.examineeId)))[0]!;

  test("on the school's page: a token bound to the pupil's exam, login type 1", async () => {
    const pupil = await addSitting(api.db, { password: PASSWORD });
    const response = await loginAs(pupil);
    expect(response.status).toBe(200);
    const body = v.parse(LoginResponseSchema, response.body);
    expect(body.examinee).toMatchObject({ login_type: 1, schedule_history_id: pupil.scheduleHistoryId, org_code: 'GRADUS-DEMO' });
    const details = await api.call('GET', `/api/exam-details?schedule_history_id=${pupil.scheduleHistoryId}`, {
      token: body.access_token,
    });
    expect(details.status).toBe(200);
  });

  test("on the schedule's page, with its venue; or with no page at all", async () => {
    const pupil = await addSitting(api.db, { password: PASSWORD, venue: {} });
    for (const page of [
      { schedule_code: pupil.scheduleCode },
      { schedule_code: pupil.scheduleCode, venue_id: pupil.venueId, org_code: pupil.orgCode },
      {},
    ]) {
      const response = await loginAs(pupil, PASSWORD, page);
      expect(response.status, JSON.stringify(page)).toBe(200);
    }
  });

  test('the password is stored as a salted scrypt hash, never in clear', async () => {
    const one = await addSitting(api.db, { password: PASSWORD });
    const two = await addSitting(api.db, { password: PASSWORD });
    const [a, b] = [await account(one), await account(two)];
    expect(a.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]{43}$/);
    expect(a.passwordHash).not.toBe(b.passwordHash);
    expect(JSON.stringify(a)).not.toContain(PASSWORD);
  });

  test('a wrong password, an unknown ID, or an ID of another school is 401 INCORRECT_ID_PASSWORD', async () => {
    const pupil = await addSitting(api.db, { password: PASSWORD });
    const other = await addSitting(api.db, { password: PASSWORD, organization: {} });
    expectError(await loginAs(pupil, 'wrong password'), 401, 'INCORRECT_ID_PASSWORD');
    expectError(await login({ login_id: 'nobody.here', password: PASSWORD, org_code: 'GRADUS-DEMO' }), 401, 'INCORRECT_ID_PASSWORD');
    expectError(await loginAs(other, PASSWORD, { org_code: 'GRADUS-DEMO' }), 401, 'INCORRECT_ID_PASSWORD');
    expectError(await loginAs(other, PASSWORD, { schedule_code: 'DEMO-2026' }), 401, 'INCORRECT_ID_PASSWORD');
  });

  test('an unknown school or schedule, or a venue that is not the schedule\'s, is 404 INVALID_SCHEDULE', async () => {
    const pupil = await addSitting(api.db, { password: PASSWORD, venue: {} });
    for (const page of [
      { org_code: 'NO-SUCH-SCHOOL' },
      { schedule_code: 'NO-SUCH-SCHEDULE' },
      { schedule_code: pupil.scheduleCode, venue_id: pupil.venueId! + 1000 },
      { schedule_code: pupil.scheduleCode, org_code: 'GRADUS-HOME' },
    ]) {
      const before = await snapshotTables(api.db);
      expectError(await loginAs(pupil, PASSWORD, page), 404, 'INVALID_SCHEDULE');
      expect(await snapshotTables(api.db)).toEqual(before);
    }
  });

  describe('the account lock', () => {
    // The throttle counts in real time: the lock's minute passes by moving Date, not the app's clock.
    const passRealTime = (ms: number) => vi.setSystemTime(Date.now() + ms);
    afterEach(() => {
      vi.useRealTimers();
    });

    test('the 5th wrong password locks the account for 1 minute, even against the right password', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const pupil = await addSitting(api.db, { password: PASSWORD });
      for (let i = 1; i < MAX_FAILED_LOGINS; i++) expectError(await loginAs(pupil, `wrong ${i}`), 401, 'INCORRECT_ID_PASSWORD');
      const fifth = await loginAs(pupil, 'wrong 5');
      expectError(fifth, 403, 'ACCOUNT_LOCKED');
      expect(fifth.headers.get('retry-after')).toBe(String(LOCK_MS / 1000));

      expectError(await loginAs(pupil), 403, 'ACCOUNT_LOCKED');
      passRealTime(LOCK_MS - 1000);
      const stillLocked = await loginAs(pupil);
      expectError(stillLocked, 403, 'ACCOUNT_LOCKED');
      expect(stillLocked.headers.get('retry-after')).toBe('1');
      passRealTime(1000);
      expect((await loginAs(pupil)).status).toBe(200);
      // Nothing is kept on the pupil's row any more (anyone could lock it from anywhere).
      expect(await account(pupil)).toMatchObject({ failedLoginCount: 0, lockedUntil: null });
    });

    test('after the lock, the count starts again from zero', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const pupil = await addSitting(api.db, { password: PASSWORD });
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await loginAs(pupil, 'wrong');
      passRealTime(LOCK_MS);
      for (let i = 1; i < MAX_FAILED_LOGINS; i++) expectError(await loginAs(pupil, 'wrong again'), 401, 'INCORRECT_ID_PASSWORD');
      expectError(await loginAs(pupil, 'wrong again'), 403, 'ACCOUNT_LOCKED');
    });

    test('a right password resets the count', async () => {
      const pupil = await addSitting(api.db, { password: PASSWORD });
      for (let i = 1; i < MAX_FAILED_LOGINS; i++) expectError(await loginAs(pupil, 'wrong'), 401, 'INCORRECT_ID_PASSWORD');
      expect((await loginAs(pupil)).status).toBe(200);
      for (let i = 1; i < MAX_FAILED_LOGINS; i++) expectError(await loginAs(pupil, 'wrong'), 401, 'INCORRECT_ID_PASSWORD');
      expect((await loginAs(pupil)).status).toBe(200);
    });

    test('is per account: another pupil is not locked', async () => {
      const locked = await addSitting(api.db, { password: PASSWORD });
      const other = await addSitting(api.db, { password: PASSWORD });
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await loginAs(locked, 'wrong');
      expectError(await loginAs(locked), 403, 'ACCOUNT_LOCKED');
      expect((await loginAs(other)).status).toBe(200);
    });

    test('two API processes on one database agree', async () => {
      const pupil = await addSitting(api.db, { password: PASSWORD });
      const second = createApp({ db: api.db, clock: api.clock, logger: silentLogger });
      const viaSecond = (password: string) =>
        second.request('/api/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Device-Token': terminalOf({ login_id: pupil.loginId }) },
          body: JSON.stringify({ login_type: 1, login_id: pupil.loginId, password, org_code: pupil.orgCode }),
        });
      for (let i = 0; i < 3; i++) await loginAs(pupil, 'wrong');
      expect((await viaSecond('wrong')).status).toBe(401);
      expectError(await loginAs(pupil, 'wrong'), 403, 'ACCOUNT_LOCKED');
      const response = await viaSecond(PASSWORD);
      expect(response.status).toBe(403);
      expect(((await response.json()) as { code: string }).code).toBe('ACCOUNT_LOCKED');
    });

    test('concurrent wrong passwords are all counted', async () => {
      const pupil = await addSitting(api.db, { password: PASSWORD });
      const responses = await Promise.all(Array.from({ length: MAX_FAILED_LOGINS }, () => loginAs(pupil, 'wrong')));
      expect(responses.map((r) => errorOf(r).code).sort()).toEqual([
        'ACCOUNT_LOCKED',
        ...Array<string>(MAX_FAILED_LOGINS - 1).fill('INCORRECT_ID_PASSWORD'),
      ]);
      expectError(await loginAs(pupil), 403, 'ACCOUNT_LOCKED');
    });
  });

  const refusals: [string, SittingOptions, ErrorCode][] = [
    ['a disabled organisation', { organization: { disabled: true } }, 'DISABLED_ORGANIZATION'],
    ['an organisation using OAuth', { organization: { loginMethod: 2 } }, 'INCORRECT_LOGIN_METHOD'],
    ['an organisation using examinee login', { organization: { loginMethod: 3 } }, 'INCORRECT_LOGIN_METHOD'],
    ['a disabled classroom', { venue: { disabled: true } }, 'DISABLED_CLASS'],
    ['a test period not started', { schedule: { startsAt: '2026-06-02T00:00:00Z', endsAt: '2026-06-03T00:00:00Z' } }, 'TIME_START'],
    ['a test period over', { schedule: { startsAt: '2026-05-01T00:00:00Z', endsAt: '2026-05-31T00:00:00Z' } }, 'TIME_END'],
    [
      'a suspended test period',
      {
        schedule: {
          startsAt: '2026-05-01T00:00:00Z',
          endsAt: '2026-07-01T00:00:00Z',
          suspendedFrom: '2026-06-01T08:00:00Z',
          suspendedUntil: '2026-06-01T12:00:00Z',
        },
      },
      'SCHEDULE_SUSPENSION_TIME',
    ],
    ['a finished exam', { status: ScheduleHistoryStatus.COMPLETED }, 'ER_SCHEDULE_HISTORY_COMPLETED'],
    ['a cancelled exam', { status: ScheduleHistoryStatus.CANCELED_COMPLETED }, 'ER_SCHEDULE_HISTORY_CANCELLED'],
    ['an expired exam', { status: ScheduleHistoryStatus.EXPIRED }, 'EXPIRED'],
  ];

  test.each(refusals)('by ID, login to %s is refused (403)', async (_, options, code) => {
    const pupil = await addSitting(api.db, { ...options, password: PASSWORD });
    const before = await snapshotTables(api.db);
    expectError(await loginAs(pupil, PASSWORD, {}), 403, code);
    expect(await snapshotTables(api.db)).toEqual(before);
  });

  test.each(refusals)('by code, login to %s is refused (403)', async (_, options, code) => {
    const pupil = await addSitting(api.db, options);
    expectError(await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode } }), 403, code);
  });

  test('by ID, a my-page examinee logs in to a finished (scored) exam after the period to see results; others stay refused', async () => {
    const period = { startsAt: '2026-05-01T00:00:00Z', endsAt: '2026-05-31T00:00:00Z' };
    const myPage = await addSitting(api.db, { password: PASSWORD, isMyPageLogin: true, status: ScheduleHistoryStatus.SCORING_COMPLETED, schedule: period });
    const response = await loginAs(myPage);
    expect(response.status).toBe(200);
    expect(v.parse(LoginResponseSchema, response.body).examinee).toMatchObject({ schedule_history_id: myPage.scheduleHistoryId, is_my_page_login: true });
    const other = await addSitting(api.db, { password: PASSWORD, status: ScheduleHistoryStatus.SCORING_COMPLETED, schedule: period });
    expectError(await loginAs(other), 403, 'ER_SCHEDULE_HISTORY_COMPLETED');
  });

  test('a suspension is a window: before and after it, login works', async () => {
    const schedule = {
      startsAt: '2026-05-01T00:00:00Z',
      endsAt: '2026-07-01T00:00:00Z',
      suspendedFrom: '2026-06-01T10:00:00Z',
      suspendedUntil: '2026-06-01T11:00:00Z',
    };
    const pupil = await addSitting(api.db, { schedule, password: PASSWORD });
    expect((await loginAs(pupil)).status).toBe(200);
    api.clock.set('2026-06-01T10:30:00Z');
    expectError(await loginAs(pupil), 403, 'SCHEDULE_SUSPENSION_TIME');
    api.clock.set('2026-06-01T11:00:00Z');
    expect((await loginAs(pupil)).status).toBe(200);
  });

  test('Start is refused while the test period is suspended', async () => {
    const schedule = {
      startsAt: '2026-05-01T00:00:00Z',
      endsAt: '2026-07-01T00:00:00Z',
      suspendedFrom: '2026-06-01T10:00:00Z',
      suspendedUntil: '2026-06-01T11:00:00Z',
    };
    const pupil = await addSitting(api.db, { schedule });
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
    api.clock.set('2026-06-01T10:00:00Z');
    const response = await api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: scheduleHistoryId } });
    expectError(response, 403, 'SCHEDULE_SUSPENSION_TIME');
  });
});
