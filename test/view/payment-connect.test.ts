/**
 * payment.connect.ts as a pure function: a snapshot of the payment machine (driven with its own
 * events) or a PaymentView in, exactly what the payment screen renders out. Which items are
 * paid, tickable, pending or not for sale (and why), when Pay can be pressed and what it says
 * otherwise, the provider's part of a checkout, what was paid, and where every callback goes:
 * the payment's events to the payment actor, Back and Continue to the machine that runs it.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { ExamPaymentSetting, PaymentLine, PaymentSession, ResultPaymentSetting } from '../../contract/payments.ts';
import { apiOf, connect, type PaymentOwnerEvent } from '../../machines/payment/payment.connect.ts';
import { paymentMachine } from '../../machines/payment/payment.machine.ts';
import type { PaymentEvent, PaymentPurpose, PaymentView } from '../../machines/payment/payment.types.ts';
import { isPendingSnapshot, lazyMachine, type LazyModule } from '../../machines/shared/lazy-machine.ts';
import { never } from '../helpers/never.ts';

const at = '2026-06-01T09:00:00.000Z';
const line = (kind: PaymentLine['kind'], unit: number, status: 0 | 1 | 2, available: boolean): PaymentLine => ({
  kind,
  quantity: 1,
  unit_price_minor: unit,
  total_minor: unit,
  status,
  available,
});
const common = { schedule_history_id: 7, provider: 'demo' as const, currency: 'USD' as const, adyen: null, server_time: at };
const examSetting = (status: 0 | 1 | 2): ExamPaymentSetting => ({ ...common, items: [line('exam_fee', 1500, status, status !== 2)], payment_status: status });
const resultSetting = (items: PaymentLine[]): ResultPaymentSetting => ({ ...common, items, result_payment_status: 0 });

/** A payment screen loaded with `setting`. */
function loaded(purpose: PaymentPurpose, setting: ExamPaymentSetting | ResultPaymentSetting) {
  const actor = createActor(
    paymentMachine.provide({ actors: { loadSetting: never(), startCheckout: never(), completeDemo: never(), checkStatus: never() } }),
    { input: { scheduleHistoryId: 7, purpose, returnUrl: 'https://gradus.test/pay' } },
  ).start();
  actor.send({ type: 'xstate.done.actor.loadSetting', output: setting } as never);
  return actor;
}

function recorder() {
  const sent: PaymentEvent[] = [];
  const owner: PaymentOwnerEvent[] = [];
  return { sent, owner, send: (event: PaymentEvent) => sent.push(event), toOwner: (event: PaymentOwnerEvent) => owner.push(event) };
}

function view(overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    phase: 'choosing',
    purpose: 'exam_fee',
    provider: 'demo',
    adyen: null,
    items: [line('exam_fee', 2500, 0, true)],
    selected: ['exam_fee'],
    totalMinor: 2500,
    termsAccepted: false,
    canCheckout: false,
    session: null,
    redirect: null,
    justPaid: false,
    paymentStatus: 0,
    failure: null,
    ...overrides,
  };
}

const session = (overrides: Partial<PaymentSession> = {}): PaymentSession => ({
  reference: 'GR-1',
  provider: 'demo',
  currency: 'USD',
  amount_minor: 1500,
  items: [line('exam_fee', 1500, 0, true)],
  adyen_session: null,
  expires_at: '2026-06-01T10:00:00.000Z',
  server_time: at,
  ...overrides,
});

/** A module that never arrives: the lazy machine stays pending. */
const notLoaded: LazyModule<unknown> = { load: () => new Promise(() => {}), current: () => undefined };

describe('payment connect', () => {
  it('shows the loading phase of its purpose until the payment runs; Back still reaches the owner', () => {
    const { sent, owner, send, toOwner } = recorder();
    const api = connect(undefined, send, toOwner, 'result_fee');
    expect(api).toMatchObject({ phase: 'loading', purpose: 'result_fee', items: [], checkout: null, failure: null });
    api.back();
    expect(sent).toEqual([]);
    expect(owner).toEqual([{ type: 'menu.requested' }]);
  });

  it('shows the loading phase while the payment machine itself still loads (a pending snapshot)', () => {
    // The session invokes the payment lazily (machines/session/session.lazy.ts): a module that has not arrived.
    const pending = createActor(lazyMachine(notLoaded, () => paymentMachine), { input: {} as never }).start().getSnapshot();
    expect(isPendingSnapshot(pending)).toBe(true);
    const { sent, send, toOwner } = recorder();
    const api = connect(pending as never, send, toOwner, 'exam_fee');
    expect(api).toMatchObject({ phase: 'loading', purpose: 'exam_fee', items: [], checkout: null, failure: null });
    expect(sent).toEqual([]);
  });

  it('gives the exam fee as its one item, chosen and never ticked; Pay waits for the terms', () => {
    const actor = loaded('exam_fee', examSetting(0));
    const { sent, send, toOwner } = recorder();
    let api = connect(actor.getSnapshot(), send, toOwner, 'exam_fee');
    expect(api.items).toEqual([
      expect.objectContaining({ kind: 'exam_fee', quantity: 1, unitPriceMinor: 1500, totalMinor: 1500, tickable: false, checked: true, note: null }),
    ]);
    expect(api.pay).toMatchObject({ enabled: false, busy: false, hint: 'agreeToTerms' });
    expect(api).toMatchObject({ nothingToPay: null, unfinishedCheckout: false, totalMinor: 1500 });
    api.items[0]!.toggle();
    api.terms.toggle();
    expect(sent).toEqual([{ type: 'terms.toggled' }]);
    actor.send({ type: 'terms.toggled' });
    api = connect(actor.getSnapshot(), send, toOwner, 'exam_fee');
    expect(api.terms.accepted).toBe(true);
    expect(api.pay).toMatchObject({ enabled: true, hint: null });
    api.pay.request();
    expect(sent.at(-1)).toEqual({ type: 'checkout.requested' });
    actor.send({ type: 'checkout.requested' });
    api = connect(actor.getSnapshot(), send, toOwner, 'exam_fee');
    // While the checkout opens, Pay is busy and nothing can change; pressing it again sends nothing.
    expect(api.pay).toMatchObject({ busy: true, enabled: false, hint: null });
    expect(api.terms.disabled).toBe(true);
    api.pay.request();
    expect(sent.filter((event) => event.type === 'checkout.requested')).toHaveLength(1);
  });

  it('says an unfinished exam-fee checkout can be paid again', () => {
    const api = connect(loaded('exam_fee', examSetting(1)).getSnapshot(), () => {}, () => {}, 'exam_fee');
    expect(api.unfinishedCheckout).toBe(true);
    expect(api.items[0]!.note).toBe('pending');
  });

  it('marks result items paid, not passed, or tickable, and asks for an item once the terms are agreed', () => {
    const actor = loaded('result_fee', resultSetting([line('result_sheet', 500, 2, false), line('certificate', 800, 0, false)]));
    expect(connect(actor.getSnapshot(), () => {}, () => {}, 'result_fee').nothingToPay).toBe('done');
    const open = loaded('result_fee', resultSetting([line('result_sheet', 500, 2, false), line('certificate', 800, 0, true)]));
    const { sent, send, toOwner } = recorder();
    open.send({ type: 'terms.toggled' });
    const api = connect(open.getSnapshot(), send, toOwner, 'result_fee');
    expect(api.items.map(({ kind, tickable, checked, disabled, note }) => ({ kind, tickable, checked, disabled, note }))).toEqual([
      { kind: 'result_sheet', tickable: true, checked: true, disabled: true, note: 'paid' },
      { kind: 'certificate', tickable: true, checked: false, disabled: false, note: null },
    ]);
    expect(api.pay).toMatchObject({ enabled: false, hint: 'chooseItem' });
    api.items[1]!.toggle();
    expect(sent).toEqual([{ type: 'item.toggled', kind: 'certificate' }]);
    const unavailable = apiOf(view({ purpose: 'result_fee', items: [line('result_sheet', 500, 0, false)], selected: [] }), () => {}, () => {});
    expect(unavailable.items[0]!.note).toBe('unavailable');
  });

  it('says there is nothing to pay when the screen sells nothing', () => {
    expect(apiOf(view({ items: [], selected: [] }), () => {}, () => {}).nothingToPay).toBe('empty');
  });

  it('gives the provider\'s part of an open checkout: the demo panel, Adyen\'s Drop-in, or nothing payable', () => {
    const { sent, send } = recorder();
    const demo = apiOf(view({ phase: 'checkout', session: session(), termsAccepted: true }), send, () => {});
    expect(demo.checkout).toEqual({ provider: 'demo' });
    expect(demo.amountMinor).toBe(1500);
    demo.chooseDemo('refused');
    const adyenSession = session({ provider: 'adyen', adyen_session: { id: 'CS1', session_data: 'Ab02' }, amount_minor: 2500 });
    const adyen = { client_key: 'test_KEY', environment: 'test' as const };
    const dropin = apiOf(view({ phase: 'checkout', provider: 'adyen', adyen, session: adyenSession }), send, () => {});
    expect(dropin.checkout).toEqual({
      provider: 'adyen',
      session: { id: 'CS1', sessionData: 'Ab02' },
      clientKey: 'test_KEY',
      environment: 'test',
      amountMinor: 2500,
    });
    dropin.complete('authorised');
    const broken = apiOf(view({ phase: 'checkout', provider: 'adyen', adyen: null, session: adyenSession }), send, () => {});
    expect(broken.checkout).toEqual({ provider: 'unavailable' });
    broken.tryAgain();
    expect(sent).toEqual([
      { type: 'demo.chosen', outcome: 'refused' },
      { type: 'provider.completed', result: 'authorised' },
      { type: 'again.requested' },
    ]);
    expect(apiOf(view(), send, () => {}).checkout).toBeNull();
  });

  it('hands Adyen\'s redirect back to Drop-in while returning, and nowhere else', () => {
    const adyen = { client_key: 'test_KEY', environment: 'live' as const };
    const redirect = { sessionId: 'CS1', redirectResult: 'X6X' };
    expect(apiOf(view({ phase: 'returning', adyen, redirect }), () => {}, () => {}).redirect).toEqual({ ...redirect, clientKey: 'test_KEY', environment: 'live' });
    expect(apiOf(view({ phase: 'returning', adyen: null, redirect }), () => {}, () => {}).redirect).toBeNull();
  });

  it('lists what is paid once paid, and sends Continue and Back to the owner', () => {
    const { owner, toOwner } = recorder();
    const paid = apiOf(
      view({ phase: 'paid', purpose: 'result_fee', items: [line('result_sheet', 500, 2, false), line('certificate', 800, 0, true)], selected: ['certificate'], justPaid: true }),
      () => {},
      toOwner,
    );
    expect(paid).toMatchObject({ justPaid: true, paidItems: ['result_sheet', 'certificate'] });
    paid.continue();
    paid.back();
    expect(owner).toEqual([{ type: 'payment.continued' }, { type: 'menu.requested' }]);
    expect(apiOf(view(), () => {}, () => {}).paidItems).toEqual([]);
  });

  it('says why a payment was declined or the settings failed, with the seed\'s default messages', () => {
    const { sent, send } = recorder();
    expect(apiOf(view({ phase: 'declined', failure: 'PAYMENT_REFUSED' }), send, () => {}).failure).toBe('PAYMENT_REFUSED');
    expect(apiOf(view({ phase: 'declined', failure: null }), send, () => {}).failure).toBe('PAYMENT_ERROR');
    const failed = apiOf(view({ phase: 'loadFailed', failure: null }), send, () => {});
    expect(failed.failure).toBe('GENERIC_ERROR');
    failed.retry();
    expect(sent).toEqual([{ type: 'retry.requested' }]);
    expect(apiOf(view({ failure: 'PAYMENT_ERROR' }), send, () => {}).failure).toBeNull();
  });
});
