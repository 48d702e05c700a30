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
 * Built from payment.setup.ts (actors, actions, guards, delays); the rules are in
 * payment.rules.ts, the types (context, events, view) in payment.types.ts.
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
import { PaymentStatus, type ResultItemKind } from '../../contract/payments.ts';
import { chosenLines, referenceOf } from './payment.rules.ts';
import { paymentSetup } from './payment.setup.ts';

const { NOT_PAID } = PaymentStatus;

export const paymentMachine = paymentSetup.createMachine({
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
          { guard: { type: 'isRedirectReturn', params: ({ event }) => event.output }, target: 'returning', actions: { type: 'assignSetting', params: ({ event }) => event.output } },
          // Back without a result to hand over (the demo provider): the server's word decides.
          {
            guard: 'isReturn',
            target: 'confirming',
            actions: [{ type: 'assignSetting', params: ({ event }) => event.output }, 'awaitConfirmation'],
          },
          { guard: { type: 'isAllPaidOnLoad', params: ({ event }) => event.output }, target: 'paid', actions: { type: 'assignSetting', params: ({ event }) => event.output } },
          { target: 'choosing', actions: { type: 'assignSetting', params: ({ event }) => event.output } },
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
        onDone: { target: 'checkout', actions: { type: 'assignSession', params: ({ event }) => event.output } },
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
            onDone: { target: 'judging', actions: { type: 'assignCheckoutStatus', params: ({ event }) => event.output } },
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
            onDone: { target: 'judging', actions: { type: 'assignCheckoutStatus', params: ({ event }) => event.output } },
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
