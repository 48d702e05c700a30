/**
 * The demo accounts of server/seed/demo-accounts.json, each logging in its own way (login code,
 * login ID and password on its page, examinee login): refused with the code the file names, or
 * let in with session info that leads the client's next-screen rules (seed section 2) to the
 * file's `landing`. Also the lock demo, the step-mode demo's exam list, and the time-out demos'
 * one-minute sitting.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { ExamDetailsSchema } from '../../contract/exam.ts';
import { ExamListSchema, LoginResponseSchema, type ExamineeInfo } from '../../contract/session.ts';
import { examinees, exams, scheduleHistories } from '../../server/db/schema.ts';
import { demoLandings, loadDemoAccounts, type DemoAccount } from '../../server/seed/demo-accounts.ts';
import { demoExams, demoShortExams } from '../../server/seed/demo-content.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';

const kinds = await testDatabaseKinds();
const accounts = loadDemoAccounts();

/** The seed's next-screen rules (section 2), as the client applies them. */
function landingOf(info: ExamineeInfo): (typeof demoLandings)[number] {
  if (info.is_my_page_login || info.foreign_payment_method) return info.email === null ? 'examinee-input-info' : 'examinee-info';
  if (info.login_type === 5) return info.enable_mode_step ? 'exam-step-mode' : 'exam';
  return 'login-confirm';
}

test('demo login codes are drawn at random: no two share a group, so knowing one code tells nothing of another', () => {
  const codes = loadDemoAccounts().map((a) => a.login_code);
  expect(new Set(codes).size).toBe(codes.length);
  // The old seed's codes were consecutive (CAT7-TEAM-3463, -3464, ...): trying a pupil's
  // neighbours logged in others. Random codes share a whole group of four only by chance (1 in 194 481).
  for (const position of [0, 1, 2]) {
    const groups = codes.map((code) => code.split('-')[position]);
    expect(groups.filter((group, i) => groups.indexOf(group) !== i), `group ${position + 1}`).toEqual([]);
  }
});

describe.each(kinds)('the demo accounts on %s', (kind) => {
  const api = useApi(kind);
  // As on a running server: the results jobs (expiry, scoring, release) have run over the seed.
  beforeAll(async () => {
    await runDueJobs(api.db, api.clock);
  });
  const logIn = (account: DemoAccount, password = account.password) => {
    if (account.login_type === 0) return api.call('POST', '/api/login', { body: { login_type: 0, login_code: account.login_code } });
    if (account.login_type === 5) {
      return api.call('POST', '/api/login-examinee', { body: { login_id: account.login_id, password, org_code: account.org_code } });
    }
    return api.call('POST', '/api/login', {
      body: { login_type: 1, login_id: account.login_id, password, org_code: account.org_code, schedule_code: account.schedule_code },
    });
  };

  test('cover every way in, every landing and every refusal of the issue', () => {
    expect(new Set(accounts.map((a) => a.login_type))).toEqual(new Set([0, 1, 5]));
    expect(new Set(accounts.map((a) => a.landing).filter((l) => l !== null))).toEqual(new Set(demoLandings));
    expect(new Set(accounts.map((a) => a.login_refused_with).filter((c) => c !== null))).toEqual(
      new Set([
        'INCORRECT_LOGIN_METHOD',
        'DISABLED_ORGANIZATION',
        'DISABLED_CLASS',
        'TIME_START',
        // TIME_END (a period over, its sittings not yet expired) lasts only until the next
        // expiry sweep on a running server; test/api/login.test.ts covers it.
        'EXPIRED',
        'SCHEDULE_SUSPENSION_TIME',
        'ER_SCHEDULE_HISTORY_COMPLETED',
        'ER_SCHEDULE_HISTORY_CANCELLED',
      ]),
    );
    expect(accounts.some((a) => a.scenario === 'lock' && a.login_type !== 0)).toBe(true);
    // Single sign-on demos (scenario sso) land by single sign-on; their login code is refused.
    for (const account of accounts.filter((a) => a.scenario !== 'sso')) {
      expect(account.landing === null, account.login_code).toBe(account.login_refused_with !== null);
    }
  });

  test.each(accounts.map((a) => [`${a.login_code} (${a.scenario}, login type ${a.login_type})`, a] as const))(
    '%s logs in its own way as the file says',
    async (_, account) => {
      api.clock.set(new Date()); // the demo test periods are real dates
      const response = await logIn(account);
      if (account.login_refused_with !== null) {
        expect(errorOf(response).code).toBe(account.login_refused_with);
        return;
      }
      expect(response.status).toBe(200);
      const body = v.parse(LoginResponseSchema, response.body);
      expect(body.examinee).toMatchObject({ examinee_name: account.name, login_type: account.login_type, org_code: account.org_code });
      expect(landingOf(body.examinee)).toBe(account.landing);
    },
  );

  test('the lock demo: wrong passwords, then locked for a minute even with the right one', async () => {
    const account = accounts.find((a) => a.scenario === 'lock')!;
    api.clock.set(new Date());
    // The lock is the login throttle's, in real time: its minute passes by moving Date.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let i = 0; i < 4; i++) expect(errorOf(await logIn(account, 'not-the-password')).code).toBe('INCORRECT_ID_PASSWORD');
      expect(errorOf(await logIn(account, 'not-the-password')).code).toBe('ACCOUNT_LOCKED');
      expect(errorOf(await logIn(account)).code).toBe('ACCOUNT_LOCKED');
      vi.setSystemTime(Date.now() + 60_000);
      api.clock.advance(60_000);
      expect((await logIn(account)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  test('the time-out demos sit a one-minute copy of their level\'s paper that nobody else is booked into', async () => {
    const timeOut = accounts.filter((a) => a.scenario === 'time-out');
    expect(timeOut.length).toBeGreaterThanOrEqual(1);
    api.clock.set(new Date());
    for (const account of timeOut) {
      const paper = demoShortExams.find((e) => e.code === account.exam_code)!;
      const regular = demoExams.find((e) => e.subjectId === account.subject && e.level === account.level)!;
      expect(paper.questions).toEqual(regular.questions);
      const { access_token: token, examinee } = v.parse(LoginResponseSchema, (await logIn(account)).body);
      const response = await api.call('GET', `/api/exam-details?schedule_history_id=${examinee.schedule_history_id}`, { token });
      expect(response.status).toBe(200);
      const details = v.parse(ExamDetailsSchema, response.body);
      expect(details.exam).toMatchObject({ title: paper.title, time_limit_seconds: 60, question_count: regular.questions.length });
    }
    for (const paper of demoShortExams) {
      const booked = await api.db
        .select({ loginCode: examinees.loginCode })
        .from(scheduleHistories)
        .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
        .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
        .where(eq(exams.code, paper.code));
      expect(booked.map((b) => b.loginCode).sort()).toEqual(accounts.filter((a) => a.exam_code === paper.code).map((a) => a.login_code).sort());
    }
  });

  test('the step-mode demo: English 2 and Calculation 1 open, Calculation 2 locked', async () => {
    const account = accounts.find((a) => a.scenario === 'examinee-step-mode')!;
    api.clock.set(new Date());
    const { access_token: token } = v.parse(LoginResponseSchema, (await logIn(account)).body);
    const { exams } = v.parse(ExamListSchema, (await api.call('GET', '/api/exams', { token })).body);
    // English 1 was finished long ago: the jobs have scored and released it (RESULT_PUBLIC 5).
    expect(exams.map((e) => [e.subject.id, e.level.order, e.status, e.locked])).toEqual([
      [1, 1, 5, false],
      [1, 2, 0, false],
      [2, 1, 0, false],
      [2, 2, 0, true],
    ]);
    const locked = exams.find((e) => e.locked)!;
    const start = await api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: locked.schedule_history_id } });
    expect(errorOf(start).code).toBe('ER_SCHEDULE_HISTORY_STEP_MODE');
  });
});
