/**
 * Types of the payment machine (issue "Results, payments, score report and certificate"):
 * one checkout of the exam fee, or of result items (result sheet, certificate), from the
 * payment screen (pay-exam-fee, pay-exam-result) to PAID.
 *
 * Payment status (seed section 4): NOT_PAID 0 -> PENDING 1 -> PAID 2 for the exam fee; for
 * results NOT_PAID 0, PAID_PART 2, PAID_ALL 1. The server is the authority: the machine shows
 * what the server says and never marks anything paid on the browser's word.
 *
 * The view sends the events below and reads PaymentView (payment.selectors.ts, viewOf).
 */
import type {
  ExamPaymentSetting,
  PaymentKind,
  PaymentLine,
  PaymentProvider,
  PaymentSession,
  PaymentStatusResponse,
  ResultPaymentSetting,
} from '../../contract/payments.ts';
import type { ResultItemKind } from '../../contract/payments.ts';
import type { FailureCode } from '../shared/ports.ts';

export type PaymentPurpose = 'exam_fee' | 'result_fee';

export interface PaymentInput {
  scheduleHistoryId: number;
  purpose: PaymentPurpose;
  /** Where the provider sends the shopper back after a redirect payment method (our own page). */
  returnUrl: string;
  /** The screen was opened by that return: the checkout to confirm (absent or null otherwise). */
  returning?: PaymentReturn | null;
}

/** What the machine knows; the view reads it through payment.selectors.ts. */
export interface PaymentContext extends PaymentInput {
  /** The provider's redirect back this screen confirms; null once the pupil starts over. */
  returning: PaymentReturn | null;
  /** The settings as loaded; null before. */
  setting: ExamPaymentSetting | ResultPaymentSetting | null;
  /** Every item of the screen with its status (updated when the server confirms a payment). */
  items: PaymentLine[];
  /** The items the user ticked (the exam fee: the fee itself, while unpaid). */
  selected: PaymentKind[];
  termsAccepted: boolean;
  /** The open checkout, while there is one. */
  session: PaymentSession | null;
  /** What the provider reported in the browser (demo: the tester's choice); null before. */
  providerResult: ProviderResult | null;
  /** The server's last answer about the checkout. */
  checkoutStatus: PaymentStatusResponse | null;
  /** GET /payment/status calls made for this checkout. */
  checks: number;
  paymentStatus: 0 | 1 | 2;
  failure: FailureCode | null;
}

/**
 * The provider's redirect back to a payment screen (the returnUrl the server gave Adyen, with
 * our `reference` in it and Adyen's `sessionId` and `redirectResult` added): which checkout to
 * confirm, and what Adyen needs to finish it (Drop-in's submitDetails).
 */
export interface PaymentReturn {
  /** Our merchant reference of the checkout (added to the returnUrl by the server). */
  reference: string;
  /** Adyen's session id; null when the provider added none (the demo provider). */
  sessionId: string | null;
  /** Adyen's redirect result, handed back to Adyen to complete the payment; null when none. */
  redirectResult: string | null;
}

/** How the provider's checkout ended in the browser (Adyen Drop-in's onPaymentCompleted / onError). */
export type ProviderResult = 'authorised' | 'pending' | 'received' | 'refused' | 'cancelled' | 'error';

export type PaymentEvent =
  /** Result items: the user ticks or unticks an item. */
  | { type: 'item.toggled'; kind: ResultItemKind }
  /** The payment terms: read and agreed (seed section 5), or agreement withdrawn. */
  | { type: 'terms.toggled' }
  /** Pay pressed: allowed only with terms agreed and at least one unpaid item chosen. */
  | { type: 'checkout.requested' }
  /** Adyen Drop-in reported the end of its checkout (also after a redirect, once the redirect result is submitted). */
  | { type: 'provider.completed'; result: ProviderResult }
  /** The demo provider's panel: the tester chose an outcome. */
  | { type: 'demo.chosen'; outcome: 'authorised' | 'refused' | 'cancelled' }
  /** Try again after a refusal, a cancellation or an error (back to choosing, nothing charged). */
  | { type: 'again.requested' }
  /** Loading the settings failed: try again. */
  | { type: 'retry.requested' };

/** What the payment screen shows. */
export type PaymentPhase =
  | 'loading' // settings are loading (skeleton)
  | 'loadFailed' // settings could not be loaded (failure + retry)
  | 'choosing' // items, prices, terms, Pay
  | 'startingCheckout' // creating the provider session
  | 'checkout' // the provider's form (Adyen Drop-in or the demo panel) is shown
  | 'returning' // back from the provider's redirect: its result is handed to Adyen, which reports the outcome
  | 'confirming' // the shopper finished; waiting for the server to confirm (PENDING)
  | 'paid' // everything chosen is paid
  | 'declined'; // refused, cancelled or failed: message and "try again"

export interface PaymentView {
  phase: PaymentPhase;
  purpose: PaymentPurpose;
  provider: PaymentProvider | null;
  /** Adyen's client key and environment; null for the demo provider or before loading. */
  adyen: { client_key: string; environment: 'test' | 'live' } | null;
  /** Every item of this payment screen with quantity, unit price, total, status, availability. */
  items: PaymentLine[];
  /** Items the user ticked (exam fee: always the fee while unpaid). */
  selected: PaymentKind[];
  /** Sum of the selected unpaid items, USD minor units. */
  totalMinor: number;
  termsAccepted: boolean;
  canCheckout: boolean;
  /** The open checkout (its reference and Adyen session) while phase is checkout/confirming. */
  session: PaymentSession | null;
  /** Back from Adyen's redirect (phase returning): what Drop-in's submitDetails needs. */
  redirect: { sessionId: string; redirectResult: string } | null;
  /** Paid: by a checkout the server confirmed on this screen (true), or before it opened (false: already paid). */
  justPaid: boolean;
  /** Exam fee: NOT_PAID 0, PENDING 1, PAID 2. Result: NOT_PAID 0, PAID_ALL 1, PAID_PART 2. */
  paymentStatus: 0 | 1 | 2;
  /** Why the last attempt failed, for the seed's messages (PAYMENT_CANCELED, PAYMENT_REFUSED, PAYMENT_ERROR, ...). */
  failure: FailureCode | null;
}

/** The calls the machine makes (provided by src/api through the ApiPort; faked in tests). */
export interface PaymentPort {
  examPaymentSetting(scheduleHistoryId: number): Promise<ExamPaymentSetting>;
  resultPaymentSetting(scheduleHistoryId: number): Promise<ResultPaymentSetting>;
  createExamFeeSession(body: { schedule_history_id: number; terms_accepted: true; return_url: string }): Promise<PaymentSession>;
  createResultFeeSession(body: {
    schedule_history_id: number;
    items: ResultItemKind[];
    terms_accepted: true;
    return_url: string;
  }): Promise<PaymentSession>;
  paymentStatus(reference: string): Promise<PaymentStatusResponse>;
  completeDemoPayment(body: { reference: string; outcome: 'authorised' | 'refused' | 'cancelled' }): Promise<PaymentStatusResponse>;
}

/** The machine's output when it stops (the user leaves a paid screen): what is now owned. */
export interface PaymentOutput {
  paymentStatus: 0 | 1 | 2;
}
