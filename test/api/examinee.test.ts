/**
 * Examinee login (POST /api/login-examinee, login type 5), the exam list (GET /api/exams) with
 * step mode, and GET /api/me: an examinee token acts on any of the examinee's own sittings,
 * never on anyone else's; in step mode a level stays locked (ER_SCHEDULE_HISTORY_STEP_MODE)
 * until the previous level of the same subject is done.
 */
import * as v from 'valibot';
import { describe, expect, test, vi } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { ExamListSchema, LoginResponseSchema, MeResponseSchema } from '../../contract/session.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addAnotherSitting, addSitting, snapshotTables, type TestSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'examinee-pass';

describe.each(kinds)('examinee login and the exam list on %s', (kind) => {
  const api = useApi(kind);
  const loginExaminee = (pupil: TestSitting, password = PASSWORD, orgCode = pupil.orgCode) =>
    api.call('POST', '/api/login-examinee', { body: { login_id: pupil.loginId, password, org_code: orgCode } });
  const tokenOf = async (pupil: TestSitting) => {
    const response = await loginExaminee(pupil);
    expect(response.status).toBe(200);
    return v.parse(LoginResponseSchema, response.body).access_token;
  };
  const examsOf = async (token: string) => {
    const response = await api.call('GET', '/api/exams', { token });
    expect(response.status).toBe(200);
    return v.parse(ExamListSchema, response.body).exams;
  };
  /** A pupil of a new examinee-login organisation with English 1 and 2 and Calculation 1 and 2. */
  const examineeWithFourExams = async (stepMode: boolean, english1Status: number = ScheduleHistoryStatus.PENDING) => {
    const pupil = await addSitting(api.db, {
      password: PASSWORD,
      organization: { loginMethod: 3, enableModeStep: stepMode },
      status: english1Status,
      examCode: 'EN-1',
    });
    const en2 = await addAnotherSitting(api.db, pupil, { examCode: 'EN-2' });
    const calc2 = await addAnotherSitting(api.db, pupil, { examCode: 'CALC-2' });
    const calc1 = await addAnotherSitting(api.db, pupil, { examCode: 'CALC-1' });
    return { pupil, en1: pupil.scheduleHistoryId, en2, calc1, calc2 };
  };

  test('answers with a token for all the examinee\'s exams: schedule_history_id is null', async () => {
    const { pupil } = await examineeWithFourExams(false);
    const response = await loginExaminee(pupil);
    expect(response.status).toBe(200);
    const body = v.parse(LoginResponseSchema, response.body);
    expect(body.examinee).toMatchObject({
      login_type: 5,
      org_login_method: 3,
      org_code: pupil.orgCode,
      enable_mode_step: false,
      schedule_history_id: null,
      user_key: '',
      test_key: '',
      subject_id: 1,
    });
    expect(body.server_time).toBe(TEST_START);
  });

  test('wrong password, unknown ID, another organisation: INCORRECT_ID_PASSWORD; unknown organisation: INVALID_SCHEDULE', async () => {
    const { pupil } = await examineeWithFourExams(false);
    const other = await addSitting(api.db, { password: PASSWORD, organization: { loginMethod: 3 } });
    for (const [response, status, code] of [
      [await loginExaminee(pupil, 'not the password'), 401, 'INCORRECT_ID_PASSWORD'],
      [await loginExaminee(other, PASSWORD, pupil.orgCode), 401, 'INCORRECT_ID_PASSWORD'],
      [await loginExaminee(pupil, PASSWORD, 'NO-SUCH-ORG'), 404, 'INVALID_SCHEDULE'],
    ] as const) {
      expect(response.status).toBe(status);
      expect(errorOf(response).code).toBe(code);
    }
  });

  test('locks after 5 wrong passwords, like login by ID', async () => {
    // The lock is the login throttle's, in real time: its minute passes by moving Date.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { pupil } = await examineeWithFourExams(false);
      for (let i = 0; i < 4; i++) expect(errorOf(await loginExaminee(pupil, 'wrong')).code).toBe('INCORRECT_ID_PASSWORD');
      expect(errorOf(await loginExaminee(pupil, 'wrong')).code).toBe('ACCOUNT_LOCKED');
      expect(errorOf(await loginExaminee(pupil)).code).toBe('ACCOUNT_LOCKED');
      vi.setSystemTime(Date.now() + 60_000);
      expect((await loginExaminee(pupil)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  test('the organisation code in any case is one account to the lock', async () => {
    const { pupil } = await examineeWithFourExams(false);
    const code = pupil.orgCode;
    const spellings = [code, code.toLowerCase(), code.toUpperCase(), code.toLowerCase().replace(/[a-z]/, (c) => c.toUpperCase()), code];
    expect(new Set(spellings.map((spelling) => spelling.toLowerCase())).size).toBe(1);
    expect(new Set(spellings).size).toBeGreaterThan(2);
    for (const spelling of spellings.slice(0, 4)) expect(errorOf(await loginExaminee(pupil, 'wrong', spelling)).code).toBe('INCORRECT_ID_PASSWORD');
    // The fifth wrong password locks the account, whichever spelling the four before used.
    expect(errorOf(await loginExaminee(pupil, 'wrong', code.toUpperCase())).code).toBe('ACCOUNT_LOCKED');
  });

  test.each([
    ['schedule history login (1)', { loginMethod: 1 }, 'INCORRECT_LOGIN_METHOD'],
    ['OAuth login (2)', { loginMethod: 2 }, 'INCORRECT_LOGIN_METHOD'],
    ['examinee login, but disabled', { loginMethod: 3, disabled: true }, 'DISABLED_ORGANIZATION'],
  ] as const)('an organisation with %s refuses examinee login (403)', async (_, organization, code) => {
    const pupil = await addSitting(api.db, { password: PASSWORD, organization });
    const before = await snapshotTables(api.db);
    const response = await loginExaminee(pupil);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe(code);
    expect(await snapshotTables(api.db)).toEqual(before);
  });

  test('the exam list: every sitting by subject and level, nothing locked without step mode', async () => {
    const { pupil, en1, en2, calc1, calc2 } = await examineeWithFourExams(false);
    const exams = await examsOf(await tokenOf(pupil));
    expect(exams.map((e) => e.schedule_history_id)).toEqual([en1, en2, calc1, calc2]);
    expect(exams.map((e) => [e.subject.id, e.level.order, e.locked])).toEqual([
      [1, 1, false],
      [1, 2, false],
      [2, 1, false],
      [2, 2, false],
    ]);
    expect(exams[0]).toMatchObject({
      subject: { id: 1, name: 'English (vocabulary)' },
      level: { name: 'Level 1', order: 1 },
      exam: { title: 'English vocabulary, level 1' },
      status: 0,
      score: null,
      scoring: 'not_taken',
    });
  });

  test('step mode: level 2 is locked until level 1 of the same subject is done', async () => {
    const { pupil, en1, en2, calc2 } = await examineeWithFourExams(true);
    const token = await tokenOf(pupil);
    const lockedIds = async () => (await examsOf(token)).filter((e) => e.locked).map((e) => e.schedule_history_id);
    expect(await lockedIds()).toEqual([en2, calc2]);

    for (const [method, path, body] of [
      ['POST', '/api/exam/start', { schedule_history_id: en2 }],
      ['GET', `/api/exam-details?schedule_history_id=${en2}`, undefined],
    ] as const) {
      const before = await snapshotTables(api.db);
      const response = await api.call(method, path, { token, body });
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('ER_SCHEDULE_HISTORY_STEP_MODE');
      expect(await snapshotTables(api.db)).toEqual(before);
    }

    // Level 1: start, finish; then level 2 opens.
    expect((await api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: en1 } })).status).toBe(200);
    expect(await lockedIds()).toEqual([en2, calc2]);
    expect((await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: en1 } })).status).toBe(200);
    expect(await lockedIds()).toEqual([calc2]);
    const items = await examsOf(token);
    expect(items.find((e) => e.schedule_history_id === en1)).toMatchObject({ status: 1, scoring: 'scoring' });
    expect((await api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: en2 } })).status).toBe(200);
  });

  test('step mode: a cancelled earlier level does not keep the next one locked', async () => {
    const { pupil, en2 } = await examineeWithFourExams(true, ScheduleHistoryStatus.CANCELED_PENDING);
    const exams = await examsOf(await tokenOf(pupil));
    expect(exams.find((e) => e.schedule_history_id === en2)?.locked).toBe(false);
  });

  test("the examinee's token acts on any of their sittings, and on nobody else's", async () => {
    const { pupil, en1, calc1 } = await examineeWithFourExams(false);
    const stranger = await addSitting(api.db);
    const token = await tokenOf(pupil);
    for (const id of [en1, calc1]) {
      expect((await api.call('GET', `/api/exam-details?schedule_history_id=${id}`, { token })).status).toBe(200);
    }
    const response = await api.call('GET', `/api/exam-details?schedule_history_id=${stranger.scheduleHistoryId}`, { token });
    expect(response.status).toBe(404);
    expect(errorOf(response).code).toBe('NOT_FOUND');
  });

  test('a code login lists only its own exam', async () => {
    const { pupil, en1 } = await examineeWithFourExams(false);
    // The organisation uses examinee login, so a code login is refused; a plain pupil's code token lists one exam.
    expect(errorOf(await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode } })).code).toBe(
      'INCORRECT_LOGIN_METHOD',
    );
    const plain = await addSitting(api.db);
    await addAnotherSitting(api.db, plain, { examCode: 'CALC-1' });
    const { token, scheduleHistoryId } = await api.loginAs(plain.loginCode);
    expect((await examsOf(token)).map((e) => e.schedule_history_id)).toEqual([scheduleHistoryId]);
    expect(en1).toBe(pupil.scheduleHistoryId);
  });

  describe('GET /api/me', () => {
    test('after examinee login: the same session info as the login, and the token itself', async () => {
      const { pupil } = await examineeWithFourExams(true);
      const login = v.parse(LoginResponseSchema, (await loginExaminee(pupil)).body);
      const response = await api.call('GET', '/api/me', { token: login.access_token });
      expect(response.status).toBe(200);
      const me = v.parse(MeResponseSchema, response.body);
      expect(me).toEqual({ access_token: login.access_token, examinee: login.examinee, server_time: TEST_START });
      expect(me.examinee).toMatchObject({ login_type: 5, enable_mode_step: true });
    });

    test('after a code login and an ID login: their sitting and login type', async () => {
      const pupil = await addSitting(api.db, { password: PASSWORD });
      const byCode = v.parse(LoginResponseSchema, (await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode } })).body);
      const byId = v.parse(
        LoginResponseSchema,
        (await api.call('POST', '/api/login', { body: { login_type: 1, login_id: pupil.loginId, password: PASSWORD } })).body,
      );
      for (const login of [byCode, byId]) {
        const me = v.parse(MeResponseSchema, (await api.call('GET', '/api/me', { token: login.access_token })).body);
        expect(me.examinee).toEqual(login.examinee);
      }
      expect([byCode.examinee.login_type, byId.examinee.login_type]).toEqual([0, 1]);
    });

    test('without a valid token: 401 NOT_LOGGED_IN', async () => {
      const response = await api.call('GET', '/api/me', { token: 'A'.repeat(43) });
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('NOT_LOGGED_IN');
    });
  });
});
