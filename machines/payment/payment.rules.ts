/**
 * The payment machine's rules: pure questions about its context and the server's answers
 * (what can be chosen, what a checkout buys, how many status calls it gets and how long to
 * wait between them, which message an unconfirmed checkout ends with). payment.setup.ts
 * names them as guards and actions; the selectors and tests call them directly.
 */
import {
  PaymentStatus,
  ResultPaymentStatus,
  type ExamPaymentSetting,
  type PaymentLine,
  type ResultPaymentSetting,
} from '../../contract/payments.ts';
import { backoffMs } from '../shared/backoff.ts';
import type { FailureCode } from '../shared/ports.ts';
import type { PaymentContext, PaymentPurpose, ProviderResult } from './payment.types.ts';

/** How many times the server is asked about a checkout the provider reported as paid. */
export const MAX_STATUS_CHECKS = 8;
/** The first wait between two status calls; it doubles up to STATUS_BACKOFF_MAX_MS. */
export const STATUS_BACKOFF_MS = 500;
export const STATUS_BACKOFF_MAX_MS = 4_000;

const { NOT_PAID, PAID } = PaymentStatus;
const { PAID_ALL, PAID_PART } = ResultPaymentStatus;


/**
 * The unit of a line is bought once: it can be chosen while available and not paid (a pending
 * item's open checkout is resumed by the server, never charged twice).
 */
export function isChoosable(line: PaymentLine): boolean {
  return line.available && line.status !== PAID;
}

/** The checkout this screen confirms: the one it opened, else the one the provider's redirect named. */
export function referenceOf(context: Pick<PaymentContext, 'session' | 'returning'>): string {
  return context.session?.reference ?? context.returning?.reference ?? '';
}

/** Result status from the items (seed section 4): PAID_ALL 1 when both are paid, PAID_PART 2 when one. */
export function resultStatusOf(items: readonly PaymentLine[]): 0 | 1 | 2 {
  const paid = items.filter((l) => (l.kind === 'result_sheet' || l.kind === 'certificate') && l.status === PAID).length;
  return paid === 2 ? PAID_ALL : paid === 1 ? PAID_PART : NOT_PAID;
}

export function statusFromSetting(setting: ExamPaymentSetting | ResultPaymentSetting): 0 | 1 | 2 {
  return 'payment_status' in setting ? setting.payment_status : setting.result_payment_status;
}

/** The items chosen that can still be bought. */
export function chosenLines(context: Pick<PaymentContext, 'items' | 'selected'>): PaymentLine[] {
  return context.items.filter((line) => context.selected.includes(line.kind) && isChoosable(line));
}

export function canCheckout(context: Pick<PaymentContext, 'items' | 'selected' | 'termsAccepted'>): boolean {
  return context.termsAccepted && chosenLines(context).length > 0;
}

/** Everything this screen sells is paid: exam fee PAID, or both result items PAID_ALL. */
export function isAllPaid(purpose: PaymentPurpose, status: 0 | 1 | 2): boolean {
  return purpose === 'exam_fee' ? status === PAID : status === PAID_ALL;
}

/** After a status call: how many calls this checkout may have, by what the provider reported. */
export function checkLimit(context: PaymentContext): number {
  const result = context.providerResult;
  // A refusal, cancellation or error reported by the provider needs one look: the server's word wins if it has one.
  return result === 'refused' || result === 'cancelled' || result === 'error' ? 1 : MAX_STATUS_CHECKS;
}

/** The wait before status call `checks + 1`: 500 ms, doubling, at most 4 s. */
export function statusBackoffMs(checks: number): number {
  return backoffMs(checks - 1, { firstMs: STATUS_BACKOFF_MS, maxMs: STATUS_BACKOFF_MAX_MS });
}

/** The message a checkout the server did not confirm ends with, from what the provider said. */
export function unconfirmedFailure(result: ProviderResult | null): FailureCode {
  if (result === 'refused') return 'PAYMENT_REFUSED';
  if (result === 'cancelled') return 'PAYMENT_CANCELED';
  return 'PAYMENT_ERROR';
}

/** A checkout that did not end paid: the exam fee is back to what the server last said; result items keep their status. */
export function statusBeforeCheckout(context: Pick<PaymentContext, 'purpose' | 'setting' | 'paymentStatus'>): 0 | 1 | 2 {
  if (context.purpose !== 'exam_fee') return context.paymentStatus;
  return context.setting ? statusFromSetting(context.setting) : NOT_PAID;
}
