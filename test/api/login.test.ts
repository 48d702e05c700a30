/**
 * POST /api/login (login code) and POST /api/logout: the code as pupils type it, the refusals
 * of seed section 8, the examinee session info, tokens and their revocation, and the demo
 * accounts behaving as server/seed/demo-accounts.json declares.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { LoginResponseSchema, LogoutResponseSchema } from '../../contract/session.ts';
import { authTokens } from '../../server/db/schema.ts';
import { hashToken } from '../../server/domain/tokens.ts';
import { loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('login by code on %s', (kind) => {
  const api = useApi(kind);
  const login = (loginCode: unknown) => api.call('POST', '/api/login', { body: { login_type: 0, login_code: loginCode } });

  test('a code is accepted as typed: lower case, without hyphens, with spaces', async () => {
    const pupil = await addSitting(api.db);
    const compact = pupil.loginCode.replaceAll('-', '');
    for (const typed of [pupil.loginCode, pupil.loginCode.toLowerCase(), compact, ` ${compact.slice(0, 6)} ${compact.slice(6)} `]) {
      const response = await login(typed);
      expect(response.status, typed).toBe(200);
      expect(v.parse(LoginResponseSchema, response.body).examinee.schedule_history_id).toBe(pupil.scheduleHistoryId);
    }
  });

  test('the response holds a token, the session info of seed section 3 and the server time', async () => {
    const pupil = await addSitting(api.db);
    const response = await login(pupil.loginCode);
    const body = v.parse(LoginResponseSchema, response.body);
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.server_time).toBe(TEST_START);
    expect(body.examinee).toMatchObject({
      login_type: 0,
      examinee_name: expect.stringMatching(/^Pupil /),
      subject_id: 1,
      schedule_code: 'DEMO-2026',
      org_code: 'GRADUS-DEMO',
      org_login_method: 1,
      org_category: 'SCHOOL',
      enable_mode_step: false,
      grade_id: 4,
      email: null,
      flag_retake: false,
      schedule_history_id: pupil.scheduleHistoryId,
    });
  });

  test('only the hash of the token is stored', async () => {
    const pupil = await addSitting(api.db);
    const body = v.parse(LoginResponseSchema, (await login(pupil.loginCode)).body);
    const rows = await api.db.select().from(authTokens).where(eq(authTokens.examineeId, pupil.examineeId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashToken(body.access_token));
    expect(JSON.stringify(rows)).not.toContain(body.access_token);
  });

  test('a well-formed code nobody has is 401 LOGIN_CODE_INCORRECT', async () => {
    const response = await login('AAAA-AAAA-AAAA');
    expect(response.status).toBe(401);
    expect(errorOf(response).code).toBe('LOGIN_CODE_INCORRECT');
  });

  test.each([
    ['a finished exam', { status: ScheduleHistoryStatus.COMPLETED }, 403, 'ER_SCHEDULE_HISTORY_COMPLETED'],
    ['a scored exam', { status: ScheduleHistoryStatus.SCORING_COMPLETED }, 403, 'ER_SCHEDULE_HISTORY_COMPLETED'],
    ['a cancelled exam', { status: ScheduleHistoryStatus.CANCELED_PENDING }, 403, 'ER_SCHEDULE_HISTORY_CANCELLED'],
    ['an expired exam', { status: ScheduleHistoryStatus.EXPIRED }, 403, 'EXPIRED'],
    ['a disabled organisation', { organization: { disabled: true } }, 403, 'DISABLED_ORGANIZATION'],
    ['an organisation using OAuth', { organization: { loginMethod: 2 } }, 403, 'INCORRECT_LOGIN_METHOD'],
    ['a disabled classroom', { venue: { disabled: true } }, 403, 'DISABLED_CLASS'],
    ['a test period not started', { schedule: { startsAt: '2026-06-02T00:00:00Z', endsAt: '2026-06-03T00:00:00Z' } }, 403, 'TIME_START'],
    ['a test period over', { schedule: { startsAt: '2026-05-01T00:00:00Z', endsAt: '2026-05-31T00:00:00Z' } }, 403, 'TIME_END'],
  ] as const)('login to %s is refused', async (_, options, status, code) => {
    const pupil = await addSitting(api.db, options);
    const response = await login(pupil.loginCode);
    expect(response.status).toBe(status);
    expect(errorOf(response).code).toBe(code);
  });

  test('a pupil in the middle of the exam can log in again (a reload, another terminal)', async () => {
    const pupil = await addSitting(api.db);
    const first = await api.startAs(pupil.loginCode);
    api.clock.advance(10 * 60_000);
    const again = await api.loginAs(pupil.loginCode);
    expect(again.scheduleHistoryId).toBe(first.scheduleHistoryId);
    expect(again.token).not.toBe(first.token);
  });

  test('login after finishing is refused with ER_SCHEDULE_HISTORY_COMPLETED', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    expect((await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
    const response = await login(pupil.loginCode);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
  });

  test.each([
    ['a my-page examinee', { isMyPageLogin: true }],
    ['a pupil of a foreign-payment organisation', { organization: { foreignPaymentMethod: true, category: 'FOREIGN' as const } }],
  ])('%s comes back after finishing (even after the test period) for results; the exam stays closed', async (_, options) => {
    const pupil = await addSitting(api.db, {
      ...options,
      schedule: { startsAt: '2026-05-01T00:00:00Z', endsAt: '2026-06-02T00:00:00Z' },
    });
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    expect((await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
    api.clock.set('2026-06-10T09:00:00Z');
    const again = await api.loginAs(pupil.loginCode);
    expect(again.scheduleHistoryId).toBe(scheduleHistoryId);
    const start = await api.call('POST', '/api/exam/start', { token: again.token, body: { schedule_history_id: scheduleHistoryId } });
    expect(start.status).toBe(403);
    expect(errorOf(start).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
    const questions = await api.call('GET', `/api/exam/questions?schedule_history_id=${scheduleHistoryId}`, { token: again.token });
    expect(errorOf(questions).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
  });

  test.each([
    ['cancelled', ScheduleHistoryStatus.CANCELED_COMPLETED, 'ER_SCHEDULE_HISTORY_CANCELLED'],
    ['expired', ScheduleHistoryStatus.EXPIRED, 'EXPIRED'],
  ] as const)('a my-page examinee is still refused a %s exam', async (_, status, code) => {
    const pupil = await addSitting(api.db, { isMyPageLogin: true, status });
    const response = await login(pupil.loginCode);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe(code);
  });

  test('logout revokes the token: the next call with it is 401 NOT_LOGGED_IN', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
    const details = `/api/exam-details?schedule_history_id=${scheduleHistoryId}`;
    expect((await api.call('GET', details, { token })).status).toBe(200);

    const logout = await api.call('POST', '/api/logout', { token });
    expect(logout.status).toBe(200);
    expect(v.parse(LogoutResponseSchema, logout.body)).toEqual({ ok: true });
    const [row] = await api.db.select().from(authTokens).where(eq(authTokens.tokenHash, hashToken(token)));
    expect(row?.revokedAt?.toISOString()).toBe(TEST_START);

    for (const [method, path] of [['GET', details], ['POST', '/api/logout']] as const) {
      const response = await api.call(method, path, { token });
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('NOT_LOGGED_IN');
    }
  });

  test('a token expires after 12 hours', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
    const details = `/api/exam-details?schedule_history_id=${scheduleHistoryId}`;
    api.clock.advance(12 * 3_600_000 - 1000);
    expect((await api.call('GET', details, { token })).status).toBe(200);
    api.clock.advance(1000);
    const response = await api.call('GET', details, { token });
    expect(response.status).toBe(401);
    expect(errorOf(response).code).toBe('NOT_LOGGED_IN');
  });

  test('every demo account of login type 0 logs in, or is refused, as demo-accounts.json says', async () => {
    api.clock.set(new Date()); // the demo test periods are real dates
    const accounts = loadDemoAccounts();
    expect(accounts.filter((a) => a.scenario === 'journey').length).toBeGreaterThanOrEqual(6);
    for (const account of accounts.filter((a) => a.login_type === 0)) {
      const response = await login(account.login_code.toLowerCase());
      if (account.login_refused_with === null) {
        expect(response.status, account.login_code).toBe(200);
        const body = v.parse(LoginResponseSchema, response.body);
        expect(body.examinee).toMatchObject({ examinee_name: account.name, subject_id: account.subject, grade_id: account.grade_id });
      } else {
        expect(errorOf(response).code, account.login_code).toBe(account.login_refused_with);
      }
    }
  });
});
