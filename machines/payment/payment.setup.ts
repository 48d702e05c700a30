/**
 * The payment machine's vocabulary, by name: the actors the edge provides (payment.actors.ts
 * gives the real ones; these stand-ins only say what each call is), the actions, the guards
 * (decided by payment.rules.ts) and the delays. payment.machine.ts is built from this setup,
 * so every name it uses is checked against it. A call's answer reaches an action or a guard
 * as its typed parameter (`params: ({ event }) => event.output`).
 */
import { assign, setup } from 'xstate';
import { unprovided } from '../shared/unprovided.ts';
import {
  PaymentStatus,
  type ExamPaymentSetting,
  type PaymentSession,
  type PaymentStatusResponse,
  type ResultItemKind,
  type ResultPaymentSetting,
} from '../../contract/payments.ts';
import { failureOfEvent, isNetworkFailure, type FailureCode } from '../shared/ports.ts';
import {
  canCheckout,
  checkLimit,
  isAllPaid,
  isChoosable,
  resultStatusOf,
  statusBackoffMs,
  statusBeforeCheckout,
  statusFromSetting,
  unconfirmedFailure,
} from './payment.rules.ts';
import type { PaymentContext, PaymentEvent, PaymentInput, PaymentOutput, PaymentPurpose } from './payment.types.ts';

const { PENDING, PAID } = PaymentStatus;

export const paymentSetup = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    input: {} as PaymentInput,
    output: {} as PaymentOutput,
  },
  actors: {
    /** GET /get-setting-payment-for-exam or -result. */
    loadSetting: unprovided<ExamPaymentSetting | ResultPaymentSetting, { scheduleHistoryId: number; purpose: PaymentPurpose }>('loadSetting', 'payment.actors.ts'),
    /** POST /payment/adyen/sessions/exam-fee or result-fee. */
    startCheckout: unprovided<PaymentSession, { scheduleHistoryId: number; purpose: PaymentPurpose; items: ResultItemKind[]; returnUrl: string }>('startCheckout', 'payment.actors.ts'),
    /** POST /payment/demo/complete. */
    completeDemo: unprovided<PaymentStatusResponse, { reference: string; outcome: 'authorised' | 'refused' | 'cancelled' }>('completeDemo', 'payment.actors.ts'),
    /** GET /payment/status. */
    checkStatus: unprovided<PaymentStatusResponse, { reference: string }>('checkStatus', 'payment.actors.ts'),
  },
  actions: {
    assignSetting: assign(({ context }, setting: ExamPaymentSetting | ResultPaymentSetting) => {
      const items = setting.items;
      return {
        setting,
        items,
        // The exam fee is the only item of its screen: chosen while it can be bought.
        selected: context.purpose === 'exam_fee' ? items.filter(isChoosable).map((l) => l.kind) : [],
        paymentStatus: statusFromSetting(setting),
        failure: null,
      };
    }),
    assignFailure: assign({ failure: failureOfEvent }),
    toggleItem: assign({
      selected: ({ context, event }) => {
        if (event.type !== 'item.toggled') return context.selected;
        return context.selected.includes(event.kind)
          ? context.selected.filter((k) => k !== event.kind)
          : [...context.selected, event.kind];
      },
    }),
    toggleTerms: assign({ termsAccepted: ({ context }) => !context.termsAccepted }),
    assignSession: assign((_, session: PaymentSession) => ({
      session,
      providerResult: null,
      checkoutStatus: null,
      checks: 0,
      failure: null,
    })),
    assignProviderResult: assign({
      providerResult: ({ event }) => {
        if (event.type === 'provider.completed') return event.result;
        if (event.type === 'demo.chosen') return event.outcome;
        return null;
      },
      // The exam fee is PENDING while the server confirms (seed section 4).
      paymentStatus: ({ context }) => (context.purpose === 'exam_fee' ? PENDING : context.paymentStatus),
    }),
    /** Back from the provider: the exam fee is PENDING while the server confirms (seed section 4). */
    awaitConfirmation: assign({
      paymentStatus: ({ context }) => (context.purpose === 'exam_fee' ? PENDING : context.paymentStatus),
    }),
    assignCheckoutStatus: assign((_, checkoutStatus: PaymentStatusResponse) => ({ checkoutStatus })),
    countCheck: assign({ checks: ({ context }) => context.checks + 1 }),
    /** The server said PAID: the checkout's items are owned now. */
    markPaid: assign(({ context }) => {
      const paidKinds = context.checkoutStatus?.kinds ?? context.session?.items.map((l) => l.kind) ?? context.selected;
      const items = context.items.map((l) => (paidKinds.includes(l.kind) ? { ...l, status: PAID as 0 | 1 | 2, available: false } : l));
      return {
        items,
        selected: context.selected.filter((k) => !paidKinds.includes(k)),
        paymentStatus: context.purpose === 'exam_fee' ? PAID : resultStatusOf(items),
        failure: null,
      };
    }),
    declineWith: assign(({ context }, params: { failure: FailureCode }) => ({
      failure: params.failure,
      paymentStatus: statusBeforeCheckout(context),
    })),
    /** A call failed after the provider was reached: its failure, and the status as the server last had it. */
    declineOnError: assign(({ context, event }) => ({
      failure: failureOfEvent({ event }),
      paymentStatus: statusBeforeCheckout(context),
    })),
    declineUnconfirmed: assign(({ context }) => ({
      failure: unconfirmedFailure(context.providerResult),
      paymentStatus: statusBeforeCheckout(context),
    })),
    forgetCheckout: assign({ session: null, returning: null, providerResult: null, checkoutStatus: null, checks: 0, failure: null }),
  },
  guards: {
    // Adyen's redirect back with its result: Drop-in hands it to Adyen first.
    isRedirectReturn: ({ context }, setting: ExamPaymentSetting | ResultPaymentSetting) => {
      return setting.provider === 'adyen' && Boolean(context.returning?.sessionId && context.returning.redirectResult);
    },
    isReturn: ({ context }) => context.returning !== null,
    isAllPaidOnLoad: ({ context }, setting: ExamPaymentSetting | ResultPaymentSetting) => {
      return isAllPaid(context.purpose, statusFromSetting(setting));
    },
    // Only result items are ticked; the exam fee is its screen's one item.
    isChoosableItem: ({ context, event }) => {
      if (event.type !== 'item.toggled' || context.purpose !== 'result_fee') return false;
      const line = context.items.find((l) => l.kind === event.kind);
      return line !== undefined && isChoosable(line);
    },
    canCheckout: ({ context }) => canCheckout(context),
    isAlreadyPaid: (args) => failureOfEvent(args) === 'ALREADY_PAID',
    isDemoCheckout: ({ context }) => context.session?.provider === 'demo',
    isAdyenCheckout: ({ context }) => context.session?.provider === 'adyen',
    isPaid: ({ context }) => context.checkoutStatus?.status === PAID,
    isRefused: ({ context }) => context.checkoutStatus?.outcome === 'refused',
    isCancelled: ({ context }) => context.checkoutStatus?.outcome === 'cancelled',
    hasFailed: ({ context }) => context.checkoutStatus?.outcome === 'error' || context.checkoutStatus?.outcome === 'expired',
    hasChecksLeft: ({ context }) => context.checks < checkLimit(context),
    isNetworkFailureWithChecksLeft: (args) => {
      const code = failureOfEvent(args);
      return isNetworkFailure(code) && args.context.checks < checkLimit(args.context);
    },
  },
  delays: {
    statusBackoff: ({ context }) => statusBackoffMs(context.checks),
  },
});
