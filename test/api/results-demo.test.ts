/**
 * The results demo data (server/seed/results-demo.ts) on PGlite and PostgreSQL: each account of
 * server/seed/results-accounts.json logs in with its login ID and password and shows what its
 * entry says; the cohort behind them gives ranks and averages that mean something; seeding
 * again adds nothing.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { ChoosePageStatusSchema, ScoreReportSchema, ShortResultSchema } from '../../contract/results.ts';
import { LoginResponseSchema } from '../../contract/session.ts';
import { examinees, exams, results, scheduleHistories, schedules, unitStatistics } from '../../server/db/schema.ts';
import { loadResultsAccounts, seedResultsDemo } from '../../server/seed/results-demo.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';

const kinds = await testDatabaseKinds();
const accounts = loadResultsAccounts();

describe.each(kinds)('results demo accounts on %s', (kind) => {
  const api = useApi(kind);

  /** The test clock at the seeding's "now": the past test periods ended two days before it. */
  async function atSeedNow() {
    const [past] = await api.db.select({ endsAt: schedules.endsAt }).from(schedules).where(eq(schedules.scheduleCode, 'RESULTS-PAST-A'));
    api.clock.set(new Date(past!.endsAt.getTime() + 2 * 86_400_000 + 60_000));
  }

  async function loginById(loginId: string, password: string) {
    const response = await api.call('POST', '/api/login', { body: { login_type: 1, login_id: loginId, password } });
    expect(response.status, `${loginId}: ${JSON.stringify(response.body)}`).toBe(200);
    const body = v.parse(LoginResponseSchema, response.body);
    return { token: body.access_token, id: body.examinee.schedule_history_id!, examinee: body.examinee };
  }
  const get = (token: string, path: string) => api.call('GET', path, { token });

  test.each(accounts.filter((a) => a.scenario !== 'journey'))('$login_id: $shows', async (account) => {
    await atSeedNow();
    const { token, id, examinee } = await loginById(account.login_id, account.password);
    expect(examinee).toMatchObject({ examinee_name: account.name, is_my_page_login: true, org_code: account.org_code });
    const short = await get(token, `/api/get-short-result?schedule_history_id=${id}`);
    const sheet = await get(token, `/api/score-report/results?schedule_history_id=${id}`);
    const menu = v.parse(ChoosePageStatusSchema, (await get(token, '/api/get-status-choose-page')).body);
    // The exam itself stays closed.
    const start = await api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: id } });
    expect(errorOf(start).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');

    switch (account.scenario) {
      case 'passed_unpaid':
        expect(v.parse(ShortResultSchema, short.body)).toMatchObject({ passed: true });
        expect(errorOf(sheet).code).toBe('PAYMENT_REQUIRED');
        expect(menu.result).toMatchObject({ released: true, payment_status: 0 });
        expect(menu.exam.status).toBe(ScheduleHistoryStatus.RESULT_PUBLIC);
        break;
      case 'passed_bought': {
        const report = v.parse(ScoreReportSchema, sheet.body);
        expect(report.result.passed).toBe(true);
        expect(report.certificate_available).toBe(true);
        expect(report.rank.status).toBe('complete');
        if (report.rank.status === 'complete') expect(report.rank.total).toBeGreaterThanOrEqual(30);
        expect(report.examinee.region).toBe('JP');
        expect(report.examinee.age).toBeGreaterThanOrEqual(8);
        expect(report.units.every((u) => u.average_all !== null && u.average_organization !== null)).toBe(true);
        expect(report.distribution?.reduce((n, d) => n + d.count, 0)).toBeGreaterThanOrEqual(30);
        expect(report.wrong_answer_example).not.toBeNull();
        expect(menu.result).toMatchObject({ released: true, payment_status: 1 });
        break;
      }
      case 'rank_hidden': {
        // Display flag 3 (GRADUS-RESULTS-B hides rankings): neither the rank nor the score
        // distribution (which shows the pupil their place) is sent, the rest is.
        const report = v.parse(ScoreReportSchema, sheet.body);
        expect(report.rank).toEqual({ status: 'hidden' });
        expect(report.distribution).toBeNull();
        expect(JSON.stringify(sheet.body)).not.toMatch(/"position"|"total"|"count"/);
        expect(report.result.passed).toBe(true);
        expect(report.examinee.region).toBe('SG');
        expect(report.units.every((u) => u.average_all !== null)).toBe(true);
        break;
      }
      case 'not_passed':
        expect(v.parse(ShortResultSchema, short.body)).toMatchObject({ passed: false });
        expect(menu.result.released).toBe(true);
        break;
      case 'waiting':
        expect(errorOf(short).code).toBe('RESULT_NOT_RELEASED');
        expect(menu.result.released).toBe(false);
        expect(menu.exam.status).toBe(ScheduleHistoryStatus.STATISTIC_COMPLETED);
        break;
    }
  });

  test('the journey pupils log in to an exam open now with the fee unpaid', async () => {
    await atSeedNow();
    const journey = accounts.filter((a) => a.scenario === 'journey');
    expect(journey.length).toBeGreaterThanOrEqual(8);
    for (const account of journey) {
      const { token, examinee } = await loginById(account.login_id, account.password);
      expect(examinee.is_my_page_login).toBe(true);
      const menu = v.parse(ChoosePageStatusSchema, (await get(token, '/api/get-status-choose-page')).body);
      expect(menu).toMatchObject({ exam_fee: { required: true, status: 0 }, exam: { status: ScheduleHistoryStatus.PENDING, can_take: false } });
    }
  });

  test('the cohort: 30 at English level 1 and 15 at Calculation level 1 across two organisations, ranked and averaged', async () => {
    const rows = await api.db
      .select({ code: exams.code, organizationId: examinees.organizationId, rank: results.rank, total: results.rankTotal, score: results.score, status: scheduleHistories.status })
      .from(scheduleHistories)
      .innerJoin(schedules, eq(schedules.id, scheduleHistories.scheduleId))
      .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
      .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
      .innerJoin(results, eq(results.scheduleHistoryId, scheduleHistories.id))
      .where(inArray(schedules.scheduleCode, ['RESULTS-PAST-A', 'RESULTS-PAST-B']));
    const english = rows.filter((r) => r.code === 'EN-1');
    const calculation = rows.filter((r) => r.code === 'CALC-1');
    expect(english.length).toBe(35); // 30 + the five demo pupils who sat
    expect(calculation.length).toBe(15);
    for (const group of [english, calculation]) {
      expect(new Set(group.map((r) => r.organizationId)).size).toBe(2);
      expect(new Set(group.map((r) => r.score)).size).toBeGreaterThan(4);
      for (const r of group) {
        expect(r.total).toBe(group.length);
        // Competition ranking: 1 + how many scored more.
        expect(r.rank).toBe(1 + group.filter((o) => o.score > r.score).length);
      }
    }
    const statistics = await api.db.select().from(unitStatistics).where(isNull(unitStatistics.organizationId));
    expect(statistics.length).toBeGreaterThanOrEqual(4);
    for (const s of statistics) expect(s.correctRate).toBeGreaterThan(0);
  });

  test('seeding again adds and changes nothing', async () => {
    const count = async () => (await api.db.select({ id: results.scheduleHistoryId, rank: results.rank }).from(results)).length;
    const before = await count();
    const examineeCount = (await api.db.select({ id: examinees.id }).from(examinees)).length;
    await api.db.transaction((tx) => seedResultsDemo(tx, new Date()));
    expect(await count()).toBe(before);
    expect((await api.db.select({ id: examinees.id }).from(examinees)).length).toBe(examineeCount);
    const [waiting] = await api.db
      .select({ status: scheduleHistories.status })
      .from(scheduleHistories)
      .innerJoin(examinees, and(eq(examinees.id, scheduleHistories.examineeId), eq(examinees.loginId, 'results.waiting')));
    expect(waiting!.status).toBe(ScheduleHistoryStatus.STATISTIC_COMPLETED);
  });
});
