/**
 * The payment screens' binding (pay-exam-fee, pay-exam-result), in the chakra-ui/zag style:
 * `connect(snapshot, send, owner, purpose)` turns a snapshot of the payment machine into exactly
 * what the screen renders and the events it may send, and nothing else. Pure: no React, no DOM.
 * Strings are the screen's (Lingui); this gives it facts and codes.
 *
 * The payment machine decides what can be bought and paid; leaving the screen belongs to the
 * machine that runs the payment (`owner`: the session for the exam fee, the results for result
 * items), which takes `menu.requested` (Back) and `payment.continued` (Continue once paid).
 */
import { PaymentStatus, type PaymentKind, type PaymentLine } from '../../contract/payments.ts';
import { isPendingSnapshot } from '../shared/lazy-machine.ts';
import type { FailureCode } from '../shared/ports.ts';
import { viewOf, type PaymentSnapshot } from './payment.selectors.ts';
import type { PaymentEvent, PaymentPhase, PaymentPurpose, PaymentView, ProviderResult } from './payment.types.ts';

export type { PaymentSnapshot } from './payment.selectors.ts';

/** The events the machine running a payment takes from its screen. */
export type PaymentOwnerEvent = { type: 'menu.requested' } | { type: 'payment.continued' };

const { PENDING, PAID } = PaymentStatus;

/** One item of the screen, with what it says and whether it can be ticked. */
export interface PaymentItemApi {
  kind: PaymentKind;
  quantity: number;
  unitPriceMinor: number;
  totalMinor: number;
  /** Result items are ticked one by one; the exam fee is its screen's only item, never ticked. */
  tickable: boolean;
  checked: boolean;
  /** Paid, not for sale, or a checkout is being opened: the tick cannot change. */
  disabled: boolean;
  /**
   * What the item says besides its figures: paid (a badge); why it cannot be bought (a
   * certificate of an exam not passed, or any other item not for sale now); or an unfinished
   * checkout (PENDING) that can be paid again without being charged twice.
   */
  note: 'paid' | 'notPassed' | 'unavailable' | 'pending' | null;
  toggle(): void;
}

/** The provider's part of an open checkout. */
export type CheckoutApi =
  | { provider: 'demo' }
  | {
      provider: 'adyen';
      session: { id: string; sessionData: string };
      clientKey: string;
      environment: 'test' | 'live';
      amountMinor: number;
    }
  /** A checkout opened without what the provider needs: nothing can be paid here. */
  | { provider: 'unavailable' };

export interface PaymentApi {
  phase: PaymentPhase;
  purpose: PaymentPurpose;
  items: PaymentItemApi[];
  /** Sum of the chosen unpaid items, USD minor units. */
  totalMinor: number;
  /**
   * Nothing left to choose: 'empty' when the screen sells nothing, 'done' when every item is
   * paid or not for sale (shown as already paid); null while something can be bought.
   */
  nothingToPay: 'empty' | 'done' | null;
  /** The exam fee has an unfinished checkout (PENDING): paying now charges nothing twice. */
  unfinishedCheckout: boolean;
  terms: { accepted: boolean; disabled: boolean; toggle(): void };
  pay: {
    /** Pay can be pressed: the terms agreed and at least one unpaid item chosen. */
    enabled: boolean;
    /** The checkout is being opened (Pay keeps the focus, and nothing else can change). */
    busy: boolean;
    /** Why Pay cannot be pressed yet: the terms, or no item chosen; null when it can (or is busy). */
    hint: 'agreeToTerms' | 'chooseItem' | null;
    request(): void;
  };
  /** The open checkout (phase checkout): the demo panel or Adyen's Drop-in; null otherwise. */
  checkout: CheckoutApi | null;
  /** The amount of the open checkout, or the total while none is open. */
  amountMinor: number;
  /** Back from Adyen's redirect (phase returning): what Drop-in needs to finish it; null otherwise. */
  redirect: { sessionId: string; redirectResult: string; clientKey: string; environment: 'test' | 'live' } | null;
  /** Paid: by a checkout confirmed on this screen (true), or before it opened (false: already paid). */
  justPaid: boolean;
  /** The items now paid (phase paid): the server's statuses, or what was chosen for the payment just confirmed. */
  paidItems: PaymentKind[];
  /** Why loading or paying failed (phases loadFailed, declined), for the seed's messages; null otherwise. */
  failure: FailureCode | null;
  chooseDemo(outcome: 'authorised' | 'refused' | 'cancelled'): void;
  /** Adyen's Drop-in finished (a checkout, or a redirect handed back to Adyen). */
  complete(result: ProviderResult): void;
  /** Try again after a refused, cancelled or failed payment. */
  tryAgain(): void;
  /** Load the settings again after a failure. */
  retry(): void;
  back(): void;
  continue(): void;
}

function noteOf(line: PaymentLine): PaymentItemApi['note'] {
  if (line.status === PAID) return 'paid';
  if (!line.available) return line.kind === 'certificate' ? 'notPassed' : 'unavailable';
  return line.status === PENDING ? 'pending' : null;
}

/** What the screen shows of a PaymentView (payment.selectors.ts), with the events it may send. */
export function apiOf(view: PaymentView, send: (event: PaymentEvent) => void, owner: (event: PaymentOwnerEvent) => void): PaymentApi {
  const starting = view.phase === 'startingCheckout';
  const paid = (line: PaymentLine) => line.status === PAID;
  const session = view.session;
  const adyen = view.adyen;
  let checkout: CheckoutApi | null = null;
  if (view.phase === 'checkout') {
    if (view.provider === 'demo') checkout = { provider: 'demo' };
    else if (view.provider === 'adyen' && adyen && session?.adyen_session) {
      checkout = {
        provider: 'adyen',
        session: { id: session.adyen_session.id, sessionData: session.adyen_session.session_data },
        clientKey: adyen.client_key,
        environment: adyen.environment,
        amountMinor: session.amount_minor,
      };
    } else checkout = { provider: 'unavailable' };
  }
  const choosable = view.items.some((line) => !paid(line) && line.available);
  return {
    phase: view.phase,
    purpose: view.purpose,
    items: view.items.map((line) => ({
      kind: line.kind,
      quantity: line.quantity,
      unitPriceMinor: line.unit_price_minor,
      totalMinor: line.total_minor,
      tickable: line.kind !== 'exam_fee',
      checked: paid(line) || view.selected.includes(line.kind),
      disabled: starting || paid(line) || !line.available,
      note: noteOf(line),
      toggle: () => {
        if (line.kind !== 'exam_fee') send({ type: 'item.toggled', kind: line.kind });
      },
    })),
    totalMinor: view.totalMinor,
    nothingToPay: choosable ? null : view.items.length === 0 ? 'empty' : 'done',
    unfinishedCheckout: view.purpose === 'exam_fee' && view.paymentStatus === PENDING,
    terms: { accepted: view.termsAccepted, disabled: starting, toggle: () => send({ type: 'terms.toggled' }) },
    pay: {
      enabled: view.canCheckout,
      busy: starting,
      hint: view.canCheckout || starting ? null : view.termsAccepted ? 'chooseItem' : 'agreeToTerms',
      request: () => {
        if (!starting) send({ type: 'checkout.requested' });
      },
    },
    checkout,
    amountMinor: session?.amount_minor ?? view.totalMinor,
    redirect:
      view.phase === 'returning' && adyen && view.redirect
        ? { ...view.redirect, clientKey: adyen.client_key, environment: adyen.environment }
        : null,
    justPaid: view.justPaid,
    paidItems: view.phase === 'paid' ? view.items.filter((line) => paid(line) || view.selected.includes(line.kind)).map((line) => line.kind) : [],
    failure:
      view.phase === 'declined' ? (view.failure ?? 'PAYMENT_ERROR') : view.phase === 'loadFailed' ? (view.failure ?? 'GENERIC_ERROR') : null,
    chooseDemo: (outcome) => send({ type: 'demo.chosen', outcome }),
    complete: (result) => send({ type: 'provider.completed', result }),
    tryAgain: () => send({ type: 'again.requested' }),
    retry: () => send({ type: 'retry.requested' }),
    back: () => owner({ type: 'menu.requested' }),
    continue: () => owner({ type: 'payment.continued' }),
  };
}

/** Until the payment machine runs (its owner is about to start it), the screen's loading phase. */
function loadingView(purpose: PaymentPurpose): PaymentView {
  return {
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
    paymentStatus: PaymentStatus.NOT_PAID,
    failure: null,
  };
}

/**
 * Without a snapshot (the payment does not run yet), or while the payment machine's definition is
 * still loading (machines/session/session.lazy.ts: a pending snapshot, no state yet), the screen
 * shows its loading phase.
 */
export function connect(
  snapshot: PaymentSnapshot | undefined,
  send: (event: PaymentEvent) => void,
  owner: (event: PaymentOwnerEvent) => void,
  purpose: PaymentPurpose,
): PaymentApi {
  return apiOf(snapshot && !isPendingSnapshot(snapshot) ? viewOf(snapshot) : loadingView(purpose), send, owner);
}
