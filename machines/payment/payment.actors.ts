/**
 * The real side effects of the payment machine, from the edge's PaymentPort (src/api/client.ts
 * validates every response against the contract): `paymentMachine.provide({ actors:
 * paymentActors(port) })`.
 */
import { fromPromise } from 'xstate';
import type { ResultItemKind } from '../../contract/payments.ts';
import { ApiFailure } from '../shared/ports.ts';
import type { PaymentPort, PaymentPurpose } from './payment.types.ts';

/** A call the edge's API may lack (older test fakes): failing clearly rather than silently. */
function required<F extends (...args: never[]) => unknown>(call: F | undefined): F {
  if (!call) return (() => Promise.reject(new ApiFailure('GENERIC_ERROR'))) as unknown as F;
  return call;
}

/** The payment calls of an edge's API that may lack some (each missing one fails as GENERIC_ERROR). */
export function paymentPortOf(api: Partial<PaymentPort>): PaymentPort {
  return {
    examPaymentSetting: (id) => required(api.examPaymentSetting)(id),
    resultPaymentSetting: (id) => required(api.resultPaymentSetting)(id),
    createExamFeeSession: (body) => required(api.createExamFeeSession)(body),
    createResultFeeSession: (body) => required(api.createResultFeeSession)(body),
    paymentStatus: (reference) => required(api.paymentStatus)(reference),
    completeDemoPayment: (body) => required(api.completeDemoPayment)(body),
  };
}

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
