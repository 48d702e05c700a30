/**
 * The provider's redirect back to a payment screen, read from its query (seed section 7: the
 * Adyen sessions; the server adds our `reference` to the returnUrl, Adyen adds `sessionId` and
 * `redirectResult`). Pure: the session machine's guard and the payment screen's input use it.
 */
import * as v from 'valibot';
import { PaymentReturnQuerySchema } from '../../contract/payments.ts';
import type { PaymentPurpose, PaymentReturn } from './payment.types.ts';

/** The payment screen's path of each purpose: the browser's return_url names it. */
export const paymentPaths: Readonly<Record<PaymentPurpose, string>> = {
  exam_fee: '/pay-exam-fee',
  result_fee: '/pay-exam-result',
};

/** A return to a payment screen: which sitting, and which checkout to confirm. */
export type PaymentReturnFacts = PaymentReturn & { scheduleHistoryId: number };

/** The return the query describes, or null when it is not one (or is malformed). */
export function paymentReturnOf(search: Record<string, string> | undefined): PaymentReturnFacts | null {
  const parsed = v.safeParse(PaymentReturnQuerySchema, search ?? {});
  if (!parsed.success) return null;
  const q = parsed.output;
  return {
    scheduleHistoryId: q.schedule_history_id,
    reference: q.reference,
    sessionId: q.sessionId ?? null,
    redirectResult: q.redirectResult ?? null,
  };
}

/** The browser's return_url: its payment screen for this sitting, on our own origin. */
export function returnUrlOf(appOrigin: string, purpose: PaymentPurpose, scheduleHistoryId: number): string {
  return `${appOrigin}${paymentPaths[purpose]}?schedule_history_id=${scheduleHistoryId}`;
}
