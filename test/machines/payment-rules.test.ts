/**
 * The payment machine's rules stated outright (seed sections 4 and 5): what loading the
 * settings leads to, what can be chosen, that a checkout needs the terms and an unpaid item,
 * what each call is given, that only the server's PAID pays (the exam fee PENDING meanwhile,
 * result items PAID_PART or PAID_ALL), how many status calls a checkout gets and how long it
 * waits between them (XState's simulated clock), which message an unconfirmed checkout ends
 * with; and its real calls over a port (payment.actors.ts).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyActorLogic } from 'xstate';
import type { ExamPaymentSetting, PaymentLine, PaymentSession, PaymentStatusResponse, ResultPaymentSetting } from '../../contract/payments.ts';
import { paymentActors, paymentPortOf } from '../../machines/payment/payment.actors.ts';
import { paymentMachine } from '../../machines/payment/payment.machine.ts';
import {
  canCheckout,
  chosenLines,
  isChoosable,
  MAX_STATUS_CHECKS,
  referenceOf,
  resultStatusOf,
  STATUS_BACKOFF_MAX_MS,
  STATUS_BACKOFF_MS,
  statusBackoffMs,
} from '../../machines/payment/payment.rules.ts';
import { viewOf } from '../../machines/payment/payment.selectors.ts';
import type { PaymentInput, PaymentReturn } from '../../machines/payment/payment.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';

const at = '2026-06-01T09:00:00.000Z';
const REFERENCE = 'GR-00000000-0000-4000-8000-000000000001';

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
const resultSetting = (provider: 'adyen' | 'demo', sheet: 0 | 1 | 2, certificate: 0 | 1 | 2, passed = true): ResultPaymentSetting => ({
  ...common(provider),
  items: [line('result_sheet', 500, sheet, sheet !== 2), line('certificate', 800, certificate, passed && certificate !== 2)],
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

/** The machine with calls that never settle (the test's events do), each call's input written down. */
function start(input: PaymentInput) {
  const calls: Array<{ src: string; input: unknown }> = [];
  const pending = (src: string) =>
    fromPromise(({ input: given }) => {
      calls.push({ src, input: given });
      return new Promise<never>(() => {});
    });
  const clock = new SimulatedClock();
  const actor = createActor(
    paymentMachine.provide({
      actors: {
        loadSetting: pending('loadSetting'),
        startCheckout: pending('startCheckout'),
        completeDemo: pending('completeDemo'),
        checkStatus: pending('checkStatus'),
      } as never,
    }),
    { input, clock },
  ).start();
  return { actor, calls, clock };
}

type Actor = ReturnType<typeof start>['actor'];
const answer = (actor: Actor, id: string, output: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
const fail = (actor: Actor, id: string, error: unknown) => actor.send({ type: `xstate.error.actor.${id}`, error } as never);
const stateOf = (actor: Actor) => actor.getSnapshot().value;
const contextOf = (actor: Actor) => actor.getSnapshot().context;

/** Choosing the exam fee (unpaid), terms agreed, Pay pressed, checkout open with `provider`. */
function examCheckout(provider: 'adyen' | 'demo', feeStatus: 0 | 1 = 0) {
  const run = start(exam);
  answer(run.actor, 'loadSetting', examSetting(provider, feeStatus));
  run.actor.send({ type: 'terms.toggled' });
  run.actor.send({ type: 'checkout.requested' });
  answer(run.actor, 'startCheckout', checkoutOf(provider, [line('exam_fee', 1500, 0, true)]));
  return run;
}

describe('payment: loading the settings', () => {
  it('asks for the settings of its sitting and purpose, busy, with nothing chosen or paid', () => {
    const { actor, calls } = start(result);
    expect(stateOf(actor)).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls).toEqual([{ src: 'loadSetting', input: { scheduleHistoryId: 7, purpose: 'result_fee' } }]);
    expect(contextOf(actor)).toEqual({
      ...result,
      returning: null,
      setting: null,
      items: [],
      selected: [],
      termsAccepted: false,
      session: null,
      providerResult: null,
      checkoutStatus: null,
      checks: 0,
      paymentStatus: 0,
      failure: null,
    });
  });

  it('chooses the unpaid exam fee by itself, and nothing of the result items', () => {
    const fee = start(exam);
    answer(fee.actor, 'loadSetting', examSetting('demo', 0));
    expect(stateOf(fee.actor)).toBe('choosing');
    expect(contextOf(fee.actor)).toMatchObject({ selected: ['exam_fee'], paymentStatus: 0, failure: null });
    expect(contextOf(fee.actor).items).toEqual(examSetting('demo', 0).items);
    const pending = start(exam);
    answer(pending.actor, 'loadSetting', examSetting('demo', 1));
    expect(contextOf(pending.actor)).toMatchObject({ selected: ['exam_fee'], paymentStatus: 1 });
    const items = start(result);
    answer(items.actor, 'loadSetting', resultSetting('demo', 0, 0));
    expect(contextOf(items.actor)).toMatchObject({ selected: [], paymentStatus: 0 });
    const part = start(result);
    answer(part.actor, 'loadSetting', resultSetting('demo', 2, 0));
    expect(stateOf(part.actor)).toBe('choosing');
    expect(contextOf(part.actor).paymentStatus).toBe(2);
  });

  it('is paid at once when everything is paid: the exam fee PAID, result items PAID_ALL', () => {
    const fee = start(exam);
    answer(fee.actor, 'loadSetting', examSetting('demo', 2));
    expect(stateOf(fee.actor)).toBe('paid');
    expect(fee.actor.getSnapshot().output).toEqual({ paymentStatus: 2 });
    const all = start(result);
    answer(all.actor, 'loadSetting', resultSetting('demo', 2, 2));
    expect(stateOf(all.actor)).toBe('paid');
    expect(all.actor.getSnapshot().output).toEqual({ paymentStatus: 1 });
  });

  it('keeps a failed load with its code and loads again on retry', () => {
    const { actor, calls } = start(exam);
    fail(actor, 'loadSetting', new ApiFailure('NETWORK_ERROR'));
    expect(stateOf(actor)).toBe('loadFailed');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(contextOf(actor).failure).toBe('NETWORK_ERROR');
    actor.send({ type: 'retry.requested' });
    expect(stateOf(actor)).toBe('loading');
    expect(calls).toHaveLength(2);
    answer(actor, 'loadSetting', examSetting('demo', 0));
    expect(contextOf(actor).failure).toBeNull();
  });

  it("back from Adyen's redirect with its result: Drop-in finishes it (returning), the demo's: confirming", () => {
    const returning: PaymentReturn = { reference: REFERENCE, sessionId: 'CS1234', redirectResult: 'X6Xtf' };
    const adyen = start({ ...exam, returning });
    answer(adyen.actor, 'loadSetting', examSetting('adyen', 1));
    expect(stateOf(adyen.actor)).toBe('returning');
    expect(adyen.actor.getSnapshot().hasTag('busy')).toBe(true);
    adyen.actor.send({ type: 'provider.completed', result: 'authorised' });
    expect(stateOf(adyen.actor)).toEqual({ confirming: 'checking' });
    expect(contextOf(adyen.actor)).toMatchObject({ providerResult: 'authorised', paymentStatus: 1, checks: 1 });
    expect(adyen.calls.at(-1)).toEqual({ src: 'checkStatus', input: { reference: REFERENCE } });

    for (const partial of [
      { ...returning, sessionId: null },
      { ...returning, redirectResult: null },
    ]) {
      const run = start({ ...exam, returning: partial });
      answer(run.actor, 'loadSetting', examSetting('adyen', 1));
      expect(stateOf(run.actor)).toEqual({ confirming: 'checking' });
    }
    // The demo provider with a redirect result: still the server's word, no Drop-in.
    const demo = start({ ...result, returning });
    answer(demo.actor, 'loadSetting', resultSetting('demo', 0, 0));
    expect(stateOf(demo.actor)).toEqual({ confirming: 'checking' });
    expect(contextOf(demo.actor).paymentStatus).toBe(0);
    const fee = start({ ...exam, returning: { ...returning, sessionId: null, redirectResult: null } });
    answer(fee.actor, 'loadSetting', examSetting('demo', 0));
    expect(stateOf(fee.actor)).toEqual({ confirming: 'checking' });
    // The exam fee is PENDING while the server confirms (seed section 4).
    expect(contextOf(fee.actor).paymentStatus).toBe(1);
  });
});

describe('payment: choosing and the checkout', () => {
  it('ticks only choosable result items, toggles them, and never the exam fee', () => {
    const { actor } = start(result);
    answer(actor, 'loadSetting', resultSetting('demo', 2, 0));
    actor.send({ type: 'item.toggled', kind: 'result_sheet' });
    expect(contextOf(actor).selected).toEqual([]);
    actor.send({ type: 'item.toggled', kind: 'certificate' });
    expect(contextOf(actor).selected).toEqual(['certificate']);
    actor.send({ type: 'item.toggled', kind: 'certificate' });
    expect(contextOf(actor).selected).toEqual([]);
    const notPassed = start(result);
    answer(notPassed.actor, 'loadSetting', resultSetting('demo', 0, 0, false));
    notPassed.actor.send({ type: 'item.toggled', kind: 'certificate' });
    notPassed.actor.send({ type: 'item.toggled', kind: 'result_sheet' });
    expect(contextOf(notPassed.actor).selected).toEqual(['result_sheet']);
    const fee = start(exam);
    answer(fee.actor, 'loadSetting', examSetting('demo', 0));
    fee.actor.send({ type: 'item.toggled', kind: 'certificate' });
    expect(contextOf(fee.actor).selected).toEqual(['exam_fee']);
  });

  it('starts a checkout only with the terms agreed and an item chosen, with what is chosen and the return URL', () => {
    const { actor, calls } = start(result);
    answer(actor, 'loadSetting', resultSetting('demo', 0, 0));
    actor.send({ type: 'item.toggled', kind: 'certificate' });
    actor.send({ type: 'checkout.requested' });
    expect(stateOf(actor)).toBe('choosing');
    actor.send({ type: 'terms.toggled' });
    expect(contextOf(actor).termsAccepted).toBe(true);
    actor.send({ type: 'terms.toggled' });
    expect(contextOf(actor).termsAccepted).toBe(false);
    actor.send({ type: 'terms.toggled' });
    actor.send({ type: 'item.toggled', kind: 'certificate' });
    actor.send({ type: 'checkout.requested' });
    expect(stateOf(actor)).toBe('choosing');
    actor.send({ type: 'item.toggled', kind: 'result_sheet' });
    actor.send({ type: 'item.toggled', kind: 'certificate' });
    actor.send({ type: 'checkout.requested' });
    expect(stateOf(actor)).toBe('startingCheckout');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls.at(-1)).toEqual({
      src: 'startCheckout',
      input: { scheduleHistoryId: 7, purpose: 'result_fee', items: ['result_sheet', 'certificate'], returnUrl: result.returnUrl },
    });
    const fee = examCheckout('demo');
    expect(fee.calls.find((call) => call.src === 'startCheckout')?.input).toEqual({
      scheduleHistoryId: 7,
      purpose: 'exam_fee',
      items: [],
      returnUrl: exam.returnUrl,
    });
    expect(stateOf(fee.actor)).toBe('checkout');
    expect(contextOf(fee.actor)).toMatchObject({ session: { reference: REFERENCE }, providerResult: null, checks: 0, failure: null });
  });

  it('reloads the settings when already paid elsewhere, and declines other checkout failures', () => {
    const run = start(exam);
    answer(run.actor, 'loadSetting', examSetting('demo', 0));
    run.actor.send({ type: 'terms.toggled' });
    run.actor.send({ type: 'checkout.requested' });
    fail(run.actor, 'startCheckout', new ApiFailure('ALREADY_PAID', 409));
    expect(stateOf(run.actor)).toBe('loading');
    answer(run.actor, 'loadSetting', examSetting('demo', 0));
    run.actor.send({ type: 'checkout.requested' });
    fail(run.actor, 'startCheckout', new ApiFailure('PAYMENT_ERROR', 422));
    expect(stateOf(run.actor)).toBe('declined');
    expect(run.actor.getSnapshot().hasTag('error')).toBe(true);
    expect(contextOf(run.actor).failure).toBe('PAYMENT_ERROR');
    run.actor.send({ type: 'again.requested' });
    expect(stateOf(run.actor)).toBe('choosing');
    expect(contextOf(run.actor)).toMatchObject({ session: null, returning: null, providerResult: null, checkoutStatus: null, checks: 0, failure: null });
  });

  it("takes Drop-in's result only for an Adyen checkout and the demo panel's only for a demo one", () => {
    const adyen = examCheckout('adyen');
    adyen.actor.send({ type: 'demo.chosen', outcome: 'authorised' });
    expect(stateOf(adyen.actor)).toBe('checkout');
    adyen.actor.send({ type: 'provider.completed', result: 'authorised' });
    expect(stateOf(adyen.actor)).toEqual({ confirming: 'checking' });
    expect(adyen.actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(contextOf(adyen.actor)).toMatchObject({ providerResult: 'authorised', paymentStatus: 1 });
    const demo = examCheckout('demo');
    demo.actor.send({ type: 'provider.completed', result: 'authorised' });
    expect(stateOf(demo.actor)).toBe('checkout');
    demo.actor.send({ type: 'demo.chosen', outcome: 'cancelled' });
    expect(stateOf(demo.actor)).toEqual({ confirming: 'reportingDemo' });
    expect(contextOf(demo.actor)).toMatchObject({ providerResult: 'cancelled', paymentStatus: 1 });
    expect(demo.calls.at(-1)).toEqual({ src: 'completeDemo', input: { reference: REFERENCE, outcome: 'cancelled' } });
  });

  it('reports the demo outcome as chosen (authorised otherwise), then judges the answer', () => {
    for (const outcome of ['authorised', 'refused'] as const) {
      const run = examCheckout('demo');
      run.actor.send({ type: 'demo.chosen', outcome });
      expect(run.calls.at(-1)).toEqual({ src: 'completeDemo', input: { reference: REFERENCE, outcome } });
    }
    const paid = examCheckout('demo');
    paid.actor.send({ type: 'demo.chosen', outcome: 'authorised' });
    answer(paid.actor, 'completeDemo', statusOf(2, 'paid', ['exam_fee']));
    expect(stateOf(paid.actor)).toBe('paid');
    expect(paid.actor.getSnapshot().output).toEqual({ paymentStatus: 2 });
    expect(contextOf(paid.actor).items).toEqual([{ ...line('exam_fee', 1500, 2, false) }]);
    expect(contextOf(paid.actor).selected).toEqual([]);
    const failed = examCheckout('demo', 1);
    failed.actor.send({ type: 'demo.chosen', outcome: 'authorised' });
    fail(failed.actor, 'completeDemo', new ApiFailure('GENERIC_ERROR', 500));
    expect(stateOf(failed.actor)).toBe('declined');
    // The status as the server last had it: PENDING (an unfinished checkout).
    expect(contextOf(failed.actor)).toMatchObject({ failure: 'GENERIC_ERROR', paymentStatus: 1 });
  });
});

describe('payment: confirming with the server', () => {
  it.each([
    ['refused', 'PAYMENT_REFUSED'],
    ['cancelled', 'PAYMENT_CANCELED'],
    ['error', 'PAYMENT_ERROR'],
    ['expired', 'PAYMENT_ERROR'],
  ] as const)('a checkout the server says is %s is declined with %s, the fee back to its status', (outcome, failure) => {
    const { actor } = examCheckout('adyen');
    actor.send({ type: 'provider.completed', result: 'authorised' });
    answer(actor, 'checkStatus', statusOf(0, outcome, ['exam_fee']));
    expect(stateOf(actor)).toBe('declined');
    expect(contextOf(actor)).toMatchObject({ failure, paymentStatus: 0 });
  });

  it('asks again after 500 ms, doubling to at most 4 s, at most MAX_STATUS_CHECKS times, then says why by the provider', () => {
    const { actor, calls, clock } = examCheckout('adyen');
    actor.send({ type: 'provider.completed', result: 'authorised' });
    const statusCalls = () => calls.filter((call) => call.src === 'checkStatus').length;
    for (let check = 1; check < MAX_STATUS_CHECKS; check += 1) {
      expect(contextOf(actor).checks).toBe(check);
      answer(actor, 'checkStatus', statusOf(1, 'open', ['exam_fee']));
      expect(stateOf(actor)).toEqual({ confirming: 'waiting' });
      const wait = Math.min(STATUS_BACKOFF_MS * 2 ** (check - 1), STATUS_BACKOFF_MAX_MS);
      clock.increment(wait - 1);
      expect(statusCalls()).toBe(check);
      clock.increment(1);
      expect(statusCalls()).toBe(check + 1);
    }
    answer(actor, 'checkStatus', statusOf(1, 'open', ['exam_fee']));
    expect(stateOf(actor)).toBe('declined');
    expect(contextOf(actor)).toMatchObject({ failure: 'PAYMENT_ERROR', checks: MAX_STATUS_CHECKS, paymentStatus: 0 });
  });

  it.each([
    ['refused', 'PAYMENT_REFUSED'],
    ['cancelled', 'PAYMENT_CANCELED'],
    ['error', 'PAYMENT_ERROR'],
  ] as const)('after the provider said %s, one look: the server still open ends with %s', (providerResult, failure) => {
    const { actor } = examCheckout('adyen');
    actor.send({ type: 'provider.completed', result: providerResult });
    answer(actor, 'checkStatus', statusOf(1, 'open', ['exam_fee']));
    expect(stateOf(actor)).toBe('declined');
    expect(contextOf(actor).failure).toBe(failure);
  });

  it('waits on a network failure or time-out while checks are left; declines on any other failure', () => {
    const { actor, clock, calls } = examCheckout('adyen');
    actor.send({ type: 'provider.completed', result: 'pending' });
    fail(actor, 'checkStatus', new ApiFailure('NETWORK_ERROR'));
    expect(stateOf(actor)).toEqual({ confirming: 'waiting' });
    clock.increment(STATUS_BACKOFF_MS);
    fail(actor, 'checkStatus', new ApiFailure('TIMEOUT'));
    expect(stateOf(actor)).toEqual({ confirming: 'waiting' });
    clock.increment(STATUS_BACKOFF_MS * 2);
    expect(calls.filter((call) => call.src === 'checkStatus')).toHaveLength(3);
    fail(actor, 'checkStatus', new ApiFailure('NOT_FOUND', 404));
    expect(stateOf(actor)).toBe('declined');
    expect(contextOf(actor)).toMatchObject({ failure: 'NOT_FOUND', paymentStatus: 0 });
    // After a refusal by the provider, one look only: a network failure then declines.
    const refused = examCheckout('adyen');
    refused.actor.send({ type: 'provider.completed', result: 'refused' });
    fail(refused.actor, 'checkStatus', new ApiFailure('NETWORK_ERROR'));
    expect(stateOf(refused.actor)).toBe('declined');
    expect(contextOf(refused.actor).failure).toBe('NETWORK_ERROR');
  });

  it('marks paid what the server says the checkout paid, and the result status from the items', () => {
    const { actor } = start(result);
    answer(actor, 'loadSetting', resultSetting('adyen', 0, 0));
    actor.send({ type: 'terms.toggled' });
    actor.send({ type: 'item.toggled', kind: 'result_sheet' });
    actor.send({ type: 'item.toggled', kind: 'certificate' });
    actor.send({ type: 'checkout.requested' });
    answer(actor, 'startCheckout', checkoutOf('adyen', [line('result_sheet', 500, 0, true), line('certificate', 800, 0, true)]));
    actor.send({ type: 'provider.completed', result: 'authorised' });
    // The result payment has no PENDING of its own.
    expect(contextOf(actor).paymentStatus).toBe(0);
    answer(actor, 'checkStatus', statusOf(2, 'paid', ['result_sheet']));
    expect(stateOf(actor)).toBe('paid');
    expect(contextOf(actor).items).toEqual([line('result_sheet', 500, 2, false), line('certificate', 800, 0, true)]);
    expect(contextOf(actor).selected).toEqual(['certificate']);
    expect(actor.getSnapshot().output).toEqual({ paymentStatus: 2 });
    expect(viewOf(actor.getSnapshot()).justPaid).toBe(true);
  });

  it("without the server's kinds, marks paid the checkout's items, else what was chosen", () => {
    const { actor } = start(result);
    answer(actor, 'loadSetting', resultSetting('adyen', 0, 0));
    actor.send({ type: 'terms.toggled' });
    actor.send({ type: 'item.toggled', kind: 'result_sheet' });
    actor.send({ type: 'item.toggled', kind: 'certificate' });
    actor.send({ type: 'checkout.requested' });
    answer(actor, 'startCheckout', checkoutOf('adyen', [line('result_sheet', 500, 0, true), line('certificate', 800, 0, true)]));
    actor.send({ type: 'provider.completed', result: 'authorised' });
    answer(actor, 'checkStatus', { ...statusOf(2, 'paid', []), kinds: undefined } as unknown as PaymentStatusResponse);
    expect(actor.getSnapshot().output).toEqual({ paymentStatus: 1 });
    const returning: PaymentReturn = { reference: REFERENCE, sessionId: null, redirectResult: null };
    const back = start({ ...result, returning });
    answer(back.actor, 'loadSetting', resultSetting('demo', 0, 0));
    expect(back.calls.at(-1)).toEqual({ src: 'checkStatus', input: { reference: REFERENCE } });
    answer(back.actor, 'checkStatus', { ...statusOf(2, 'paid', []), kinds: undefined } as unknown as PaymentStatusResponse);
    expect(stateOf(back.actor)).toBe('paid');
    // Nothing was chosen and no checkout opened here: nothing is marked, NOT_PAID.
    expect(back.actor.getSnapshot().output).toEqual({ paymentStatus: 0 });
  });
});

describe('payment rules', () => {
  it('a line can be chosen while available and not PAID (a PENDING one too)', () => {
    expect(isChoosable(line('result_sheet', 500, 0, true))).toBe(true);
    expect(isChoosable(line('result_sheet', 500, 1, true))).toBe(true);
    expect(isChoosable(line('result_sheet', 500, 2, true))).toBe(false);
    expect(isChoosable(line('result_sheet', 500, 0, false))).toBe(false);
  });

  it('confirms the checkout opened here, else the one the redirect named, else none', () => {
    const session = checkoutOf('demo', []);
    const returning = { reference: 'OTHER-REF', sessionId: null, redirectResult: null };
    expect(referenceOf({ session, returning })).toBe(REFERENCE);
    expect(referenceOf({ session: null, returning })).toBe('OTHER-REF');
    expect(referenceOf({ session: null, returning: null })).toBe('');
  });

  it('counts the result items PAID: PAID_ALL 1 for both, PAID_PART 2 for one, NOT_PAID 0', () => {
    expect(resultStatusOf([line('result_sheet', 1, 2, false), line('certificate', 1, 2, false)])).toBe(1);
    expect(resultStatusOf([line('result_sheet', 1, 2, false), line('certificate', 1, 1, true)])).toBe(2);
    expect(resultStatusOf([line('result_sheet', 1, 0, true), line('certificate', 1, 2, false)])).toBe(2);
    expect(resultStatusOf([line('result_sheet', 1, 1, true), line('certificate', 1, 0, true)])).toBe(0);
    expect(resultStatusOf([line('exam_fee', 1, 2, false), line('exam_fee', 1, 2, false)])).toBe(0);
  });

  it('checks out only chosen, choosable lines with the terms agreed', () => {
    const items = [line('result_sheet', 500, 2, false), line('certificate', 800, 0, true)];
    expect(chosenLines({ items, selected: ['result_sheet', 'certificate'] })).toEqual([items[1]]);
    expect(canCheckout({ items, selected: ['certificate'], termsAccepted: true })).toBe(true);
    expect(canCheckout({ items, selected: ['certificate'], termsAccepted: false })).toBe(false);
    expect(canCheckout({ items, selected: ['result_sheet'], termsAccepted: true })).toBe(false);
  });

  it('waits 500 ms before the second status call, doubling to 4 s', () => {
    expect([1, 2, 3, 4, 5, 8].map(statusBackoffMs)).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    expect(MAX_STATUS_CHECKS).toBe(8);
  });
});

describe('payment actors', () => {
  const run = (logic: unknown, input: unknown) =>
    new Promise((resolve, reject) => {
      const actor = createActor(logic as AnyActorLogic, { input });
      actor.subscribe({ complete: () => resolve(actor.getSnapshot().output), error: reject });
      actor.start();
    });

  it('sends each call of its purpose with the terms agreed and the return URL', async () => {
    const sent: unknown[] = [];
    const record = (name: string) => (arg: unknown) => {
      sent.push([name, arg]);
      return Promise.resolve(name);
    };
    const actors = paymentActors(
      paymentPortOf({
        examPaymentSetting: record('examPaymentSetting') as never,
        resultPaymentSetting: record('resultPaymentSetting') as never,
        createExamFeeSession: record('createExamFeeSession') as never,
        createResultFeeSession: record('createResultFeeSession') as never,
        paymentStatus: record('paymentStatus') as never,
        completeDemoPayment: record('completeDemoPayment') as never,
      }),
    );
    expect(await run(actors.loadSetting, { scheduleHistoryId: 7, purpose: 'exam_fee' })).toBe('examPaymentSetting');
    expect(await run(actors.loadSetting, { scheduleHistoryId: 8, purpose: 'result_fee' })).toBe('resultPaymentSetting');
    await run(actors.startCheckout, { scheduleHistoryId: 7, purpose: 'exam_fee', items: [], returnUrl: 'https://r/1' });
    await run(actors.startCheckout, { scheduleHistoryId: 8, purpose: 'result_fee', items: ['certificate'], returnUrl: 'https://r/2' });
    await run(actors.completeDemo, { reference: REFERENCE, outcome: 'refused' });
    await run(actors.checkStatus, { reference: REFERENCE });
    expect(sent).toEqual([
      ['examPaymentSetting', 7],
      ['resultPaymentSetting', 8],
      ['createExamFeeSession', { schedule_history_id: 7, terms_accepted: true, return_url: 'https://r/1' }],
      ['createResultFeeSession', { schedule_history_id: 8, items: ['certificate'], terms_accepted: true, return_url: 'https://r/2' }],
      ['completeDemoPayment', { reference: REFERENCE, outcome: 'refused' }],
      ['paymentStatus', REFERENCE],
    ]);
  });

  it('fails each call the port lacks as GENERIC_ERROR', async () => {
    const port = paymentPortOf({});
    for (const call of [
      () => port.examPaymentSetting(7),
      () => port.resultPaymentSetting(7),
      () => port.createExamFeeSession({ schedule_history_id: 7, terms_accepted: true, return_url: 'https://r' }),
      () => port.createResultFeeSession({ schedule_history_id: 7, items: ['certificate'], terms_accepted: true, return_url: 'https://r' }),
      () => port.paymentStatus(REFERENCE),
      () => port.completeDemoPayment({ reference: REFERENCE, outcome: 'authorised' }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'GENERIC_ERROR' });
    }
  });
});

describe('payment stand-ins', () => {
  it('say that the edge provides every call', async () => {
    for (const name of ['loadSetting', 'startCheckout', 'completeDemo', 'checkStatus'] as const) {
      const actor = createActor(paymentMachine.implementations.actors[name] as AnyActorLogic, { input: {} });
      const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve }));
      actor.start();
      expect(((await failed) as Error).message).toBe(`${name} is provided by the edge (payment.actors.ts)`);
    }
  });
});
