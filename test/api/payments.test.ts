/**
 * Payments through the API with the demo provider (no Adyen key configured): the payment
 * settings of the exam fee and of the result items, checkouts (new, resumed, refused when
 * paid, never two open for one item, not even on a double click), their status, and the demo
 * outcomes authorised, refused and cancelled.
 */
import { and, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import {
  ExamPaymentSettingSchema,
  PaymentSessionSchema,
  PaymentStatusResponseSchema,
  ResultPaymentSettingSchema,
} from '../../contract/payments.ts';
import { ChoosePageStatusSchema } from '../../contract/results.ts';
import { paymentSettingsFromEnv } from '../../server/config.ts';
import type { Db } from '../../server/db/client.ts';
import { paymentItems, payments, purchases, results, scheduleHistories } from '../../server/db/schema.ts';
import { defaultSecuritySettings } from '../../server/security/settings.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const DAY = 86_400_000;
const RETURN_URL = 'https://gradus.test/pay-exam-fee';

/** A pupil who pays the exam fee online (My Page login), logged in, their sitting PENDING. */
async function feePayer(api: ApiContext) {
  const pupil = await addSitting(api.db, { isMyPageLogin: true });
  return api.loginAs(pupil.loginCode);
}

/** Moves a logged-in pupil's sitting to COMPLETED, finished `daysAgo` before the test's now, with a score. */
async function finishSitting(db: Db, scheduleHistoryId: number, daysAgo: number, passed: boolean | null) {
  const finishedAt = new Date(new Date(TEST_START).getTime() - daysAgo * DAY);
  // Scored (a results row) is SCORING_COMPLETED, as the scoring job leaves it; else COMPLETED.
  const status = passed === null ? ScheduleHistoryStatus.COMPLETED : ScheduleHistoryStatus.SCORING_COMPLETED;
  await db.update(scheduleHistories).set({ status, startedAt: finishedAt, finishedAt }).where(eq(scheduleHistories.id, scheduleHistoryId));
  if (passed !== null) {
    await db.insert(results).values({
      scheduleHistoryId,
      score: passed ? 80 : 30,
      maxScore: 100,
      correctCount: passed ? 16 : 6,
      questionCount: 20,
      passed,
      scoredAt: finishedAt,
    });
  }
}

describe.each(kinds)('payments with the demo provider on %s', (kind) => {
  // RETURN_URL is a page of this origin: no other return URL is accepted.
  const api = useApi(kind, { security: { ...defaultSecuritySettings, publicOrigin: 'https://gradus.test' } });
  const examSetting = (token: string, id: number) =>
    api.call('GET', `/api/get-setting-payment-for-exam?schedule_history_id=${id}`, { token });
  const resultSetting = (token: string, id: number) =>
    api.call('GET', `/api/get-setting-payment-for-result?schedule_history_id=${id}`, { token });
  const payExamFee = (token: string, id: number, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/api/payment/adyen/sessions/exam-fee', {
      token,
      body: { schedule_history_id: id, terms_accepted: true, return_url: RETURN_URL, ...extra },
    });
  const payResult = (token: string, id: number, items: string[]) =>
    api.call('POST', '/api/payment/adyen/sessions/result-fee', {
      token,
      body: { schedule_history_id: id, items, terms_accepted: true, return_url: 'https://gradus.test/pay-exam-result' },
    });
  const statusOf = (token: string, reference: string) =>
    api.call('GET', `/api/payment/status?reference=${encodeURIComponent(reference)}`, { token });
  const complete = (token: string, reference: string, outcome: string) =>
    api.call('POST', '/api/payment/demo/complete', { token, body: { reference, outcome } });
  const checkoutsOf = (id: number) => api.db.select().from(payments).where(eq(payments.scheduleHistoryId, id));
  const purchasesOf = (id: number) => api.db.select().from(purchases).where(eq(purchases.scheduleHistoryId, id));

  describe('payment settings', () => {
    test('the exam fee: one line in USD cents, unpaid and available, served by the demo provider', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      const response = await examSetting(token, scheduleHistoryId);
      expect(response.status).toBe(200);
      expect(v.parse(ExamPaymentSettingSchema, response.body)).toEqual({
        schedule_history_id: scheduleHistoryId,
        provider: 'demo',
        currency: 'USD',
        adyen: null,
        items: [{ kind: 'exam_fee', quantity: 1, unit_price_minor: 1500, total_minor: 1500, status: 0, available: true }],
        payment_status: 0,
        server_time: TEST_START,
      });
    });

    test('another pupil’s sitting is not found', async () => {
      const { token } = await feePayer(api);
      const other = await addSitting(api.db, { isMyPageLogin: true });
      const response = await examSetting(token, other.scheduleHistoryId);
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
      expect((await resultSetting(token, other.scheduleHistoryId)).status).toBe(404);
    });

    test('result items wait for the release, one week after the exam', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      await finishSitting(api.db, scheduleHistoryId, 6, true);
      const response = await resultSetting(token, scheduleHistoryId);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('RESULT_NOT_RELEASED');
      const buy = await payResult(token, scheduleHistoryId, ['result_sheet']);
      expect(errorOf(buy).code).toBe('RESULT_NOT_RELEASED');
      expect(await checkoutsOf(scheduleHistoryId)).toEqual([]);
    });

    test('after the release: result sheet and, for a passed result, the certificate', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      await finishSitting(api.db, scheduleHistoryId, 8, true);
      const response = await resultSetting(token, scheduleHistoryId);
      expect(response.status).toBe(200);
      const setting = v.parse(ResultPaymentSettingSchema, response.body);
      expect(setting.items).toEqual([
        { kind: 'result_sheet', quantity: 1, unit_price_minor: 500, total_minor: 500, status: 0, available: true },
        { kind: 'certificate', quantity: 1, unit_price_minor: 800, total_minor: 800, status: 0, available: true },
      ]);
      expect(setting.result_payment_status).toBe(0);
    });

    test('no certificate for a result that did not pass (NOT_PASSED), nor before it is scored', async () => {
      const failed = await feePayer(api);
      await finishSitting(api.db, failed.scheduleHistoryId, 8, false);
      const setting = v.parse(ResultPaymentSettingSchema, (await resultSetting(failed.token, failed.scheduleHistoryId)).body);
      expect(setting.items.map((l) => [l.kind, l.available])).toEqual([
        ['result_sheet', true],
        ['certificate', false],
      ]);
      const buy = await payResult(failed.token, failed.scheduleHistoryId, ['result_sheet', 'certificate']);
      expect(buy.status).toBe(403);
      expect(errorOf(buy).code).toBe('NOT_PASSED');
      expect(await checkoutsOf(failed.scheduleHistoryId)).toEqual([]);

      // Not scored yet: nothing is released, so nothing is sold (the shared availability rule).
      const unscored = await feePayer(api);
      await finishSitting(api.db, unscored.scheduleHistoryId, 8, null);
      const unscoredSetting = await resultSetting(unscored.token, unscored.scheduleHistoryId);
      expect(unscoredSetting.status).toBe(403);
      expect(errorOf(unscoredSetting).code).toBe('RESULT_NOT_RELEASED');
    });
  });

  describe('checkouts', () => {
    test('a new checkout is 201; asked again for the same item, the same open checkout is 200', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      const first = await payExamFee(token, scheduleHistoryId);
      expect(first.status).toBe(201);
      const session = v.parse(PaymentSessionSchema, first.body);
      expect(session).toEqual({
        reference: expect.stringMatching(/^GR-[0-9a-f-]{36}$/),
        provider: 'demo',
        currency: 'USD',
        amount_minor: 1500,
        // Opened, not completed: PENDING (seed section 4).
        items: [{ kind: 'exam_fee', quantity: 1, unit_price_minor: 1500, total_minor: 1500, status: 1, available: true }],
        adyen_session: null,
        expires_at: '2026-06-01T10:00:00.000Z',
        server_time: TEST_START,
      });
      api.clock.advance(10 * 60_000);
      const again = await payExamFee(token, scheduleHistoryId);
      expect(again.status).toBe(200);
      expect(v.parse(PaymentSessionSchema, again.body).reference).toBe(session.reference);
      expect(await checkoutsOf(scheduleHistoryId)).toHaveLength(1);
    });

    test('a double click (two requests at once) makes one checkout', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      const responses = await Promise.all([payExamFee(token, scheduleHistoryId), payExamFee(token, scheduleHistoryId)]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 201]);
      const [a, b] = responses.map((r) => v.parse(PaymentSessionSchema, r.body).reference);
      expect(a).toBe(b);
      expect(await checkoutsOf(scheduleHistoryId)).toHaveLength(1);
    });

    test('without the terms agreed: VALIDATION_ERROR and nothing is written', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      const before = await snapshotTables(api.db);
      for (const terms of [undefined, false]) {
        const response = await payExamFee(token, scheduleHistoryId, { terms_accepted: terms });
        expect(response.status).toBe(422);
        expect(errorOf(response)).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: 'terms_accepted' }] });
      }
      expect(await snapshotTables(api.db)).toEqual(before);
    });

    test('an exam without an online fee, or already started, sells no exam fee', async () => {
      const free = await api.loginAs((await addSitting(api.db)).loginCode);
      const response = await payExamFee(free.token, free.scheduleHistoryId);
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
      const setting = v.parse(ExamPaymentSettingSchema, (await examSetting(free.token, free.scheduleHistoryId)).body);
      expect(setting.items[0]?.available).toBe(false);

      const started = await feePayer(api);
      await api.db
        .update(scheduleHistories)
        .set({ status: ScheduleHistoryStatus.DOING })
        .where(eq(scheduleHistories.id, started.scheduleHistoryId));
      const late = await payExamFee(started.token, started.scheduleHistoryId);
      expect(errorOf(late).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
      expect(await checkoutsOf(started.scheduleHistoryId)).toEqual([]);
    });

    test('a checkout past its time is not resumed: a new one is made', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      const first = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
      api.clock.advance(61 * 60_000);
      const status = v.parse(PaymentStatusResponseSchema, (await statusOf(token, first.reference)).body);
      expect(status).toMatchObject({ status: 0, outcome: 'expired' });
      const late = await complete(token, first.reference, 'authorised');
      expect(v.parse(PaymentStatusResponseSchema, late.body)).toMatchObject({ status: 0, outcome: 'expired' });
      expect(await purchasesOf(scheduleHistoryId)).toEqual([]);
      const second = await payExamFee(token, scheduleHistoryId);
      expect(second.status).toBe(201);
      expect(v.parse(PaymentSessionSchema, second.body).reference).not.toBe(first.reference);
    });

    test('other items than the open checkout’s: the overlapping checkout expires, one open per item', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      await finishSitting(api.db, scheduleHistoryId, 8, true);
      const sheet = v.parse(PaymentSessionSchema, (await payResult(token, scheduleHistoryId, ['result_sheet'])).body);
      const both = await payResult(token, scheduleHistoryId, ['certificate', 'result_sheet']);
      expect(both.status).toBe(201);
      const session = v.parse(PaymentSessionSchema, both.body);
      expect(session.amount_minor).toBe(1300);
      expect(session.items.map((l) => l.kind).sort()).toEqual(['certificate', 'result_sheet']);
      const old = v.parse(PaymentStatusResponseSchema, (await statusOf(token, sheet.reference)).body);
      expect(old.outcome).toBe('expired');
      const open = (await checkoutsOf(scheduleHistoryId)).filter((p) => p.outcome === 'open');
      expect(open.map((p) => p.reference)).toEqual([session.reference]);
    });

    test('a checkout’s status is only its owner’s', async () => {
      const owner = await feePayer(api);
      const other = await feePayer(api);
      const session = v.parse(PaymentSessionSchema, (await payExamFee(owner.token, owner.scheduleHistoryId)).body);
      const response = await statusOf(other.token, session.reference);
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
      const demo = await complete(other.token, session.reference, 'authorised');
      expect(demo.status).toBe(404);
      // Untouched: still PENDING for its owner.
      expect((await checkoutsOf(owner.scheduleHistoryId))[0]).toMatchObject({ status: 1, outcome: 'open' });
    });
  });

  describe('an opened, unfinished checkout is PENDING (1): "payment not completed"', () => {
    const menuOf = async (token: string, id: number) =>
      v.parse(ChoosePageStatusSchema, (await api.call('GET', `/api/get-status-choose-page?schedule_history_id=${id}`, { token })).body);

    test('opening writes PENDING; the status, the settings and the testing menu read it', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      expect((await menuOf(token, scheduleHistoryId)).exam_fee).toEqual({ required: true, status: 0, application_mode: 1 });
      const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
      expect(await checkoutsOf(scheduleHistoryId)).toEqual([expect.objectContaining({ reference, status: 1, outcome: 'open' })]);
      expect(v.parse(PaymentStatusResponseSchema, (await statusOf(token, reference)).body)).toEqual({
        reference,
        status: 1,
        outcome: 'open',
        kinds: ['exam_fee'],
        server_time: TEST_START,
      });
      const setting = v.parse(ExamPaymentSettingSchema, (await examSetting(token, scheduleHistoryId)).body);
      expect(setting.payment_status).toBe(1);
      // Still payable: asked again, the same checkout is resumed, never a second charge.
      expect(setting.items[0]).toMatchObject({ status: 1, available: true });
      const menu = await menuOf(token, scheduleHistoryId);
      expect(menu.exam_fee).toEqual({ required: true, status: 1, application_mode: 1 });
      expect(menu.exam.can_take).toBe(false);
      const again = await payExamFee(token, scheduleHistoryId);
      expect(again.status).toBe(200);
      expect(v.parse(PaymentSessionSchema, again.body).reference).toBe(reference);
    });

    test('refused or cancelled: back to NOT_PAID on the menu', async () => {
      for (const outcome of ['refused', 'cancelled'] as const) {
        const { token, scheduleHistoryId } = await feePayer(api);
        const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
        await complete(token, reference, outcome);
        expect(await checkoutsOf(scheduleHistoryId)).toEqual([expect.objectContaining({ status: 0, outcome })]);
        expect((await menuOf(token, scheduleHistoryId)).exam_fee.status).toBe(0);
        expect(v.parse(ExamPaymentSettingSchema, (await examSetting(token, scheduleHistoryId)).body).payment_status).toBe(0);
      }
    });

    test('abandoned past its expiry: NOT_PAID again, and written back so when the next checkout opens', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
      api.clock.advance(61 * 60_000);
      expect((await menuOf(token, scheduleHistoryId)).exam_fee.status).toBe(0);
      expect(v.parse(ExamPaymentSettingSchema, (await examSetting(token, scheduleHistoryId)).body).items[0]).toMatchObject({
        status: 0,
        available: true,
      });
      await payExamFee(token, scheduleHistoryId);
      const rows = await checkoutsOf(scheduleHistoryId);
      expect(rows.find((p) => p.reference === reference)).toMatchObject({ status: 0, outcome: 'expired' });
      expect(rows.filter((p) => p.status === 1)).toHaveLength(1);
    });

    test('superseded by a checkout of other items: NOT_PAID; the new one is PENDING; pending is not paid', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      await finishSitting(api.db, scheduleHistoryId, 8, true);
      const sheet = v.parse(PaymentSessionSchema, (await payResult(token, scheduleHistoryId, ['result_sheet'])).body);
      const pending = v.parse(ResultPaymentSettingSchema, (await resultSetting(token, scheduleHistoryId)).body);
      expect(pending.items.map((l) => [l.kind, l.status, l.available])).toEqual([
        ['result_sheet', 1, true],
        ['certificate', 0, true],
      ]);
      expect(pending.result_payment_status).toBe(0);
      const both = v.parse(PaymentSessionSchema, (await payResult(token, scheduleHistoryId, ['result_sheet', 'certificate'])).body);
      const rows = await checkoutsOf(scheduleHistoryId);
      expect(rows.find((p) => p.reference === sheet.reference)).toMatchObject({ status: 0, outcome: 'expired' });
      expect(rows.find((p) => p.reference === both.reference)).toMatchObject({ status: 1, outcome: 'open' });
      expect(v.parse(PaymentStatusResponseSchema, (await statusOf(token, both.reference)).body).kinds).toEqual(['certificate', 'result_sheet']);
    });
  });

  test('Start before the exam fee is paid: 403 PAYMENT_REQUIRED and the exam stays PENDING; paid, it starts', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const start = () => api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: scheduleHistoryId } });
    const refused = await start();
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('PAYMENT_REQUIRED');
    const [row] = await api.db.select().from(scheduleHistories).where(eq(scheduleHistories.id, scheduleHistoryId));
    expect(row!.status).toBe(ScheduleHistoryStatus.PENDING);
    const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
    expect((await complete(token, reference, 'authorised')).status).toBe(200);
    expect((await start()).status).toBe(200);
  });

  describe('demo outcomes', () => {
    test('authorised: PAID, the fee is owned once, and it is not sold again', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
      const response = await complete(token, reference, 'authorised');
      expect(response.status).toBe(200);
      expect(v.parse(PaymentStatusResponseSchema, response.body)).toEqual({
        reference,
        status: 2,
        outcome: 'paid',
        kinds: ['exam_fee'],
        server_time: TEST_START,
      });
      // A second click changes nothing.
      expect(v.parse(PaymentStatusResponseSchema, (await complete(token, reference, 'refused')).body)).toMatchObject({ status: 2 });
      expect(v.parse(PaymentStatusResponseSchema, (await statusOf(token, reference)).body)).toMatchObject({ status: 2, outcome: 'paid' });
      expect(await purchasesOf(scheduleHistoryId)).toEqual([
        expect.objectContaining({ kind: 'exam_fee', paidAt: new Date(TEST_START) }),
      ]);
      const setting = v.parse(ExamPaymentSettingSchema, (await examSetting(token, scheduleHistoryId)).body);
      expect(setting.payment_status).toBe(2);
      expect(setting.items[0]).toMatchObject({ status: 2, available: false });
      const again = await payExamFee(token, scheduleHistoryId);
      expect(again.status).toBe(422);
      expect(errorOf(again).code).toBe('ALREADY_PAID');
      const menu = await api.call('GET', `/api/get-status-choose-page?schedule_history_id=${scheduleHistoryId}`, { token });
      expect(menu.body).toMatchObject({ exam_fee: { required: true, status: 2 } });
    });

    test('refused and cancelled: NOT_PAID with the outcome; a new checkout can follow', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      const first = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
      expect(v.parse(PaymentStatusResponseSchema, (await complete(token, first.reference, 'refused')).body)).toMatchObject({
        status: 0,
        outcome: 'refused',
      });
      const second = await payExamFee(token, scheduleHistoryId);
      expect(second.status).toBe(201);
      const { reference } = v.parse(PaymentSessionSchema, second.body);
      expect(reference).not.toBe(first.reference);
      expect(v.parse(PaymentStatusResponseSchema, (await complete(token, reference, 'cancelled')).body)).toMatchObject({
        status: 0,
        outcome: 'cancelled',
      });
      expect(await purchasesOf(scheduleHistoryId)).toEqual([]);
      const setting = v.parse(ExamPaymentSettingSchema, (await examSetting(token, scheduleHistoryId)).body);
      expect(setting.payment_status).toBe(0);
    });

    test('result items: one paid is PAID_PART, the other bought alone, then PAID_ALL; a paid item is never sold again', async () => {
      const { token, scheduleHistoryId } = await feePayer(api);
      await finishSitting(api.db, scheduleHistoryId, 8, true);
      const sheet = v.parse(PaymentSessionSchema, (await payResult(token, scheduleHistoryId, ['result_sheet'])).body);
      await complete(token, sheet.reference, 'authorised');
      expect(v.parse(ResultPaymentSettingSchema, (await resultSetting(token, scheduleHistoryId)).body).result_payment_status).toBe(2);

      const rest = await payResult(token, scheduleHistoryId, ['result_sheet', 'certificate']);
      expect(rest.status).toBe(201);
      const certificate = v.parse(PaymentSessionSchema, rest.body);
      expect(certificate.items.map((l) => l.kind)).toEqual(['certificate']);
      expect(certificate.amount_minor).toBe(800);
      expect(errorOf(await payResult(token, scheduleHistoryId, ['result_sheet'])).code).toBe('ALREADY_PAID');
      await complete(token, certificate.reference, 'authorised');
      const setting = v.parse(ResultPaymentSettingSchema, (await resultSetting(token, scheduleHistoryId)).body);
      expect(setting.result_payment_status).toBe(1);
      expect((await purchasesOf(scheduleHistoryId)).map((p) => p.kind).sort()).toEqual(['certificate', 'result_sheet']);
      const items = await api.db
        .select()
        .from(paymentItems)
        .innerJoin(payments, eq(payments.id, paymentItems.paymentId))
        .where(and(eq(payments.scheduleHistoryId, scheduleHistoryId), eq(payments.status, 2)));
      expect(items.map((r) => r.payment_items.kind).sort()).toEqual(['certificate', 'result_sheet']);
    });

    test('without Adyen there is no webhook', async () => {
      const response = await api.call('POST', '/api/payment/adyen/webhook', { body: { live: 'false', notificationItems: [] } });
      expect(response.status).toBe(404);
    });
  });
});

describe('paymentSettingsFromEnv', () => {
  test('defaults: the demo provider and the prices 1500, 500 and 800 US cents', () => {
    expect(paymentSettingsFromEnv({})).toEqual({
      prices: { exam_fee: 1500, result_sheet: 500, certificate: 800 },
      checkoutTtlMs: 3_600_000,
      adyen: undefined,
      demo: true,
    });
  });

  test('reads the prices and the Adyen credentials', () => {
    const settings = paymentSettingsFromEnv({
      EXAM_FEE_USD_CENTS: '2500',
      RESULT_SHEET_USD_CENTS: '0',
      CERTIFICATE_USD_CENTS: '999',
      ADYEN_API_KEY: 'AQE-key',
      ADYEN_CLIENT_KEY: 'live_CLIENT',
      ADYEN_MERCHANT_ACCOUNT: 'GradusECOM',
      ADYEN_HMAC_KEY: '44782DEF',
      ADYEN_ENVIRONMENT: 'live',
      ADYEN_LIVE_URL_PREFIX: '1797a841fbb37ca7-GradusECOM',
    });
    expect(settings.prices).toEqual({ exam_fee: 2500, result_sheet: 0, certificate: 999 });
    expect(settings.adyen).toEqual({
      apiKey: 'AQE-key',
      clientKey: 'live_CLIENT',
      merchantAccount: 'GradusECOM',
      hmacKey: '44782DEF',
      environment: 'live',
      liveUrlPrefix: '1797a841fbb37ca7-GradusECOM',
    });
  });

  test.each([
    [{ EXAM_FEE_USD_CENTS: '15.00' }, /EXAM_FEE_USD_CENTS/],
    [{ CERTIFICATE_USD_CENTS: '-1' }, /CERTIFICATE_USD_CENTS/],
    [{ ADYEN_API_KEY: 'AQE-key' }, /ADYEN_CLIENT_KEY, ADYEN_MERCHANT_ACCOUNT, ADYEN_HMAC_KEY/],
    [{ ADYEN_API_KEY: 'k', ADYEN_CLIENT_KEY: 'c', ADYEN_MERCHANT_ACCOUNT: 'm', ADYEN_HMAC_KEY: 'AB', ADYEN_ENVIRONMENT: 'live' }, /ADYEN_LIVE_URL_PREFIX/],
    [{ ADYEN_HMAC_KEY: 'not hex' }, /ADYEN_HMAC_KEY/],
    [{ ADYEN_ENVIRONMENT: 'prod' }, /ADYEN_ENVIRONMENT/],
  ])('refuses %o', (env, message) => {
    expect(() => paymentSettingsFromEnv(env)).toThrow(message);
  });
});
