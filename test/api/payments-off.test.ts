/**
 * A deployment without a payment provider (no Adyen key, and not the demo): nothing can be paid
 * online, so nothing is ever "paid" without money. On PGlite and PostgreSQL:
 * - the payment settings still say what is owned, with provider null;
 * - a checkout of anything still to pay is refused with PAYMENT_UNAVAILABLE and writes nothing;
 *   Start stays refused until the fee is paid, a result sheet stays unbought;
 * - the demo provider's outcome route is not there;
 * - a group-mode test period (the school paid) works as before: no fee asked, Start goes ahead;
 * - what was bought before stays owned, and is readable.
 * And the rule that picks the provider from the environment (paymentSettingsFromEnv, providerFor).
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ApplicationMode, ScheduleHistoryStatus } from '../../contract/enums.ts';
import { ChoosePageStatusSchema } from '../../contract/results.ts';
import { ExamPaymentSettingSchema, ResultPaymentSettingSchema } from '../../contract/payments.ts';
import { paymentSettingsFromEnv } from '../../server/config.ts';
import type { Db } from '../../server/db/client.ts';
import { results, scheduleHistories, schedules } from '../../server/db/schema.ts';
import { providerFor } from '../../server/domain/payments/provider.ts';
import { defaultPaymentSettings } from '../../server/domain/payments/settings.ts';
import { defaultSecuritySettings } from '../../server/security/settings.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting, buyItems, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const DAY = 86_400_000;
const ORIGIN = 'https://gradus.test';

/** The sitting finished `daysAgo` before the test's now, scored and passed. */
async function finishPassed(db: Db, scheduleHistoryId: number, daysAgo: number) {
  const finishedAt = new Date(new Date(TEST_START).getTime() - daysAgo * DAY);
  await db
    .update(scheduleHistories)
    .set({ status: ScheduleHistoryStatus.SCORING_COMPLETED, startedAt: finishedAt, finishedAt })
    .where(eq(scheduleHistories.id, scheduleHistoryId));
  await db.insert(results).values({ scheduleHistoryId, score: 80, maxScore: 100, correctCount: 16, questionCount: 20, passed: true, scoredAt: finishedAt });
}

describe.each(kinds)('payments without a provider on %s', (kind) => {
  const api = useApi(kind, {
    payments: { ...defaultPaymentSettings, demo: false },
    security: { ...defaultSecuritySettings, publicOrigin: ORIGIN },
  });
  const examSetting = (token: string, id: number) => api.call('GET', `/api/get-setting-payment-for-exam?schedule_history_id=${id}`, { token });
  const resultSetting = (token: string, id: number) => api.call('GET', `/api/get-setting-payment-for-result?schedule_history_id=${id}`, { token });
  const payExamFee = (token: string, id: number) =>
    api.call('POST', '/api/payment/adyen/sessions/exam-fee', {
      token,
      body: { schedule_history_id: id, terms_accepted: true, return_url: `${ORIGIN}/pay-exam-fee` },
    });
  const payResult = (token: string, id: number, items: string[]) =>
    api.call('POST', '/api/payment/adyen/sessions/result-fee', {
      token,
      body: { schedule_history_id: id, items, terms_accepted: true, return_url: `${ORIGIN}/pay-exam-result` },
    });
  const start = (token: string, id: number) => api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: id } });
  const feePayer = async () => api.loginAs((await addSitting(api.db, { isMyPageLogin: true })).loginCode);

  test('the exam fee: the setting says it is unpaid, with no provider; its checkout is refused and writes nothing; Start stays refused', async () => {
    const { token, scheduleHistoryId } = await feePayer();
    const setting = v.parse(ExamPaymentSettingSchema, (await examSetting(token, scheduleHistoryId)).body);
    expect(setting).toMatchObject({ provider: null, adyen: null, payment_status: 0, items: [{ kind: 'exam_fee', status: 0 }] });

    const before = await snapshotTables(api.db);
    const refused = await payExamFee(token, scheduleHistoryId);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('PAYMENT_UNAVAILABLE');
    expect(await snapshotTables(api.db)).toEqual(before);

    expect(errorOf(await start(token, scheduleHistoryId)).code).toBe('PAYMENT_REQUIRED');
  });

  test('result items: owned nothing, provider null; buying them is refused; the score report stays unpaid', async () => {
    const { token, scheduleHistoryId } = await feePayer();
    await finishPassed(api.db, scheduleHistoryId, 8);
    const setting = v.parse(ResultPaymentSettingSchema, (await resultSetting(token, scheduleHistoryId)).body);
    expect(setting).toMatchObject({ provider: null, result_payment_status: 0 });

    const before = await snapshotTables(api.db);
    const refused = await payResult(token, scheduleHistoryId, ['result_sheet', 'certificate']);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('PAYMENT_UNAVAILABLE');
    expect(await snapshotTables(api.db)).toEqual(before);
    expect(errorOf(await api.call('GET', `/api/score-report/results?schedule_history_id=${scheduleHistoryId}`, { token })).code).toBe(
      'PAYMENT_REQUIRED',
    );
  });

  test('what was bought before stays owned: the setting says PAID, the report is readable, it is not sold again', async () => {
    const { token, scheduleHistoryId } = await feePayer();
    await finishPassed(api.db, scheduleHistoryId, 8);
    await buyItems(api.db, scheduleHistoryId, ['result_sheet'], new Date(TEST_START));
    const setting = v.parse(ResultPaymentSettingSchema, (await resultSetting(token, scheduleHistoryId)).body);
    expect(setting.items.find((i) => i.kind === 'result_sheet')?.status).toBe(2);
    expect((await api.call('GET', `/api/score-report/results?schedule_history_id=${scheduleHistoryId}`, { token })).status).toBe(200);
    expect(errorOf(await payResult(token, scheduleHistoryId, ['result_sheet'])).code).toBe('ALREADY_PAID');
    expect(errorOf(await payResult(token, scheduleHistoryId, ['certificate'])).code).toBe('PAYMENT_UNAVAILABLE');
  });

  test('group mode (the school paid): no fee asked, none for sale, Start goes ahead', async () => {
    const pupil = await addSitting(api.db, { organization: { foreignPaymentMethod: true, category: 'FOREIGN' } });
    await api.db.update(schedules).set({ applicationMode: ApplicationMode.GROUP }).where(eq(schedules.id, pupil.scheduleId));
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
    const menu = v.parse(ChoosePageStatusSchema, (await api.call('GET', '/api/get-status-choose-page', { token })).body);
    expect(menu).toMatchObject({ exam_fee: { required: false }, exam: { can_take: true } });
    expect(errorOf(await payExamFee(token, scheduleHistoryId)).code).toBe('NOT_FOUND');
    expect((await start(token, scheduleHistoryId)).status).toBe(200);
  });

  test('the demo provider’s outcome and Adyen’s webhook are not there', async () => {
    const { token } = await feePayer();
    const demo = await api.call('POST', '/api/payment/demo/complete', { token, body: { reference: 'GR-x', outcome: 'authorised' } });
    expect(demo.status).toBe(404);
    expect((await api.call('POST', '/api/payment/adyen/webhook', { body: { live: 'false', notificationItems: [] } })).status).toBe(404);
  });
});

describe('the payment provider from the environment', () => {
  const adyen = { ADYEN_API_KEY: 'k', ADYEN_CLIENT_KEY: 'c', ADYEN_MERCHANT_ACCOUNT: 'm', ADYEN_HMAC_KEY: 'AB' };
  const providerOf = (env: Record<string, string>) => providerFor(paymentSettingsFromEnv(env))?.name ?? null;

  test('the demo (no DATABASE_URL, or GRADUS_DEMO=on): the demo provider', () => {
    expect(providerOf({})).toBe('demo');
    expect(providerOf({ DATABASE_URL: 'postgres://db/gradus', GRADUS_DEMO: 'on' })).toBe('demo');
  });

  test('a deployment (DATABASE_URL, or GRADUS_DEMO=off) without Adyen: none', () => {
    expect(providerOf({ DATABASE_URL: 'postgres://db/gradus' })).toBeNull();
    expect(providerOf({ GRADUS_DEMO: 'off' })).toBeNull();
  });

  test('Adyen whenever ADYEN_API_KEY is set, the demo or not', () => {
    expect(providerOf({ DATABASE_URL: 'postgres://db/gradus', ...adyen })).toBe('adyen');
    expect(providerOf(adyen)).toBe('adyen');
  });

  test('a bad GRADUS_DEMO stops the start', () => {
    expect(() => paymentSettingsFromEnv({ GRADUS_DEMO: 'yes' })).toThrow(/GRADUS_DEMO must be on or off/);
  });
});
