/**
 * The payment machine walked transition by transition, for the exam fee and for result items:
 * every call's outcome and every backoff timer are explicit events of the path. Invariants:
 * nothing is paid on the browser's word, a checkout needs the terms and an unpaid item, and the
 * view always matches the machine.
 */
import assert from 'node:assert/strict';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import type {
  ExamPaymentSetting,
  PaymentLine,
  PaymentSession,
  PaymentStatusResponse,
  ResultPaymentSetting,
} from '../../contract/payments.ts';
import { paymentMachine } from '../../machines/payment/payment.machine.ts';
import { MAX_STATUS_CHECKS } from '../../machines/payment/payment.rules.ts';
import { viewOf, type PaymentSnapshot } from '../../machines/payment/payment.selectors.ts';
import type { PaymentContext, PaymentInput } from '../../machines/payment/payment.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

const machine = paymentMachine.provide({
  actors: { loadSetting: never(), startCheckout: never(), completeDemo: never(), checkStatus: never() },
});

const REFERENCE = 'GR-00000000-0000-4000-8000-000000000001';
/** Back from Adyen's redirect: the returnUrl with our reference, Adyen's sessionId and redirectResult. */
const returning = { reference: REFERENCE, sessionId: 'CS1234', redirectResult: 'X6XtfGC3!Y3Jg2' };

const inputs: PaymentInput[] = [
  { scheduleHistoryId: 7, purpose: 'exam_fee', returnUrl: 'https://gradus.test/pay-exam-fee?schedule_history_id=7' },
  { scheduleHistoryId: 7, purpose: 'result_fee', returnUrl: 'https://gradus.test/pay-exam-result?schedule_history_id=7' },
  { scheduleHistoryId: 7, purpose: 'exam_fee', returnUrl: 'https://gradus.test/pay-exam-fee?schedule_history_id=7', returning },
  { scheduleHistoryId: 7, purpose: 'result_fee', returnUrl: 'https://gradus.test/pay-exam-result?schedule_history_id=7', returning },
];

const at = '2026-06-01T09:00:00.000Z';
const line = (kind: PaymentLine['kind'], unit: number, status: 0 | 1 | 2, available: boolean): PaymentLine => ({
  kind,
  quantity: 1,
  unit_price_minor: unit,
  total_minor: unit,
  status,
  available,
});
const common = (provider: 'adyen' | 'demo') => ({
  schedule_history_id: 7,
  provider,
  currency: 'USD' as const,
  adyen: provider === 'adyen' ? { client_key: 'test_CLIENTKEY', environment: 'test' as const } : null,
  server_time: at,
});

const examSetting = (provider: 'adyen' | 'demo', status: 0 | 1 | 2): ExamPaymentSetting => ({
  ...common(provider),
  items: [line('exam_fee', 1500, status, status !== 2)],
  payment_status: status,
});
const resultSetting = (
  provider: 'adyen' | 'demo',
  sheet: 0 | 2,
  certificate: 0 | 2,
  passed: boolean,
): ResultPaymentSetting => ({
  ...common(provider),
  items: [line('result_sheet', 500, sheet, sheet === 0), line('certificate', 800, certificate, passed && certificate === 0)],
  result_payment_status: sheet === 2 && certificate === 2 ? 1 : sheet === 2 || certificate === 2 ? 2 : 0,
});

function sessionFor(context: PaymentContext): PaymentSession {
  const provider = context.setting?.provider ?? 'demo';
  const items = context.items.filter((l) => context.selected.includes(l.kind));
  return {
    reference: REFERENCE,
    provider,
    currency: 'USD',
    amount_minor: items.reduce((sum, l) => sum + l.total_minor, 0),
    items,
    adyen_session: provider === 'adyen' ? { id: 'CS1234', session_data: 'Ab02b4c0' } : null,
    expires_at: '2026-06-01T10:00:00.000Z',
    server_time: at,
  };
}

/** The kinds of the checkout being confirmed: the one opened here, else (a return) the screen's first item. */
const kindsOf = (context: PaymentContext): PaymentLine['kind'][] =>
  context.session?.items.map((l) => l.kind) ?? (context.purpose === 'exam_fee' ? ['exam_fee'] : ['result_sheet']);

const status = (context: PaymentContext, s: 0 | 1 | 2, outcome: PaymentStatusResponse['outcome']): PaymentStatusResponse => ({
  reference: REFERENCE,
  status: s,
  outcome,
  kinds: kindsOf(context),
  server_time: at,
});

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as PaymentContext;

describeModel({
  name: 'payment',
  machine,
  inputs,
  samples: {
    'xstate.done.actor.loadSetting': (snapshot) => {
      const { purpose } = contextOf(snapshot);
      const outputs =
        purpose === 'exam_fee'
          ? [examSetting('demo', 0), examSetting('adyen', 0), examSetting('demo', 2), examSetting('demo', 1)]
          : [resultSetting('demo', 0, 0, true), resultSetting('adyen', 2, 0, true), resultSetting('demo', 2, 2, true)];
      return outputs.map((output) => ({ type: 'xstate.done.actor.loadSetting', output }));
    },
    'xstate.error.actor.loadSetting': [{ type: 'xstate.error.actor.loadSetting', error: new ApiFailure('NETWORK_ERROR') }],
    'item.toggled': (snapshot) =>
      contextOf(snapshot).purpose === 'result_fee'
        ? [
            { type: 'item.toggled', kind: 'result_sheet' },
            { type: 'item.toggled', kind: 'certificate' },
          ]
        : [{ type: 'item.toggled', kind: 'certificate' }],
    'xstate.done.actor.startCheckout': (snapshot) => [
      { type: 'xstate.done.actor.startCheckout', output: sessionFor(contextOf(snapshot)) },
    ],
    'xstate.error.actor.startCheckout': [
      { type: 'xstate.error.actor.startCheckout', error: new ApiFailure('ALREADY_PAID', 422) },
      { type: 'xstate.error.actor.startCheckout', error: new ApiFailure('PAYMENT_ERROR', 422) },
    ],
    'provider.completed': [
      { type: 'provider.completed', result: 'authorised' },
      { type: 'provider.completed', result: 'refused' },
      { type: 'provider.completed', result: 'cancelled' },
    ],
    'demo.chosen': [
      { type: 'demo.chosen', outcome: 'authorised' },
      { type: 'demo.chosen', outcome: 'refused' },
    ],
    'xstate.done.actor.completeDemo': (snapshot) => {
      const context = contextOf(snapshot);
      const { providerResult } = context;
      const output =
        providerResult === 'authorised' ? status(context, 2, 'paid') : status(context, 0, providerResult === 'cancelled' ? 'cancelled' : 'refused');
      return [{ type: 'xstate.done.actor.completeDemo', output }];
    },
    'xstate.error.actor.completeDemo': [{ type: 'xstate.error.actor.completeDemo', error: new ApiFailure('GENERIC_ERROR', 500) }],
    'xstate.done.actor.checkStatus': (snapshot) => {
      const context = contextOf(snapshot);
      const outputs: PaymentStatusResponse[] = [status(context, 1, 'open')];
      // The final outcomes once, right after the provider finished: enough to walk each branch.
      if (context.checks === 1) {
        outputs.push(status(context, 2, 'paid'), status(context, 0, 'refused'), status(context, 0, 'cancelled'), status(context, 0, 'expired'));
      }
      return outputs.map((output) => ({ type: 'xstate.done.actor.checkStatus', output }) as AnyEventObject);
    },
    'xstate.error.actor.checkStatus': [
      { type: 'xstate.error.actor.checkStatus', error: new ApiFailure('NETWORK_ERROR') },
      { type: 'xstate.error.actor.checkStatus', error: new ApiFailure('NOT_FOUND', 404) },
    ],
  },
  contextKey: (context) => {
    const c = context as unknown as PaymentContext;
    return {
      provider: c.setting?.provider ?? null,
      status: c.paymentStatus,
      items: c.items.map((l) => [l.kind, l.status, l.available]),
      selected: [...c.selected].sort(),
      terms: c.termsAccepted,
      providerResult: c.providerResult,
      checks: c.checks,
      outcome: c.checkoutStatus?.outcome ?? null,
      failure: c.failure,
      returning: c.returning !== null,
    };
  },
  // node:assert rather than expect: invariants run after every event of every path, where expect's cost dominates.
  invariants: (snapshot) => {
    const context = contextOf(snapshot);
    const view = viewOf(snapshot as unknown as PaymentSnapshot);
    // A checkout is only ever open with the terms agreed (on this screen, or before the provider's redirect).
    if (snapshot.matches('startingCheckout') || snapshot.matches('checkout')) assert.equal(context.termsAccepted, true);
    if (snapshot.matches('confirming')) assert.equal(context.termsAccepted || context.returning !== null, true);
    // Paid only on the server's word: its settings, or its PAID answer about the checkout.
    if (snapshot.matches('paid')) {
      assert.equal(snapshot.status, 'done');
      assert.equal(context.checkoutStatus === null ? context.setting !== null : context.checkoutStatus.status === 2, true);
      // Exam fee PAID; results PAID_ALL, or PAID_PART when only one item was chosen.
      if (context.purpose === 'exam_fee') assert.equal(view.paymentStatus, 2);
      else assert.ok([1, 2].includes(view.paymentStatus));
      assert.deepStrictEqual(view.selected, []);
    }
    // The exam fee shows PENDING exactly while the server confirms.
    const setting = context.setting;
    if (setting && 'payment_status' in setting && setting.payment_status === 0 && !snapshot.matches('paid')) {
      assert.equal(view.paymentStatus, snapshot.matches('confirming') ? 1 : 0);
    }
    // An unfinished checkout (PENDING on the server) stays PENDING until the server says PAID.
    if (setting && 'payment_status' in setting && setting.payment_status === 1 && !snapshot.matches('paid')) {
      assert.equal(view.paymentStatus, 1);
    }
    // Nothing paid or unavailable is ever chosen (a pending item may be: its checkout is resumed),
    // and the total is the chosen items' sum.
    for (const kind of context.selected) {
      const chosen = context.items.find((l) => l.kind === kind);
      assert.notEqual(chosen?.status, 2);
      assert.equal(chosen?.available, true);
    }
    assert.equal(view.totalMinor, context.items.filter((l) => context.selected.includes(l.kind)).reduce((s, l) => s + l.total_minor, 0));
    // Pay is offered only while choosing, with the terms agreed and something to buy.
    if (view.canCheckout) assert.equal(view.phase === 'choosing' && view.termsAccepted && view.selected.length > 0, true);
    // The status is asked a bounded number of times.
    assert.ok(context.checks <= MAX_STATUS_CHECKS);
    // A declined payment says why, with one of the seed's payment messages when the provider was reached.
    if (view.phase === 'declined') assert.notEqual(view.failure, null);
    if (view.phase === 'checkout') assert.equal(view.session?.provider, view.provider);
    // Back from Adyen's redirect, its result goes to Drop-in; a return confirms the checkout it named.
    if (view.phase === 'returning') assert.deepStrictEqual(view.redirect, { sessionId: returning.sessionId, redirectResult: returning.redirectResult });
    else assert.equal(view.redirect, null);
    if (snapshot.matches('confirming') && context.session === null) assert.equal(context.returning?.reference, REFERENCE);
    // "Payment complete" only for a checkout the server confirmed on this screen; otherwise "already paid".
    if (view.phase === 'paid') assert.equal(view.justPaid, context.checkoutStatus?.status === 2);
  },
});
