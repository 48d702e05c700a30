/**
 * The payment machine: one payment screen (pay-exam-fee or pay-exam-result) from loading what
 * can be bought to PAID. It owns the choice of items, the agreement to the payment terms
 * (seed section 5), the checkout with the provider (Adyen Drop-in or the demo panel) and the
 * confirmation by the server.
 *
 * Top states: loading -> loadFailed | choosing | paid | returning | confirming; choosing ->
 * startingCheckout -> checkout -> confirming -> paid | declined; declined -> choosing (try
 * again); loadFailed -> loading (retry). Confirming reports the demo outcome first (demo only),
 * then asks GET /payment/status one call after another, with a short backoff between them,
 * until the checkout is PAID or has a final outcome, at most MAX_STATUS_CHECKS times.
 *
 * Back from the provider's redirect (input `returning`: the returnUrl with our reference, and
 * Adyen's sessionId and redirectResult), the screen confirms that checkout instead of offering
 * a new one: loading -> returning (Adyen: the redirect result is handed to Drop-in's
 * submitDetails, which reports the outcome) -> confirming; without a redirect result (the demo
 * provider) straight to confirming.
 *
 * Payment status (seed section 4): the exam fee goes NOT_PAID -> PENDING (a checkout is open,
 * and while the server confirms) -> PAID; result items are NOT_PAID, PAID_PART or PAID_ALL.
 *
 * Invariants:
 * - a checkout starts only with the terms agreed and at least one unpaid, available item chosen;
 * - nothing is marked paid on the browser's word: only the server's PAID (its status answer,
 *   or the settings) leads to `paid`; the provider's result only decides which message a
 *   checkout the server never confirmed ends with;
 * - a paid or unavailable item can never be chosen; the exam fee is chosen by itself; a pending
 *   item (an unfinished checkout) can be chosen again, and the server resumes that checkout;
 * - ALREADY_PAID at checkout reloads the settings (two tabs: the other one paid).
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  PaymentStatus,
  ResultPaymentStatus,
  type ExamPaymentSetting,
  type PaymentKind,
  type PaymentLine,
  type PaymentSession,
  type PaymentStatusResponse,
  type ResultItemKind,
  type ResultPaymentSetting,
} from '../../contract/payments.ts';
import { backoffMs } from '../shared/backoff.ts';
import { failureCodeOf, isNetworkFailure, type FailureCode } from '../shared/ports.ts';
import type {
  PaymentEvent,
  PaymentInput,
  PaymentOutput,
  PaymentPurpose,
  PaymentReturn,
  ProviderResult,
} from './payment.types.ts';

/** How many times the server is asked about a checkout the provider reported as paid. */
export const MAX_STATUS_CHECKS = 8;
/** The first wait between two status calls; it doubles up to STATUS_BACKOFF_MAX_MS. */
export const STATUS_BACKOFF_MS = 500;
export const STATUS_BACKOFF_MAX_MS = 4_000;

const { NOT_PAID, PENDING, PAID } = PaymentStatus;
const { PAID_ALL, PAID_PART } = ResultPaymentStatus;

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

function statusFromSetting(setting: ExamPaymentSetting | ResultPaymentSetting): 0 | 1 | 2 {
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
function isAllPaid(purpose: PaymentPurpose, status: 0 | 1 | 2): boolean {
  return purpose === 'exam_fee' ? status === PAID : status === PAID_ALL;
}

/** After a status call: how many calls this checkout may have, by what the provider reported. */
function checkLimit(context: PaymentContext): number {
  const result = context.providerResult;
  // A refusal, cancellation or error reported by the provider needs one look: the server's word wins if it has one.
  return result === 'refused' || result === 'cancelled' || result === 'error' ? 1 : MAX_STATUS_CHECKS;
}

/** The wait before status call `checks + 1`: 500 ms, doubling, at most 4 s. */
export function statusBackoffMs(checks: number): number {
  return backoffMs(checks - 1, { firstMs: STATUS_BACKOFF_MS, maxMs: STATUS_BACKOFF_MAX_MS });
}

/** The message a checkout the server did not confirm ends with, from what the provider said. */
function unconfirmedFailure(result: ProviderResult | null): FailureCode {
  if (result === 'refused') return 'PAYMENT_REFUSED';
  if (result === 'cancelled') return 'PAYMENT_CANCELED';
  return 'PAYMENT_ERROR';
}

const failureOf = ({ event }: { event: unknown }) => failureCodeOf((event as { error?: unknown }).error);

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    input: {} as PaymentInput,
    output: {} as PaymentOutput,
  },
  actors: {
    /** GET /get-setting-payment-for-exam or -result. */
    loadSetting: fromPromise<ExamPaymentSetting | ResultPaymentSetting, { scheduleHistoryId: number; purpose: PaymentPurpose }>(
      async () => {
        throw new Error('loadSetting is provided by the edge (payment.actors.ts)');
      },
    ),
    /** POST /payment/adyen/sessions/exam-fee or result-fee. */
    startCheckout: fromPromise<
      PaymentSession,
      { scheduleHistoryId: number; purpose: PaymentPurpose; items: ResultItemKind[]; returnUrl: string }
    >(async () => {
      throw new Error('startCheckout is provided by the edge (payment.actors.ts)');
    }),
    /** POST /payment/demo/complete. */
    completeDemo: fromPromise<PaymentStatusResponse, { reference: string; outcome: 'authorised' | 'refused' | 'cancelled' }>(
      async () => {
        throw new Error('completeDemo is provided by the edge (payment.actors.ts)');
      },
    ),
    /** GET /payment/status. */
    checkStatus: fromPromise<PaymentStatusResponse, { reference: string }>(async () => {
      throw new Error('checkStatus is provided by the edge (payment.actors.ts)');
    }),
  },
  actions: {
    assignSetting: assign(({ context, event }) => {
      const setting = (event as unknown as { output: ExamPaymentSetting | ResultPaymentSetting }).output;
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
    assignFailure: assign({ failure: (args) => failureOf(args) }),
    toggleItem: assign({
      selected: ({ context, event }) => {
        if (event.type !== 'item.toggled') return context.selected;
        return context.selected.includes(event.kind)
          ? context.selected.filter((k) => k !== event.kind)
          : [...context.selected, event.kind];
      },
    }),
    toggleTerms: assign({ termsAccepted: ({ context }) => !context.termsAccepted }),
    assignSession: assign({
      session: ({ event }) => (event as unknown as { output: PaymentSession }).output,
      providerResult: null,
      checkoutStatus: null,
      checks: 0,
      failure: null,
    }),
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
    assignCheckoutStatus: assign({
      checkoutStatus: ({ event }) => (event as unknown as { output: PaymentStatusResponse }).output,
    }),
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
      paymentStatus: context.purpose === 'exam_fee' ? (context.setting ? statusFromSetting(context.setting) : NOT_PAID) : context.paymentStatus,
    })),
    /** A call failed after the provider was reached: its failure, and the status as the server last had it. */
    declineOnError: assign(({ context, event }) => ({
      failure: failureCodeOf((event as { error?: unknown }).error),
      paymentStatus: context.purpose === 'exam_fee' ? (context.setting ? statusFromSetting(context.setting) : NOT_PAID) : context.paymentStatus,
    })),
    declineUnconfirmed: assign(({ context }) => ({
      failure: unconfirmedFailure(context.providerResult),
      paymentStatus: context.purpose === 'exam_fee' ? (context.setting ? statusFromSetting(context.setting) : NOT_PAID) : context.paymentStatus,
    })),
    forgetCheckout: assign({ session: null, returning: null, providerResult: null, checkoutStatus: null, checks: 0, failure: null }),
  },
  guards: {
    // Adyen's redirect back with its result: Drop-in hands it to Adyen first.
    isRedirectReturn: ({ context, event }) => {
      const setting = (event as unknown as { output: ExamPaymentSetting | ResultPaymentSetting }).output;
      return setting.provider === 'adyen' && Boolean(context.returning?.sessionId && context.returning.redirectResult);
    },
    isReturn: ({ context }) => context.returning !== null,
    isAllPaidOnLoad: ({ context, event }) => {
      const setting = (event as unknown as { output: ExamPaymentSetting | ResultPaymentSetting }).output;
      return isAllPaid(context.purpose, statusFromSetting(setting));
    },
    // Only result items are ticked; the exam fee is its screen's one item.
    isChoosableItem: ({ context, event }) => {
      if (event.type !== 'item.toggled' || context.purpose !== 'result_fee') return false;
      const line = context.items.find((l) => l.kind === event.kind);
      return line !== undefined && isChoosable(line);
    },
    canCheckout: ({ context }) => canCheckout(context),
    isAlreadyPaid: (args) => failureOf(args) === 'ALREADY_PAID',
    isDemoCheckout: ({ context }) => context.session?.provider === 'demo',
    isAdyenCheckout: ({ context }) => context.session?.provider === 'adyen',
    isPaid: ({ context }) => context.checkoutStatus?.status === PAID,
    isRefused: ({ context }) => context.checkoutStatus?.outcome === 'refused',
    isCancelled: ({ context }) => context.checkoutStatus?.outcome === 'cancelled',
    hasFailed: ({ context }) => context.checkoutStatus?.outcome === 'error' || context.checkoutStatus?.outcome === 'expired',
    hasChecksLeft: ({ context }) => context.checks < checkLimit(context),
    isNetworkFailureWithChecksLeft: (args) => {
      const code = failureOf(args);
      return isNetworkFailure(code) && args.context.checks < checkLimit(args.context);
    },
  },
  delays: {
    statusBackoff: ({ context }) => statusBackoffMs(context.checks),
  },
}).createMachine({
  id: 'payment',
  context: ({ input }) => ({
    ...input,
    returning: input.returning ?? null,
    setting: null,
    items: [],
    selected: [],
    termsAccepted: false,
    session: null,
    providerResult: null,
    checkoutStatus: null,
    checks: 0,
    paymentStatus: NOT_PAID,
    failure: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadSetting',
        src: 'loadSetting',
        input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId, purpose: context.purpose }),
        onDone: [
          { guard: 'isRedirectReturn', target: 'returning', actions: 'assignSetting' },
          // Back without a result to hand over (the demo provider): the server's word decides.
          { guard: 'isReturn', target: 'confirming', actions: ['assignSetting', 'awaitConfirmation'] },
          { guard: 'isAllPaidOnLoad', target: 'paid', actions: 'assignSetting' },
          { target: 'choosing', actions: 'assignSetting' },
        ],
        onError: { target: 'loadFailed', actions: 'assignFailure' },
      },
    },
    loadFailed: {
      tags: ['error'],
      on: { 'retry.requested': 'loading' },
    },
    choosing: {
      on: {
        'item.toggled': { guard: 'isChoosableItem', actions: 'toggleItem' },
        'terms.toggled': { actions: 'toggleTerms' },
        'checkout.requested': { guard: 'canCheckout', target: 'startingCheckout' },
      },
    },
    startingCheckout: {
      tags: ['busy'],
      invoke: {
        id: 'startCheckout',
        src: 'startCheckout',
        input: ({ context }) => ({
          scheduleHistoryId: context.scheduleHistoryId,
          purpose: context.purpose,
          items: chosenLines(context)
            .map((l) => l.kind)
            .filter((k): k is ResultItemKind => k !== 'exam_fee'),
          returnUrl: context.returnUrl,
        }),
        onDone: { target: 'checkout', actions: 'assignSession' },
        onError: [
          // Paid meanwhile (another tab): what is owned now decides what is left to buy.
          { guard: 'isAlreadyPaid', target: 'loading' },
          { target: 'declined', actions: 'assignFailure' },
        ],
      },
    },
    returning: {
      tags: ['busy'],
      on: { 'provider.completed': { target: 'confirming', actions: 'assignProviderResult' } },
    },
    checkout: {
      on: {
        'provider.completed': { guard: 'isAdyenCheckout', target: 'confirming', actions: 'assignProviderResult' },
        'demo.chosen': { guard: 'isDemoCheckout', target: 'confirming.reportingDemo', actions: 'assignProviderResult' },
      },
    },
    confirming: {
      tags: ['busy'],
      initial: 'checking',
      states: {
        reportingDemo: {
          invoke: {
            id: 'completeDemo',
            src: 'completeDemo',
            input: ({ context }) => ({
              reference: referenceOf(context),
              outcome: context.providerResult === 'refused' || context.providerResult === 'cancelled' ? context.providerResult : 'authorised',
            }),
            onDone: { target: 'judging', actions: 'assignCheckoutStatus' },
            onError: { target: '#payment.declined', actions: 'declineOnError' },
          },
        },
        checking: {
          // Counted when made: the bound holds whatever the calls answer.
          entry: 'countCheck',
          invoke: {
            id: 'checkStatus',
            src: 'checkStatus',
            input: ({ context }) => ({ reference: referenceOf(context) }),
            onDone: { target: 'judging', actions: 'assignCheckoutStatus' },
            onError: [
              { guard: 'isNetworkFailureWithChecksLeft', target: 'waiting' },
              { target: '#payment.declined', actions: 'declineOnError' },
            ],
          },
        },
        judging: {
          always: [
            { guard: 'isPaid', target: '#payment.paid', actions: 'markPaid' },
            { guard: 'isRefused', target: '#payment.declined', actions: { type: 'declineWith', params: { failure: 'PAYMENT_REFUSED' } } },
            { guard: 'isCancelled', target: '#payment.declined', actions: { type: 'declineWith', params: { failure: 'PAYMENT_CANCELED' } } },
            { guard: 'hasFailed', target: '#payment.declined', actions: { type: 'declineWith', params: { failure: 'PAYMENT_ERROR' } } },
            { guard: 'hasChecksLeft', target: 'waiting' },
            // The server never heard of an outcome: the provider's word picks the message.
            { target: '#payment.declined', actions: 'declineUnconfirmed' },
          ],
        },
        waiting: {
          after: { statusBackoff: 'checking' },
        },
      },
    },
    declined: {
      tags: ['error'],
      on: { 'again.requested': { target: 'choosing', actions: 'forgetCheckout' } },
    },
    paid: { type: 'final' },
  },
  output: ({ context }) => ({ paymentStatus: context.paymentStatus }),
});
