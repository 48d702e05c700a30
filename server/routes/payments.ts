/**
 * Payments: the payment settings of the exam fee and of the result items, checkout sessions
 * (Adyen, or the demo provider where the demo is; else none and PAYMENT_UNAVAILABLE), a checkout's status, the demo
 * provider's outcome, and Adyen's webhook (no bearer token: Adyen signs each item instead).
 */
import { Hono, type Context } from 'hono';
import type * as v from 'valibot';
import {
  DemoPaymentCompleteRequestSchema,
  ExamFeeSessionRequestSchema,
  PaymentStatusQuerySchema,
  ResultFeeSessionRequestSchema,
  type ExamPaymentSetting,
  type PaymentSession,
  type PaymentStatusResponse,
  type ResultPaymentSetting,
} from '../../contract/payments.ts';
import { ResultQuerySchema } from '../../contract/results.ts';
import { DomainError } from '../domain/errors.ts';
import {
  completeDemoPayment,
  examPaymentSetting,
  openExamFeeCheckout,
  openResultFeeCheckout,
  paymentStatus,
  resultPaymentSetting,
  type OpenedCheckout,
  type PaymentDeps,
} from '../domain/payments/checkout.ts';
import { providerFor } from '../domain/payments/provider.ts';
import { AdyenNotificationSchema, handleAdyenNotification } from '../domain/payments/webhook.ts';
import type { Principal } from '../domain/tokens.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { sittingRead } from '../http/sitting-read.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';
import { assertOwnReturnUrl } from '../security/return-url.ts';

/** The webhook's path under /api: exempt from bearer login and from maintenance refusals. */
export const ADYEN_WEBHOOK_PATH = '/payment/adyen/webhook';

export function paymentRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const login = requireLogin(deps);
  const payments: PaymentDeps = {
    db: deps.db,
    settings: deps.settings.payments,
    provider: providerFor(deps.settings.payments),
    logger: deps.logger,
  };

  routes.get(
    '/get-setting-payment-for-exam',
    login,
    sittingRead(ResultQuerySchema, (principal, id, now): Promise<Omit<ExamPaymentSetting, 'server_time'>> =>
      examPaymentSetting(payments, principal, id, now),
    ),
  );

  routes.get(
    '/get-setting-payment-for-result',
    login,
    sittingRead(ResultQuerySchema, (principal, id, now): Promise<Omit<ResultPaymentSetting, 'server_time'>> =>
      resultPaymentSetting(payments, principal, id, now),
    ),
  );

  /**
   * A checkout of the caller's sitting: 201 when opened now, 200 when the open one is answered
   * again. The shopper comes back to our own pages only: no javascript:, no other site.
   */
  const checkout =
    <B extends { schedule_history_id: number; return_url: string }>(
      schema: v.GenericSchema<unknown, B>,
      open: (principal: Principal, request: { body: B; returnUrl: string; shopperLocale: string | undefined }, now: Date) => Promise<OpenedCheckout>,
    ) =>
    async (c: Context<AppEnv>) => {
      const now = c.get('now');
      const body = parseWith(schema, await readJsonBody(c));
      assertOwnReturnUrl(body.return_url, deps.settings.security.publicOrigin);
      const opened = await open(c.get('principal'), { body, returnUrl: body.return_url, shopperLocale: c.get('headers').acceptLanguage }, now);
      const response: PaymentSession = { ...opened.session, server_time: now.toISOString() };
      return c.json(response, opened.created ? 201 : 200);
    };

  routes.post(
    '/payment/adyen/sessions/exam-fee',
    login,
    checkout(ExamFeeSessionRequestSchema, (principal, { body, ...request }, now) =>
      openExamFeeCheckout(payments, principal, { scheduleHistoryId: body.schedule_history_id, ...request }, now),
    ),
  );

  routes.post(
    '/payment/adyen/sessions/result-fee',
    login,
    checkout(ResultFeeSessionRequestSchema, (principal, { body, ...request }, now) =>
      openResultFeeCheckout(payments, principal, { scheduleHistoryId: body.schedule_history_id, items: body.items, ...request }, now),
    ),
  );

  routes.get('/payment/status', login, async (c) => {
    const now = c.get('now');
    const query = parseWith(PaymentStatusQuerySchema, c.req.query(), 'query');
    const status = await paymentStatus(deps.db, c.get('principal'), query.reference, now);
    const response: PaymentStatusResponse = { ...status, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.post('/payment/demo/complete', async (c, next) => {
    // Not there at all while Adyen serves the checkouts (404 before any login check).
    if (payments.provider?.name !== 'demo') throw new DomainError('NOT_FOUND', 'No such API route.');
    return login(c, next);
  });
  routes.post('/payment/demo/complete', async (c) => {
    const now = c.get('now');
    const body = parseWith(DemoPaymentCompleteRequestSchema, await readJsonBody(c));
    const status = await completeDemoPayment(payments, c.get('principal'), body, now);
    const response: PaymentStatusResponse = { ...status, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.post(ADYEN_WEBHOOK_PATH, async (c) => {
    const adyen = deps.settings.payments.adyen;
    if (!adyen) throw new DomainError('NOT_FOUND', 'No such API route.');
    const notification = parseWith(AdyenNotificationSchema, await readJsonBody(c));
    await handleAdyenNotification(deps.db, adyen, notification, c.get('now'), deps.logger);
    return c.text('[accepted]', 200);
  });

  return routes;
}
