/**
 * Payments: items, prices, Adyen and demo checkout sessions, payment statuses (seed sections 1, 3, 4).
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';
import { isoTimestamp, serverTime } from './common.ts';
import { numericQuery } from './session.ts';

/** Payment status (seed section 4): PENDING is a checkout opened and not completed. */
export const PaymentStatus = { NOT_PAID: 0, PENDING: 1, PAID: 2 } as const;

export const PaymentStatusSchema = v.picklist([PaymentStatus.NOT_PAID, PaymentStatus.PENDING, PaymentStatus.PAID]);

/** Result payment status (seed section 4): both result items paid, one of them, or none. */
export const ResultPaymentStatus = { NOT_PAID: 0, PAID_ALL: 1, PAID_PART: 2 } as const;

export const ResultPaymentStatusSchema = v.picklist([ResultPaymentStatus.NOT_PAID, ResultPaymentStatus.PAID_ALL, ResultPaymentStatus.PAID_PART]);

/** Payment items (seed section 3). */
export const PaymentKindSchema = v.picklist(['exam_fee', 'result_sheet', 'certificate']);

export type PaymentKind = v.InferOutput<typeof PaymentKindSchema>;

/** The items bought after the exam (seed section 3): the result sheet and the certificate. */
export const ResultItemKindSchema = v.picklist(['result_sheet', 'certificate']);

export type ResultItemKind = v.InferOutput<typeof ResultItemKindSchema>;

/** Which payment provider serves the checkout: Adyen, or the clearly labelled demo provider. */
export const PaymentProviderSchema = v.picklist(['adyen', 'demo']);

export type PaymentProvider = v.InferOutput<typeof PaymentProviderSchema>;

/** One line of a payment: quantity, unit price and total in USD minor units (seed section 3). */
export const PaymentLineSchema = v.object({
  kind: PaymentKindSchema,
  quantity: v.number(),
  unit_price_minor: v.number(),
  total_minor: v.number(),
  /** NOT_PAID 0, PENDING 1, PAID 2 for this item. */
  status: PaymentStatusSchema,
  /** The item can be bought now (a certificate only for a passed result). */
  available: v.boolean(),
});

export type PaymentLine = v.InferOutput<typeof PaymentLineSchema>;

/** What the browser needs to open the provider's checkout; null for the demo provider. */
export const AdyenClientSettingsSchema = v.object({
  client_key: v.string(),
  environment: v.picklist(['test', 'live']),
});

const paymentSettingCommon = {
  schedule_history_id: v.number(),
  /** Null: no payment provider on this server; what is owned still shows, a checkout is refused (PAYMENT_UNAVAILABLE). */
  provider: v.nullable(PaymentProviderSchema),
  currency: v.literal('USD'),
  adyen: v.nullable(AdyenClientSettingsSchema),
  ...serverTime,
};

/** GET /get-setting-payment-for-exam?schedule_history_id= */
export const ExamPaymentSettingSchema = v.object({
  ...paymentSettingCommon,
  items: v.array(PaymentLineSchema),
  /** NOT_PAID 0, PENDING 1, PAID 2 (seed section 4). */
  payment_status: PaymentStatusSchema,
});

export type ExamPaymentSetting = v.InferOutput<typeof ExamPaymentSettingSchema>;

/** GET /get-setting-payment-for-result?schedule_history_id= */
export const ResultPaymentSettingSchema = v.object({
  ...paymentSettingCommon,
  items: v.array(PaymentLineSchema),
  /** NOT_PAID 0, PAID_ALL 1, PAID_PART 2 (seed section 4). */
  result_payment_status: ResultPaymentStatusSchema,
});

export type ResultPaymentSetting = v.InferOutput<typeof ResultPaymentSettingSchema>;

/** Terms must be read and agreed before paying (seed section 5): the server checks it too. */
const TermsAcceptedSchema = v.literal(true, 'required');

/**
 * Where Adyen sends the shopper back after a redirect payment method (our own origin). The
 * server adds `reference` (the checkout) to it; Adyen adds `sessionId` and `redirectResult`.
 */
const ReturnUrlSchema = v.pipe(v.string(), v.url('invalid'), v.maxLength(1000, 'invalid'));

/** POST /payment/adyen/sessions/exam-fee */
export const ExamFeeSessionRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  terms_accepted: TermsAcceptedSchema,
  return_url: ReturnUrlSchema,
});

export type ExamFeeSessionRequest = v.InferInput<typeof ExamFeeSessionRequestSchema>;

/** POST /payment/adyen/sessions/result-fee: the items the user ticked (at least one, each once). */
export const ResultFeeSessionRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  items: v.pipe(
    v.array(ResultItemKindSchema),
    v.minLength(1, 'required'),
    v.check((items) => new Set(items).size === items.length, 'invalid'),
  ),
  terms_accepted: TermsAcceptedSchema,
  return_url: ReturnUrlSchema,
});

export type ResultFeeSessionRequest = v.InferInput<typeof ResultFeeSessionRequestSchema>;

/**
 * The checkout both session calls answer (201 new, 200 when an open checkout for the same items
 * is resumed: two tabs or a double click share one checkout and one charge).
 */
export const PaymentSessionSchema = v.object({
  /** Our merchant reference: the key of GET /payment/status and of the demo provider. */
  reference: v.string(),
  provider: PaymentProviderSchema,
  currency: v.literal('USD'),
  amount_minor: v.number(),
  items: v.array(PaymentLineSchema),
  /** Adyen Drop-in's session (id and sessionData); null for the demo provider. */
  adyen_session: v.nullable(v.object({ id: v.string(), session_data: v.string() })),
  expires_at: isoTimestamp,
  ...serverTime,
});

export type PaymentSession = v.InferOutput<typeof PaymentSessionSchema>;

/** What became of a checkout, as the browser is told (seed messages: canceled, refused, unknown error). */
export const PaymentOutcomeSchema = v.picklist(['open', 'authorised', 'paid', 'refused', 'cancelled', 'error', 'expired']);

export type PaymentOutcome = v.InferOutput<typeof PaymentOutcomeSchema>;

/** GET /payment/status?reference= */
export const PaymentStatusQuerySchema = v.object({ reference: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,80}$/, 'invalid')) });

export const PaymentStatusResponseSchema = v.object({
  reference: v.string(),
  /** NOT_PAID 0, PENDING 1 (opened, not completed), PAID 2. */
  status: PaymentStatusSchema,
  outcome: PaymentOutcomeSchema,
  /** The items the checkout pays for (a payment screen reopened after a redirect shows them once paid). */
  kinds: v.array(PaymentKindSchema),
  ...serverTime,
});

export type PaymentStatusResponse = v.InferOutput<typeof PaymentStatusResponseSchema>;

/**
 * The query of a payment screen (/pay-exam-fee, /pay-exam-result) the provider's redirect
 * returns to: the sitting (from the browser's return_url), our checkout reference (added by the
 * server) and, from Adyen, the session id and the redirect result to hand back to it.
 */
export const PaymentReturnQuerySchema = v.object({
  schedule_history_id: numericQuery,
  reference: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,80}$/, 'invalid')),
  sessionId: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,200}$/, 'invalid'))),
  // Adyen's redirectResult is an opaque, URL-safe string that can be long.
  redirectResult: v.optional(v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(20_000, 'invalid'))),
});

export type PaymentReturnQuery = v.InferOutput<typeof PaymentReturnQuerySchema>;

/**
 * POST /payment/demo/complete: the demo provider's "card" (only when no Adyen key is set; 404
 * otherwise). The tester picks the outcome; the answer is the checkout's new status.
 */
export const DemoPaymentCompleteRequestSchema = v.object({
  reference: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,80}$/, 'invalid')),
  outcome: v.picklist(['authorised', 'refused', 'cancelled']),
});

export type DemoPaymentCompleteRequest = v.InferOutput<typeof DemoPaymentCompleteRequestSchema>;
