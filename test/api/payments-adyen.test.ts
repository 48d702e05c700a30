/**
 * Payments through Adyen: the real @adyen/api-library client, its HTTP client pointed at a
 * local fake of Adyen's Checkout API (test/helpers/fake-adyen.ts), and standard webhooks
 * signed here as Adyen documents it (HMAC-SHA256 with the hex-decoded key over
 * pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:eventCode:success,
 * base64). A bad signature changes nothing; a replayed event is recorded once; an item is
 * granted once even when two checkouts for it were paid.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ExamPaymentSettingSchema,
  PaymentSessionSchema,
  PaymentStatusResponseSchema,
} from '../../contract/payments.ts';
import { paymentEvents, payments, purchases } from '../../server/db/schema.ts';
import { defaultPaymentSettings } from '../../server/domain/payments/settings.ts';
import { defaultSecuritySettings } from '../../server/security/settings.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { createFakeAdyen } from '../helpers/fake-adyen.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const API_KEY = 'AQE-test-api-key';
const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const MERCHANT = 'GradusECOM';

/** One standard webhook item, signed with `key` (Adyen's documented algorithm, computed here). */
function notificationItem(
  fields: { pspReference: string; merchantReference: string; value: number; eventCode?: string; success?: boolean },
  key = HMAC_KEY,
) {
  const item = {
    amount: { currency: 'USD', value: fields.value },
    eventCode: fields.eventCode ?? 'AUTHORISATION',
    eventDate: '2026-06-01T09:05:00+02:00',
    merchantAccountCode: MERCHANT,
    merchantReference: fields.merchantReference,
    paymentMethod: 'visa',
    pspReference: fields.pspReference,
    reason: fields.success === false ? 'Refused' : '012345:1111:03/2030',
    success: fields.success === false ? 'false' : 'true',
  };
  const signed = [
    item.pspReference,
    '',
    item.merchantAccountCode,
    item.merchantReference,
    item.amount.value,
    item.amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
  const hmacSignature = createHmac('sha256', Buffer.from(key, 'hex')).update(signed, 'utf8').digest('base64');
  return { NotificationRequestItem: { additionalData: { hmacSignature }, ...item } };
}

const notification = (...items: ReturnType<typeof notificationItem>[]) => ({ live: 'false', notificationItems: items });

describe.each(kinds)('payments through Adyen on %s', (kind) => {
  const fake = createFakeAdyen(API_KEY);
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  const api = useApi(kind, {
    // The return URLs below are pages of this origin: no other return URL is accepted.
    security: { ...defaultSecuritySettings, publicOrigin: 'https://gradus.test' },
    payments: {
      ...defaultPaymentSettings,
      prices: { exam_fee: 2000, result_sheet: 600, certificate: 900 },
      adyen: {
        apiKey: API_KEY,
        clientKey: 'test_CLIENTKEY123',
        merchantAccount: MERCHANT,
        hmacKey: HMAC_KEY,
        environment: 'test',
        httpClient: fake.httpClient,
      },
    },
  });

  const feePayer = async (context: ApiContext) => context.loginAs((await addSitting(context.db, { isMyPageLogin: true })).loginCode);
  const payExamFee = (token: string, id: number) =>
    api.call('POST', '/api/payment/adyen/sessions/exam-fee', {
      token,
      headers: { 'Accept-Language': 'ja-JP,ja;q=0.9', 'X-Locale': 'ja' },
      body: { schedule_history_id: id, terms_accepted: true, return_url: `https://gradus.test/pay-exam-fee?schedule_history_id=${id}` },
    });
  const webhook = (body: unknown) => api.call('POST', '/api/payment/adyen/webhook', { body });
  const paymentRow = async (reference: string) => (await api.db.select().from(payments).where(eq(payments.reference, reference)))[0];
  const purchasesOf = (id: number) => api.db.select().from(purchases).where(eq(purchases.scheduleHistoryId, id));
  const eventsOf = (pspReference: string) => api.db.select().from(paymentEvents).where(eq(paymentEvents.pspReference, pspReference));

  test('the settings name Adyen, its client key and the configured price', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const response = await api.call('GET', `/api/get-setting-payment-for-exam?schedule_history_id=${scheduleHistoryId}`, { token });
    const setting = v.parse(ExamPaymentSettingSchema, response.body);
    expect(setting).toMatchObject({ provider: 'adyen', adyen: { client_key: 'test_CLIENTKEY123', environment: 'test' } });
    expect(setting.items[0]).toMatchObject({ kind: 'exam_fee', unit_price_minor: 2000, total_minor: 2000 });
  });

  test('a session is opened at Adyen with our reference, the amount in cents and the shopper’s locale; resumed, not reopened', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const before = fake.requests.length;
    const response = await payExamFee(token, scheduleHistoryId);
    expect(response.status).toBe(201);
    const session = v.parse(PaymentSessionSchema, response.body);
    expect(session.provider).toBe('adyen');
    expect(session.amount_minor).toBe(2000);
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toMatch(/^\/v\d+\/sessions$/);
    expect(sent[0]!.headers['x-api-key']).toBe(API_KEY);
    expect(sent[0]!.headers['idempotency-key']).toBe(session.reference);
    expect(sent[0]!.body).toMatchObject({
      merchantAccount: MERCHANT,
      amount: { currency: 'USD', value: 2000 },
      reference: session.reference,
      // The shopper comes back to the payment screen with our reference: it confirms this checkout (Adyen adds sessionId and redirectResult).
      returnUrl: `https://gradus.test/pay-exam-fee?schedule_history_id=${scheduleHistoryId}&reference=${session.reference}`,
      shopperLocale: 'ja-JP',
      expiresAt: '2026-06-01T10:00:00.000Z',
      lineItems: [{ id: 'exam_fee', quantity: 1, amountIncludingTax: 2000, description: 'Exam fee' }],
    });
    expect(session.adyen_session).toEqual({ id: expect.stringMatching(/^CS[0-9A-F]{16}$/), session_data: expect.stringMatching(/^Ab02b4c0!/) });

    const again = await payExamFee(token, scheduleHistoryId);
    expect(again.status).toBe(200);
    expect(v.parse(PaymentSessionSchema, again.body).adyen_session).toEqual(session.adyen_session);
    expect(fake.requests.length - before).toBe(1);
  });

  test('a double click while Adyen is slow: one session at Adyen, one checkout, every click gets it', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const before = fake.requests.length;
    // The first request is still waiting for Adyen when the others arrive.
    fake.setLatency(300);
    try {
      const responses = await Promise.all([1, 2, 3].map(() => payExamFee(token, scheduleHistoryId)));
      expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 201]);
      expect(new Set(responses.map((r) => v.parse(PaymentSessionSchema, r.body).reference)).size).toBe(1);
    } finally {
      fake.setLatency(0);
    }
    expect(fake.requests.length - before).toBe(1);
    expect(await api.db.select().from(payments).where(eq(payments.scheduleHistoryId, scheduleHistoryId))).toHaveLength(1);
  });

  test('Adyen refusing the session: PAYMENT_ERROR and no checkout', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    fake.refuseNext(422, '14_030', 'Return URL is missing.');
    const response = await payExamFee(token, scheduleHistoryId);
    expect(response.status).toBe(422);
    expect(errorOf(response).code).toBe('PAYMENT_ERROR');
    expect(await api.db.select().from(payments).where(eq(payments.scheduleHistoryId, scheduleHistoryId))).toEqual([]);
  });

  test('a signed AUTHORISATION makes the checkout PAID and the fee owned; a replay changes nothing', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
    const body = notification(notificationItem({ pspReference: 'PSP0000000000001', merchantReference: reference, value: 2000 }));
    const response = await webhook(body);
    expect(response.status).toBe(200);
    expect(response.body).toBe('[accepted]');
    expect(await paymentRow(reference)).toMatchObject({ status: 2, outcome: 'authorised', pspReference: 'PSP0000000000001' });
    expect(await purchasesOf(scheduleHistoryId)).toHaveLength(1);
    const status = v.parse(PaymentStatusResponseSchema, (await api.call('GET', `/api/payment/status?reference=${reference}`, { token })).body);
    expect(status).toMatchObject({ status: 2, outcome: 'paid' });

    const replay = await webhook(body);
    expect(replay.body).toBe('[accepted]');
    expect(await eventsOf('PSP0000000000001')).toHaveLength(1);
    expect(await purchasesOf(scheduleHistoryId)).toHaveLength(1);
  });

  test('a bad signature is refused and changes nothing', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
    const before = await snapshotTables(api.db);
    const wrongKey = 'A'.repeat(64);
    const forged = notificationItem({ pspReference: 'PSP0000000000002', merchantReference: reference, value: 2000 }, wrongKey);
    const good = notificationItem({ pspReference: 'PSP0000000000003', merchantReference: reference, value: 2000 });
    const tampered = notificationItem({ pspReference: 'PSP0000000000004', merchantReference: reference, value: 2000 });
    tampered.NotificationRequestItem.amount.value = 1;
    const unsigned = notificationItem({ pspReference: 'PSP0000000000005', merchantReference: reference, value: 2000 });
    unsigned.NotificationRequestItem.additionalData = { hmacSignature: '' };
    for (const body of [notification(forged), notification(good, forged), notification(tampered), notification(unsigned)]) {
      const response = await webhook(body);
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('INVALID_SIGNATURE');
    }
    expect(await snapshotTables(api.db)).toEqual(before);
  });

  test('a failed AUTHORISATION marks the checkout refused', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
    const response = await webhook(
      notification(notificationItem({ pspReference: 'PSP0000000000006', merchantReference: reference, value: 2000, success: false })),
    );
    expect(response.body).toBe('[accepted]');
    const status = v.parse(PaymentStatusResponseSchema, (await api.call('GET', `/api/payment/status?reference=${reference}`, { token })).body);
    expect(status).toMatchObject({ status: 0, outcome: 'refused' });
    expect(await purchasesOf(scheduleHistoryId)).toEqual([]);
  });

  test('two checkouts both paid: the item is granted once, the second kept with its psp reference for a refund', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const first = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
    api.clock.advance(61 * 60_000); // the first checkout expires; the pupil opens another
    const second = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
    expect(second.reference).not.toBe(first.reference);
    await webhook(notification(notificationItem({ pspReference: 'PSP0000000000007', merchantReference: second.reference, value: 2000 })));
    // The first one's shopper had paid too, just late.
    const late = await webhook(notification(notificationItem({ pspReference: 'PSP0000000000008', merchantReference: first.reference, value: 2000 })));
    expect(late.body).toBe('[accepted]');
    const owned = await purchasesOf(scheduleHistoryId);
    expect(owned).toHaveLength(1);
    expect(owned[0]!.paymentId).toBe((await paymentRow(second.reference))!.id);
    expect(await paymentRow(first.reference)).toMatchObject({ status: 2, pspReference: 'PSP0000000000008' });
    expect(api.logLines.some((line) => line.includes(first.reference) && line.includes('refund'))).toBe(true);
  });

  test('an authorisation of another amount grants nothing', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
    const response = await webhook(notification(notificationItem({ pspReference: 'PSP0000000000009', merchantReference: reference, value: 1 })));
    expect(response.body).toBe('[accepted]');
    expect(await purchasesOf(scheduleHistoryId)).toEqual([]);
    expect(await paymentRow(reference)).toMatchObject({ status: 0, outcome: 'error' });
  });

  test('the demo provider is not there while Adyen is', async () => {
    const { token, scheduleHistoryId } = await feePayer(api);
    const { reference } = v.parse(PaymentSessionSchema, (await payExamFee(token, scheduleHistoryId)).body);
    const response = await api.call('POST', '/api/payment/demo/complete', { token, body: { reference, outcome: 'authorised' } });
    expect(response.status).toBe(404);
    expect(await purchasesOf(scheduleHistoryId)).toEqual([]);
  });
});

describe.each(kinds)('the Adyen webhook during maintenance on %s', (kind) => {
  const api = useApi(kind, {
    maintenance: true,
    payments: {
      ...defaultPaymentSettings,
      adyen: { apiKey: API_KEY, clientKey: 'test_CLIENTKEY123', merchantAccount: MERCHANT, hmacKey: HMAC_KEY, environment: 'test' },
    },
  });

  test('is still accepted (other calls are refused)', async () => {
    const event = notificationItem({ pspReference: 'PSP0000000000010', merchantReference: 'GR-unknown-reference', value: 2000 });
    const response = await api.call('POST', '/api/payment/adyen/webhook', { body: notification(event) });
    expect(response.status).toBe(200);
    expect(response.body).toBe('[accepted]');
    expect(await api.db.select().from(paymentEvents).where(eq(paymentEvents.pspReference, 'PSP0000000000010'))).toHaveLength(1);
    const other = await api.call('GET', '/api/get-setting-payment-for-exam?schedule_history_id=1');
    expect(errorOf(other).code).toBe('DURING_MAINTENANCE');
  });
});
