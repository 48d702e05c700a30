/**
 * What the payment screen reads (machines/payment/payment.selectors.ts, `viewOf`), stated field
 * by field for every state the real payment machine reaches: the phase of each state, the
 * provider and Adyen's client settings once loaded, the total of the chosen unpaid items, Pay
 * only while choosing, the checkout session only while it is open or paid, the redirect only
 * while returning, "just paid" only for a checkout the server confirmed, the failure only when
 * declined or the load failed. The calls are fakes the test answers.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { ExamPaymentSetting, PaymentLine, PaymentSession, PaymentStatusResponse, ResultPaymentSetting } from '../../contract/payments.ts';
import { paymentMachine } from '../../machines/payment/payment.machine.ts';
import { viewOf } from '../../machines/payment/payment.selectors.ts';
import type { PaymentInput, PaymentReturn, PaymentView } from '../../machines/payment/payment.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';

const at = '2026-06-01T09:00:00.000Z';
const REFERENCE = 'GR-00000000-0000-4000-8000-000000000001';
const ADYEN = { client_key: 'test_CLIENTKEY', environment: 'test' as const };

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
  adyen: provider === 'adyen' ? ADYEN : null,
  server_time: at,
});
const examSetting = (provider: 'adyen' | 'demo', status: 0 | 1 | 2): ExamPaymentSetting => ({
  ...common(provider),
  items: [line('exam_fee', 1500, status, status !== 2)],
  payment_status: status,
});
const resultSetting = (provider: 'adyen' | 'demo', sheet: 0 | 1 | 2, certificate: 0 | 1 | 2): ResultPaymentSetting => ({
  ...common(provider),
  items: [line('result_sheet', 500, sheet, sheet !== 2), line('certificate', 800, certificate, certificate !== 2)],
  result_payment_status: sheet === 2 && certificate === 2 ? 1 : sheet === 2 || certificate === 2 ? 2 : 0,
});
const checkoutOf = (provider: 'adyen' | 'demo', items: PaymentLine[]): PaymentSession => ({
  reference: REFERENCE,
  provider,
  currency: 'USD',
  amount_minor: items.reduce((sum, l) => sum + l.total_minor, 0),
  items,
  adyen_session: provider === 'adyen' ? { id: 'CS1234', session_data: 'Ab02b4c0' } : null,
  expires_at: '2026-06-01T10:00:00.000Z',
  server_time: at,
});
const statusOf = (status: 0 | 1 | 2, outcome: PaymentStatusResponse['outcome'], kinds: PaymentLine['kind'][]): PaymentStatusResponse => ({
  reference: REFERENCE,
  status,
  outcome,
  kinds,
  server_time: at,
});

const exam: PaymentInput = { scheduleHistoryId: 7, purpose: 'exam_fee', returnUrl: 'https://gradus.test/pay-exam-fee?schedule_history_id=7' };
const result: PaymentInput = { scheduleHistoryId: 7, purpose: 'result_fee', returnUrl: 'https://gradus.test/pay-exam-result?schedule_history_id=7' };
const feeLine = line('exam_fee', 1500, 0, true);

/** The real machine with calls that never settle: the test answers them with their done/error events. */
function start(input: PaymentInput) {
  const pending = fromPromise(() => new Promise<never>(() => {}));
  const actor = createActor(
    paymentMachine.provide({
      actors: { loadSetting: pending, startCheckout: pending, completeDemo: pending, checkStatus: pending } as never,
    }),
    { input, clock: new SimulatedClock() },
  ).start();
  return actor;
}
type Actor = ReturnType<typeof start>;
const answer = (actor: Actor, id: string, output: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
const fail = (actor: Actor, id: string, error: unknown) => actor.send({ type: `xstate.error.actor.${id}`, error } as never);
const view = (actor: Actor) => viewOf(actor.getSnapshot());

/** The view of a screen of `purpose` before anything has loaded; each case states what differs. */
const nothing = (purpose: PaymentInput['purpose']): PaymentView => ({
  phase: 'loading',
  purpose,
  provider: null,
  adyen: null,
  items: [],
  selected: [],
  totalMinor: 0,
  termsAccepted: false,
  canCheckout: false,
  session: null,
  redirect: null,
  justPaid: false,
  paymentStatus: 0,
  failure: null,
});

/** The exam fee (unpaid) chosen with `provider`, terms agreed, Pay pressed. */
function examStarting(provider: 'adyen' | 'demo') {
  const actor = start(exam);
  answer(actor, 'loadSetting', examSetting(provider, 0));
  actor.send({ type: 'terms.toggled' });
  actor.send({ type: 'checkout.requested' });
  return actor;
}
/** ... and its checkout open. */
function examCheckout(provider: 'adyen' | 'demo') {
  const actor = examStarting(provider);
  answer(actor, 'startCheckout', checkoutOf(provider, [feeLine]));
  return actor;
}
const examChosen = (provider: 'adyen' | 'demo', termsAccepted: boolean): PaymentView => ({
  ...nothing('exam_fee'),
  phase: 'choosing',
  provider,
  adyen: provider === 'adyen' ? ADYEN : null,
  items: [feeLine],
  selected: ['exam_fee'],
  totalMinor: 1500,
  termsAccepted,
  canCheckout: termsAccepted,
});

describe('payment view: loading the settings', () => {
  it('loading: the purpose and nothing else', () => {
    expect(view(start(result))).toEqual(nothing('result_fee'));
    expect(view(start(exam))).toEqual(nothing('exam_fee'));
  });

  it('loadFailed: the failure; loading again: none shown while the failure is still held', () => {
    const actor = start(exam);
    fail(actor, 'loadSetting', new ApiFailure('NETWORK_ERROR'));
    expect(view(actor)).toEqual({ ...nothing('exam_fee'), phase: 'loadFailed', failure: 'NETWORK_ERROR' });
    actor.send({ type: 'retry.requested' });
    expect(actor.getSnapshot().context.failure).toBe('NETWORK_ERROR');
    expect(view(actor)).toEqual(nothing('exam_fee'));
  });

  it('paid on load: paid, not just paid, no session', () => {
    const actor = start(exam);
    answer(actor, 'loadSetting', examSetting('demo', 2));
    expect(view(actor)).toEqual({
      ...nothing('exam_fee'),
      phase: 'paid',
      provider: 'demo',
      items: [line('exam_fee', 1500, 2, false)],
      paymentStatus: 2,
    });
    const all = start(result);
    answer(all, 'loadSetting', resultSetting('adyen', 2, 2));
    expect(view(all)).toEqual({
      ...nothing('result_fee'),
      phase: 'paid',
      provider: 'adyen',
      adyen: ADYEN,
      items: resultSetting('adyen', 2, 2).items,
      paymentStatus: 1,
    });
  });
});

describe('payment view: choosing', () => {
  it('the exam fee: chosen, its price the total; Pay once the terms are agreed', () => {
    const actor = start(exam);
    answer(actor, 'loadSetting', examSetting('adyen', 0));
    expect(view(actor)).toEqual(examChosen('adyen', false));
    actor.send({ type: 'terms.toggled' });
    expect(view(actor)).toEqual(examChosen('adyen', true));
    const demo = start(exam);
    answer(demo, 'loadSetting', examSetting('demo', 0));
    expect(view(demo)).toEqual(examChosen('demo', false));
  });

  it('result items: the total is the sum of the chosen unpaid ones; Pay needs one chosen', () => {
    const actor = start(result);
    answer(actor, 'loadSetting', resultSetting('demo', 0, 0));
    actor.send({ type: 'terms.toggled' });
    const base: PaymentView = { ...nothing('result_fee'), phase: 'choosing', provider: 'demo', items: resultSetting('demo', 0, 0).items, termsAccepted: true };
    expect(view(actor)).toEqual(base);
    actor.send({ type: 'item.toggled', kind: 'certificate' });
    expect(view(actor)).toEqual({ ...base, selected: ['certificate'], totalMinor: 800, canCheckout: true });
    actor.send({ type: 'item.toggled', kind: 'result_sheet' });
    expect(view(actor)).toEqual({ ...base, selected: ['certificate', 'result_sheet'], totalMinor: 1300, canCheckout: true });
    const part = start(result);
    answer(part, 'loadSetting', resultSetting('demo', 2, 0));
    expect(view(part)).toEqual({ ...nothing('result_fee'), phase: 'choosing', provider: 'demo', items: resultSetting('demo', 2, 0).items, paymentStatus: 2 });
  });
});

describe('payment view: the checkout', () => {
  it('startingCheckout: no Pay and no session while it opens', () => {
    expect(view(examStarting('adyen'))).toEqual({ ...examChosen('adyen', true), phase: 'startingCheckout', canCheckout: false });
  });

  it('checkout: the open session', () => {
    expect(view(examCheckout('adyen'))).toEqual({ ...examChosen('adyen', true), phase: 'checkout', canCheckout: false, session: checkoutOf('adyen', [feeLine]) });
    expect(view(examCheckout('demo'))).toEqual({ ...examChosen('demo', true), phase: 'checkout', canCheckout: false, session: checkoutOf('demo', [feeLine]) });
  });

  it('confirming: the session still shown, PENDING, while checking and while waiting for the next check', () => {
    const actor = examCheckout('adyen');
    actor.send({ type: 'provider.completed', result: 'authorised' });
    const confirming = { ...examChosen('adyen', true), phase: 'confirming', canCheckout: false, session: checkoutOf('adyen', [feeLine]), paymentStatus: 1 } as const;
    expect(view(actor)).toEqual(confirming);
    answer(actor, 'checkStatus', statusOf(1, 'open', ['exam_fee']));
    expect(actor.getSnapshot().value).toEqual({ confirming: 'waiting' });
    expect(view(actor)).toEqual(confirming);
  });

  it('paid by the checkout: just paid, its session kept', () => {
    const actor = examCheckout('demo');
    actor.send({ type: 'demo.chosen', outcome: 'authorised' });
    answer(actor, 'completeDemo', statusOf(2, 'paid', ['exam_fee']));
    expect(view(actor)).toEqual({
      ...nothing('exam_fee'),
      phase: 'paid',
      provider: 'demo',
      items: [line('exam_fee', 1500, 2, false)],
      termsAccepted: true,
      session: checkoutOf('demo', [feeLine]),
      justPaid: true,
      paymentStatus: 2,
    });
  });

  it('declined: the failure, no session (the machine still holds it), Pay only after "try again"', () => {
    const actor = examCheckout('demo');
    actor.send({ type: 'demo.chosen', outcome: 'refused' });
    answer(actor, 'completeDemo', statusOf(0, 'refused', ['exam_fee']));
    expect(actor.getSnapshot().context.session).not.toBeNull();
    expect(view(actor)).toEqual({ ...examChosen('demo', true), phase: 'declined', canCheckout: false, failure: 'PAYMENT_REFUSED' });
    actor.send({ type: 'again.requested' });
    expect(view(actor)).toEqual(examChosen('demo', true));
    const failed = examStarting('demo');
    fail(failed, 'startCheckout', new ApiFailure('PAYMENT_ERROR', 422));
    expect(view(failed)).toEqual({ ...examChosen('demo', true), phase: 'declined', canCheckout: false, failure: 'PAYMENT_ERROR' });
  });
});

describe("payment view: back from Adyen's redirect", () => {
  const returning: PaymentReturn = { reference: REFERENCE, sessionId: 'CS1234', redirectResult: 'X6Xtf' };
  const loadedBack = (back: PaymentReturn) => {
    const actor = start({ ...exam, returning: back });
    answer(actor, 'loadSetting', examSetting('adyen', 1));
    return actor;
  };
  const back: PaymentView = { ...examChosen('adyen', false), items: [line('exam_fee', 1500, 1, true)], paymentStatus: 1, canCheckout: false };

  it('returning: what Drop-in needs to finish it; confirming after: no redirect any more', () => {
    const actor = loadedBack(returning);
    expect(view(actor)).toEqual({ ...back, phase: 'returning', redirect: { sessionId: 'CS1234', redirectResult: 'X6Xtf' } });
    actor.send({ type: 'provider.completed', result: 'authorised' });
    expect(actor.getSnapshot().context.returning).toEqual(returning);
    expect(view(actor)).toEqual({ ...back, phase: 'confirming' });
  });

  it('a return without a session id or redirect result: confirming at once, no redirect', () => {
    for (const partial of [
      { ...returning, sessionId: null },
      { ...returning, redirectResult: null },
    ]) {
      expect(view(loadedBack(partial))).toEqual({ ...back, phase: 'confirming' });
    }
  });

  it('confirmed by the server after the return: just paid, with no session of this visit', () => {
    const actor = loadedBack({ ...returning, redirectResult: null });
    answer(actor, 'checkStatus', statusOf(2, 'paid', ['exam_fee']));
    expect(view(actor)).toEqual({ ...back, phase: 'paid', items: [line('exam_fee', 1500, 2, false)], justPaid: true, paymentStatus: 2, selected: [], totalMinor: 0 });
  });
});
