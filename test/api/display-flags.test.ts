/**
 * The seed's section 3 enumerations "Display flags: 1 display, 3 hide" and "Personal or group
 * mode: 1, 2", through the API on PGlite and PostgreSQL:
 * - an organisation's rank display flag: with 3 the score report (screen and PDF alike: both read
 *   GET /api/score-report/results) is sent without the rank, neither position nor total, and
 *   without the level's score distribution (its chart would show the pupil their place); with 1
 *   (the default) both are sent;
 * - a test period's application mode: in group mode (2) the school applied and settled the exam
 *   fee, so a pupil who pays online is not asked for it (the menu, the exam-fee checkout and
 *   Start); in personal mode (1, the default) the same pupil must pay before Start.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ApplicationMode, DisplayFlag } from '../../contract/enums.ts';
import { ExamPaymentSettingSchema } from '../../contract/payments.ts';
import { ChoosePageStatusSchema, ScoreReportSchema } from '../../contract/results.ts';
import { LoginResponseSchema } from '../../contract/session.ts';
import { RESULT_RELEASE_MS } from '../../machines/schedule-history/schedule-history.machine.ts';
import { organizations, schedules } from '../../server/db/schema.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting, buyItems, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const DAY = 86_400_000;

describe.each(kinds)('display flags and group mode on %s', (kind) => {
  const api = useApi(kind);
  const menu = async (token: string) => v.parse(ChoosePageStatusSchema, (await api.call('GET', '/api/get-status-choose-page', { token })).body);

  describe('rank display flag (1 display, 3 hide)', () => {
    /**
     * A my-page pupil of a new organisation with this flag, in a test period that closes the day
     * after the test starts (so the statistics job ranks its cohort), finished, released a week
     * later, result sheet bought: their score report.
     */
    async function reportWithFlag(flag: number) {
      const pupil = await addSitting(api.db, {
        isMyPageLogin: true,
        organization: {},
        schedule: { startsAt: '2026-01-01T00:00:00Z', endsAt: new Date(Date.parse(TEST_START) + DAY).toISOString() },
      });
      await api.db.update(organizations).set({ rankDisplayFlag: flag }).where(eq(organizations.id, pupil.organizationId));
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      expect((await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
      const { finishedAt } = await historyRow(api.db, scheduleHistoryId);
      api.clock.set(new Date(finishedAt!.getTime() + RESULT_RELEASE_MS + 1000));
      await runDueJobs(api.db, api.clock);
      await buyItems(api.db, scheduleHistoryId, ['result_sheet'], api.clock.now());
      const again = await api.loginAs(pupil.loginCode);
      const response = await api.call('GET', `/api/score-report/results?schedule_history_id=${scheduleHistoryId}`, { token: again.token });
      expect(response.status).toBe(200);
      return { body: response.body, report: v.parse(ScoreReportSchema, response.body) };
    }

    test('1 (the default): the rank at the level and the score distribution are sent', async () => {
      const { report } = await reportWithFlag(DisplayFlag.DISPLAY);
      expect(report.rank.status).toBe('complete');
      if (report.rank.status === 'complete') {
        expect(report.rank.position).toBeGreaterThanOrEqual(1);
        expect(report.rank.total).toBeGreaterThanOrEqual(report.rank.position);
      }
      expect(report.distribution?.length).toBeGreaterThan(1);
      expect(report.distribution?.find((d) => d.score === report.result.score)?.count).toBeGreaterThanOrEqual(1);
    });

    test('3: the score report is sent without the rank and without the score distribution; everything else is there', async () => {
      const { body, report } = await reportWithFlag(DisplayFlag.HIDE);
      expect(report.rank).toEqual({ status: 'hidden' });
      // Not hidden by the client: neither the position, the total nor how many scored what leaves the server.
      expect((body as { rank: unknown }).rank).toEqual({ status: 'hidden' });
      expect((body as { distribution: unknown }).distribution).toBeNull();
      expect(JSON.stringify(body)).not.toMatch(/"count"/);
      expect(report.result.score).toBe(0);
      expect(report.units.length).toBeGreaterThan(0);
    });

    test('a new organisation displays rankings unless told otherwise; other flags are refused by the database', async () => {
      const pupil = await addSitting(api.db, { organization: {} });
      const [row] = await api.db.select({ flag: organizations.rankDisplayFlag }).from(organizations).where(eq(organizations.id, pupil.organizationId));
      expect(row?.flag).toBe(DisplayFlag.DISPLAY);
      await expect(api.db.update(organizations).set({ rankDisplayFlag: 2 }).where(eq(organizations.id, pupil.organizationId))).rejects.toThrow();
    });
  });

  describe('personal or group mode (1 personal, 2 group)', () => {
    /** A pupil of a foreign-payment organisation (pays online) in a test period of this mode. */
    async function foreignPupil(mode: number) {
      const pupil = await addSitting(api.db, { organization: { foreignPaymentMethod: true, category: 'FOREIGN' } });
      await api.db.update(schedules).set({ applicationMode: mode }).where(eq(schedules.id, pupil.scheduleId));
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      return { pupil, token, scheduleHistoryId };
    }
    const start = (token: string, id: number) => api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: id } });

    test('personal (the default): the fee is asked for; Start is refused until it is paid', async () => {
      const { token, scheduleHistoryId } = await foreignPupil(ApplicationMode.PERSONAL);
      expect(await menu(token)).toMatchObject({
        exam_fee: { required: true, status: 0, application_mode: ApplicationMode.PERSONAL },
        exam: { can_take: false },
      });
      expect(errorOf(await start(token, scheduleHistoryId)).code).toBe('PAYMENT_REQUIRED');
    });

    test('group: the school paid; the menu asks nothing, the fee is not for sale, Start goes ahead unpaid', async () => {
      const { pupil, token, scheduleHistoryId } = await foreignPupil(ApplicationMode.GROUP);
      expect(await menu(token)).toMatchObject({
        exam_fee: { required: false, status: 0, application_mode: ApplicationMode.GROUP },
        exam: { schedule_history_id: scheduleHistoryId, can_take: true },
      });
      const setting = v.parse(
        ExamPaymentSettingSchema,
        (await api.call('GET', `/api/get-setting-payment-for-exam?schedule_history_id=${scheduleHistoryId}`, { token })).body,
      );
      expect(setting.items).toMatchObject([{ kind: 'exam_fee', available: false }]);
      const checkout = await api.call('POST', '/api/payment/adyen/sessions/exam-fee', {
        token,
        body: { schedule_history_id: scheduleHistoryId, terms_accepted: true, return_url: 'http://localhost/pay-exam-fee' },
      });
      expect(errorOf(checkout).code).toBe('NOT_FOUND');
      expect((await start(token, scheduleHistoryId)).status).toBe(200);
      // Results stay the pupil's to buy: after the exam they log in again for them.
      expect((await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
      const back = await api.loginAs(pupil.loginCode);
      expect(back.scheduleHistoryId).toBe(scheduleHistoryId);
    });

    test('the demo: chidi.eze (ABROAD-GROUP, applied for by the school) is not asked for the fee', async () => {
      const account = loadDemoAccounts().find((a) => a.scenario === 'group-mode')!;
      api.clock.set(new Date()); // the demo test periods are real dates
      const login = await api.call('POST', '/api/login', {
        body: { login_type: 1, login_id: account.login_id, password: account.password, org_code: account.org_code, schedule_code: account.schedule_code },
      });
      const { access_token: token } = v.parse(LoginResponseSchema, login.body);
      expect(await menu(token)).toMatchObject({
        exam_fee: { required: false, application_mode: ApplicationMode.GROUP },
        exam: { can_take: true },
      });
    });

    test('a new test period is personal unless told otherwise; other modes are refused by the database', async () => {
      const pupil = await addSitting(api.db, { organization: {} });
      const [row] = await api.db.select({ mode: schedules.applicationMode }).from(schedules).where(eq(schedules.id, pupil.scheduleId));
      expect(row?.mode).toBe(ApplicationMode.PERSONAL);
      await expect(api.db.update(schedules).set({ applicationMode: 3 }).where(eq(schedules.id, pupil.scheduleId))).rejects.toThrow();
    });
  });
});
