/**
 * The real side effects of the payment machine, from the edge's PaymentPort (src/api/client.ts
 * validates every response against the contract): `paymentMachine.provide({ actors:
 * paymentActors(port) })`.
 */
import { fromPromise } from 'xstate';
import type { ResultItemKind } from '../../contract/payments.ts';
import type { PaymentPort, PaymentPurpose } from './payment.types.ts';

export function paymentActors(port: PaymentPort) {
  return {
    loadSetting: fromPromise(async ({ input }: { input: { scheduleHistoryId: number; purpose: PaymentPurpose } }) =>
      input.purpose === 'exam_fee'
        ? port.examPaymentSetting(input.scheduleHistoryId)
        : port.resultPaymentSetting(input.scheduleHistoryId),
    ),
    startCheckout: fromPromise(
      async ({
        input,
      }: {
        input: { scheduleHistoryId: number; purpose: PaymentPurpose; items: ResultItemKind[]; returnUrl: string };
      }) =>
        input.purpose === 'exam_fee'
          ? port.createExamFeeSession({ schedule_history_id: input.scheduleHistoryId, terms_accepted: true, return_url: input.returnUrl })
          : port.createResultFeeSession({
              schedule_history_id: input.scheduleHistoryId,
              items: input.items,
              terms_accepted: true,
              return_url: input.returnUrl,
            }),
    ),
    completeDemo: fromPromise(
      async ({ input }: { input: { reference: string; outcome: 'authorised' | 'refused' | 'cancelled' } }) =>
        port.completeDemoPayment(input),
    ),
    checkStatus: fromPromise(async ({ input }: { input: { reference: string } }) => port.paymentStatus(input.reference)),
  };
}
