/**
 * Payments: the payment settings of the exam fee and of the result items, checkout sessions
 * (Adyen, or the demo provider when Adyen is not configured), a checkout's status, the demo
 * provider's outcome, and Adyen's webhook (no bearer token: Adyen signs each item instead).
 */
import { Hono } from 'hono';
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
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';
import { ownOrigin } from '../security/client.ts';
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

  routes.get('/get-setting-payment-for-exam', login, async (c) => {
    const now = c.get('now');
    const query = parseWith(ResultQuerySchema, c.req.query(), 'query');
    const setting = await examPaymentSetting(payments, c.get('principal'), query.schedule_history_id, now);
    const response: ExamPaymentSetting = { ...setting, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.get('/get-setting-payment-for-result', login, async (c) => {
    const now = c.get('now');
    const query = parseWith(ResultQuerySchema, c.req.query(), 'query');
    const setting = await resultPaymentSetting(payments, c.get('principal'), query.schedule_history_id, now);
    const response: ResultPaymentSetting = { ...setting, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  const answerCheckout = (opened: OpenedCheckout, now: Date) => {
    const response: PaymentSession = { ...opened.session, server_time: now.toISOString() };
    return [response, opened.created ? 201 : 200] as const;
  };

  routes.post('/payment/adyen/sessions/exam-fee', login, async (c) => {
    const now = c.get('now');
    const body = parseWith(ExamFeeSessionRequestSchema, await readJsonBody(c));
    // The shopper comes back to our own pages only (issue 13): no javascript:, no other site.
    assertOwnReturnUrl(body.return_url, ownOrigin(c, deps.settings.security));
    const opened = await openExamFeeCheckout(
      payments,
      c.get('principal'),
      { scheduleHistoryId: body.schedule_history_id, returnUrl: body.return_url, shopperLocale: c.get('headers').acceptLanguage },
      now,
    );
    return c.json(...answerCheckout(opened, now));
  });

  routes.post('/payment/adyen/sessions/result-fee', login, async (c) => {
    const now = c.get('now');
    const body = parseWith(ResultFeeSessionRequestSchema, await readJsonBody(c));
    assertOwnReturnUrl(body.return_url, ownOrigin(c, deps.settings.security));
    const opened = await openResultFeeCheckout(
      payments,
      c.get('principal'),
      {
        scheduleHistoryId: body.schedule_history_id,
        items: body.items,
        returnUrl: body.return_url,
        shopperLocale: c.get('headers').acceptLanguage,
      },
      now,
    );
    return c.json(...answerCheckout(opened, now));
  });

  routes.get('/payment/status', login, async (c) => {
    const now = c.get('now');
    const query = parseWith(PaymentStatusQuerySchema, c.req.query(), 'query');
    const status = await paymentStatus(deps.db, c.get('principal'), query.reference, now);
    const response: PaymentStatusResponse = { ...status, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.post('/payment/demo/complete', async (c, next) => {
    // Not there at all while Adyen serves the checkouts (404 before any login check).
    if (payments.provider.name !== 'demo') throw new DomainError('NOT_FOUND', 'No such API route.');
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
