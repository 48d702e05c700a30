// @vitest-environment jsdom
/**
 * payment (pay-exam-fee, pay-exam-result): items with quantity, unit price and total in USD;
 * result items ticked, the exam fee fixed, paid items not tickable, an unavailable certificate
 * explained; the terms read and agreed before Pay; the non-refundable notice; every phase from
 * loading to paid or declined with the seed's messages; the clearly labelled demo provider; the
 * return from Adyen's redirect; focus that follows the phase and never falls to <body>.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiOf } from '../../machines/payment/payment.connect.ts';
import type { PaymentEvent, PaymentView } from '../../machines/payment/payment.types.ts';
import type { PaymentLine, PaymentSession } from '../../contract/payments.ts';
import { PaymentScreen } from '../../src/screens/payment/payment.tsx';
import { renderView } from '../helpers/render-view.tsx';

vi.mock('../../src/components/adyen-dropin/adyen-dropin.tsx', () => ({
  AdyenDropin: (props: {
    session?: { id: string };
    redirect?: { sessionId: string; redirectResult: string };
    clientKey: string;
    amountMinor?: number;
    onCompleted(result: string): void;
  }) => (
    <div
      data-testid="adyen-dropin"
      data-session={props.session?.id ?? props.redirect?.sessionId}
      data-redirect-result={props.redirect?.redirectResult}
      data-client-key={props.clientKey}
      data-amount={props.amountMinor}
    >
      <button type="button" onClick={() => props.onCompleted('refused')}>
        adyen refuses
      </button>
    </div>
  ),
}));

const examFee: PaymentLine = { kind: 'exam_fee', quantity: 1, unit_price_minor: 2500, total_minor: 2500, status: 0, available: true };
const sheet: PaymentLine = { kind: 'result_sheet', quantity: 1, unit_price_minor: 1000, total_minor: 1000, status: 0, available: true };
const certificate: PaymentLine = { kind: 'certificate', quantity: 1, unit_price_minor: 1500, total_minor: 1500, status: 0, available: true };

function session(overrides: Partial<PaymentSession> = {}): PaymentSession {
  return {
    reference: 'GRD-0001-abcdef',
    provider: 'demo',
    currency: 'USD',
    amount_minor: 2500,
    items: [examFee],
    adyen_session: null,
    expires_at: '2026-11-22T10:00:00.000Z',
    server_time: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
}

function examView(overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    phase: 'choosing',
    purpose: 'exam_fee',
    provider: 'demo',
    adyen: null,
    items: [examFee],
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

function resultView(overrides: Partial<PaymentView> = {}): PaymentView {
  return examView({ purpose: 'result_fee', items: [sheet, certificate], selected: [], totalMinor: 0, ...overrides });
}

interface ScreenFacts {
  view: PaymentView;
  send(event: PaymentEvent): void;
  /** The owner's Back (menu.requested) and Continue (payment.continued). */
  onBack(): void;
  onContinue(): void;
}

/** The screen as payment.connect.ts binds it to this view: events to `send`, Back and Continue to the owner. */
function Screen({ view, send, onBack, onContinue }: ScreenFacts) {
  return <PaymentScreen api={apiOf(view, send, (event) => (event.type === 'menu.requested' ? onBack() : onContinue()))} />;
}

function setup(view: PaymentView) {
  const send = vi.fn<(event: PaymentEvent) => void>();
  const onBack = vi.fn();
  const onContinue = vi.fn();
  return { send, onBack, onContinue, ui: <Screen view={view} send={send} onBack={onBack} onContinue={onContinue} /> };
}

function item(name: string): HTMLElement {
  return screen.getByText(name, { selector: '[class*="itemName"]' }).closest('li') as HTMLElement;
}

function figures(li: HTMLElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const dt of within(li).getAllByRole('term')) out[dt.textContent ?? ''] = dt.nextElementSibling?.textContent ?? '';
  return out;
}

describe('payment: choosing', () => {
  it('shows the exam fee with quantity, unit price and amount in USD, and the total; the fee has no checkbox', async () => {
    const { ui } = setup(examView());
    await renderView(ui);
    expect(screen.getByRole('heading', { level: 1, name: 'Pay the exam fee' })).toBeTruthy();
    const fee = item('Exam fee');
    expect(figures(fee)).toEqual({ Quantity: '1', 'Unit price': '$25.00', Amount: '$25.00' });
    expect(within(fee).queryByRole('checkbox')).toBeNull();
    expect(screen.getByTestId('payment-total').textContent).toBe('$25.00');
  });

  it('ticks result items with item.toggled', async () => {
    const { ui, send } = setup(resultView());
    const { user } = await renderView(ui);
    expect(screen.getByRole('heading', { level: 1, name: 'Buy the result sheet and certificate' })).toBeTruthy();
    const box = screen.getByRole('checkbox', { name: 'Result sheet' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    await user.click(box);
    expect(send).toHaveBeenCalledWith({ type: 'item.toggled', kind: 'result_sheet' });
    await user.click(screen.getByRole('checkbox', { name: 'Certificate' }));
    expect(send).toHaveBeenCalledWith({ type: 'item.toggled', kind: 'certificate' });
  });

  it('shows ticked items and their total as the view says', async () => {
    const { ui } = setup(resultView({ selected: ['result_sheet', 'certificate'], totalMinor: 2500 }));
    await renderView(ui);
    expect((screen.getByRole('checkbox', { name: 'Result sheet' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Certificate' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('payment-total').textContent).toBe('$25.00');
  });

  it('marks a paid item "Paid", which cannot be ticked again', async () => {
    const { ui, send } = setup(resultView({ items: [{ ...sheet, status: 2 }, certificate], paymentStatus: 2 }));
    const { user } = await renderView(ui);
    const box = screen.getByRole('checkbox', { name: 'Result sheet' }) as HTMLInputElement;
    expect(box.disabled).toBe(true);
    expect(within(item('Result sheet')).getByText('Paid')).toBeTruthy();
    await user.click(box);
    expect(send).not.toHaveBeenCalled();
  });

  it('says why a certificate cannot be bought (not passed)', async () => {
    const { ui } = setup(resultView({ items: [sheet, { ...certificate, available: false }] }));
    await renderView(ui);
    const box = screen.getByRole('checkbox', { name: 'Certificate' }) as HTMLInputElement;
    expect(box.disabled).toBe(true);
    expect(within(item('Certificate')).getByText('A certificate is issued only for a passed exam.')).toBeTruthy();
    expect(box.getAttribute('aria-describedby')).toBe('payment-item-certificate-note');
  });

  it('shows the payment terms in a scrollable region and agrees with terms.toggled', async () => {
    const { ui, send } = setup(examView());
    const { user } = await renderView(ui);
    const terms = screen.getByRole('region', { name: 'Payment terms' });
    expect(terms.tabIndex).toBe(0);
    expect(within(terms).getByText(/Fees are non-refundable, also when/)).toBeTruthy();
    const agree = screen.getByRole('checkbox', { name: 'I have read and agree to the payment terms' }) as HTMLInputElement;
    expect(agree.checked).toBe(false);
    await user.click(agree);
    expect(send).toHaveBeenCalledWith({ type: 'terms.toggled' });
  });

  it('shows the non-refundable notice: USD, converted by the card issuer, policy set by the provider', async () => {
    const { ui } = setup(examView());
    await renderView(ui);
    expect(screen.getByText('Fees are non-refundable.')).toBeTruthy();
    expect(screen.getByText(/your card issuer converts the amount/)).toBeTruthy();
    expect(screen.getByText('The refund policy is set by the payment provider.')).toBeTruthy();
  });

  it('keeps Pay disabled until the view allows the checkout, and says what is missing', async () => {
    const { ui, send } = setup(examView());
    const { user } = await renderView(ui);
    const pay = screen.getByRole('button', { name: 'Pay $25.00' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    expect(screen.getByText('To pay, read the payment terms and tick the box to agree.')).toBeTruthy();
    await user.click(pay);
    expect(send).not.toHaveBeenCalled();
  });

  it('asks for an item when the terms are agreed but nothing is ticked', async () => {
    const { ui } = setup(resultView({ termsAccepted: true }));
    await renderView(ui);
    expect(screen.getByText('Choose at least one item to pay.')).toBeTruthy();
  });

  it('pays with checkout.requested once allowed', async () => {
    const { ui, send } = setup(examView({ termsAccepted: true, canCheckout: true }));
    const { user } = await renderView(ui);
    expect((screen.getByRole('checkbox', { name: 'I have read and agree to the payment terms' }) as HTMLInputElement).checked).toBe(true);
    const pay = screen.getByRole('button', { name: 'Pay $25.00' });
    expect(pay.getAttribute('data-variant')).toBe('primary');
    await user.click(pay);
    expect(send).toHaveBeenCalledWith({ type: 'checkout.requested' });
  });

  it('is busy while the checkout starts: Pay and the choices are locked', async () => {
    const { ui, send } = setup(resultView({ phase: 'startingCheckout', selected: ['result_sheet'], totalMinor: 1000, termsAccepted: true, canCheckout: true }));
    const { user } = await renderView(ui);
    const pay = screen.getByRole('button', { name: 'Opening the payment…' }) as HTMLButtonElement;
    // aria-disabled, not disabled: the pressed button keeps the focus while the checkout opens.
    expect(pay.getAttribute('aria-disabled')).toBe('true');
    expect(pay.getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('checkbox', { name: 'Result sheet' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'I have read and agree to the payment terms' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Opening the payment…');
    await user.click(pay);
    expect(send).not.toHaveBeenCalled();
  });

  it('goes back to the menu', async () => {
    const { ui, onBack } = setup(examView());
    const { user } = await renderView(ui);
    await user.click(screen.getByRole('button', { name: 'Back to menu' }));
    expect(onBack).toHaveBeenCalledOnce();
  });

  it('says a started exam-fee payment is not completed and can be paid now', async () => {
    const { ui } = setup(examView({ paymentStatus: 1, items: [{ ...examFee, status: 1 }] }));
    await renderView(ui);
    expect(screen.getByText(/A payment was started but not completed/)).toBeTruthy();
  });

  it('has nothing to pay when everything is paid already, and continues', async () => {
    const { ui, onContinue } = setup(resultView({ items: [{ ...sheet, status: 2 }, { ...certificate, available: false }], paymentStatus: 1 }));
    const { user } = await renderView(ui);
    expect(screen.getByRole('status').textContent).toBe('This has already been paid for. You will not be charged again.');
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledOnce();
  });

  it('prices in the language: Arabic-Indic digits for the numerals variant', async () => {
    const { ui } = setup(examView());
    await renderView(ui, { language: 'ar-nu-arab' });
    expect(screen.getByTestId('payment-total').textContent).toContain('٢٥٫٠٠');
  });
});

describe('payment: loading and failures', () => {
  it('shows a skeleton while the settings load, and no buttons', async () => {
    const { ui } = setup(examView({ phase: 'loading', items: [] }));
    await renderView(ui);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('tells a failed load and retries with retry.requested', async () => {
    const { ui, send } = setup(examView({ phase: 'loadFailed', items: [], failure: 'NETWORK_ERROR' }));
    const { user } = await renderView(ui);
    expect(screen.getByRole('alert').textContent).toBe('Network error. Please check the connection and try again.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(send).toHaveBeenCalledWith({ type: 'retry.requested' });
  });

  it.each([
    ['PAYMENT_CANCELED', 'The payment was canceled.'],
    ['PAYMENT_REFUSED', 'The card was refused. Please check the card information and try again.'],
    ['PAYMENT_ERROR', 'An unknown error occurred during payment. Please try again.'],
  ] as const)('says the seed\'s message for %s and tries again with again.requested', async (failure, message) => {
    const { ui, send, onBack } = setup(examView({ phase: 'declined', failure }));
    const { user } = await renderView(ui);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(message);
    expect(alert.getAttribute('data-code')).toBe(failure);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(send).toHaveBeenCalledWith({ type: 'again.requested' });
    await user.click(screen.getByRole('button', { name: 'Back to menu' }));
    expect(onBack).toHaveBeenCalledOnce();
  });
});

describe('payment: checkout', () => {
  it('labels the demo provider clearly and sends demo.chosen for each outcome', async () => {
    const { ui, send } = setup(examView({ phase: 'checkout', session: session(), termsAccepted: true }));
    const { user } = await renderView(ui);
    const panel = screen.getByRole('region', { name: 'Demo payment — no real card is charged' });
    expect(screen.getByTestId('payment-total').textContent).toBe('$25.00');
    await user.click(within(panel).getByRole('button', { name: 'Authorise' }));
    await user.click(within(panel).getByRole('button', { name: 'Refuse' }));
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(send.mock.calls.map(([event]) => event)).toEqual([
      { type: 'demo.chosen', outcome: 'authorised' },
      { type: 'demo.chosen', outcome: 'refused' },
      { type: 'demo.chosen', outcome: 'cancelled' },
    ]);
    expect(screen.queryByTestId('adyen-dropin')).toBeNull();
  });

  it('renders Adyen\'s Drop-in with the session, and passes its result on as provider.completed', async () => {
    const view = examView({
      phase: 'checkout',
      provider: 'adyen',
      adyen: { client_key: 'test_CLIENTKEY', environment: 'test' },
      session: session({ provider: 'adyen', adyen_session: { id: 'CS-1', session_data: 'data' } }),
    });
    const { ui, send } = setup(view);
    const { user } = await renderView(ui);
    const dropin = screen.getByTestId('adyen-dropin');
    expect(dropin.getAttribute('data-session')).toBe('CS-1');
    expect(dropin.getAttribute('data-client-key')).toBe('test_CLIENTKEY');
    expect(dropin.getAttribute('data-amount')).toBe('2500');
    expect(screen.queryByText(/Demo payment/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'adyen refuses' }));
    expect(send).toHaveBeenCalledWith({ type: 'provider.completed', result: 'refused' });
  });

  it('says the payment cannot open when the Adyen session is missing, and tries again', async () => {
    const { ui, send } = setup(examView({ phase: 'checkout', provider: 'adyen', adyen: null, session: session({ provider: 'adyen' }) }));
    const { user } = await renderView(ui);
    expect(screen.getByRole('alert').textContent).toContain('An unknown error occurred during payment.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(send).toHaveBeenCalledWith({ type: 'again.requested' });
  });

  it('is busy while the server confirms the payment', async () => {
    const { ui } = setup(examView({ phase: 'confirming', session: session() }));
    await renderView(ui);
    expect(screen.getByRole('status').textContent).toBe('Confirming your payment… Please wait and do not close this page.');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('shows the paid items and continues', async () => {
    const { ui, onContinue } = setup(
      resultView({ phase: 'paid', items: [{ ...sheet, status: 2 }, { ...certificate, status: 2 }], paymentStatus: 1, session: session(), justPaid: true }),
    );
    const { user } = await renderView(ui);
    expect(screen.getByRole('status').textContent).toBe('Payment complete. Thank you.');
    const paid = screen.getByRole('list', { name: 'Paid items' });
    expect(within(paid).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Result sheet', 'Certificate']);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledOnce();
  });
});

describe('payment: paid before this visit', () => {
  it('says it was paid already: nothing is charged again', async () => {
    const { ui } = setup(resultView({ phase: 'paid', items: [{ ...sheet, status: 2 }, { ...certificate, status: 2 }], paymentStatus: 1 }));
    await renderView(ui);
    expect(screen.getByRole('status').textContent).toBe('This has already been paid for. You will not be charged again.');
  });
});

describe('payment: paid before the items are reloaded', () => {
  it('lists what was chosen as paid', async () => {
    const { ui } = setup(resultView({ phase: 'paid', selected: ['certificate'], items: [{ ...sheet, status: 2 }, certificate] }));
    await renderView(ui);
    const paid = screen.getByRole('list', { name: 'Paid items' });
    expect(within(paid).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Result sheet', 'Certificate']);
  });
});

describe('payment: back from the provider\'s redirect', () => {
  it('confirms while Adyen Web hands the redirect result to Adyen, and passes its outcome on', async () => {
    const view = examView({
      phase: 'returning',
      provider: 'adyen',
      adyen: { client_key: 'test_CLIENTKEY', environment: 'test' },
      redirect: { sessionId: 'CS-9', redirectResult: 'X6XtfGC3' },
      paymentStatus: 1,
    });
    const { ui, send } = setup(view);
    const { user } = await renderView(ui);
    expect(screen.getByRole('status').textContent).toBe('Confirming your payment… Please wait and do not close this page.');
    const adyen = screen.getByTestId('adyen-dropin');
    expect(adyen.getAttribute('data-session')).toBe('CS-9');
    expect(adyen.getAttribute('data-redirect-result')).toBe('X6XtfGC3');
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'adyen refuses' }));
    expect(send).toHaveBeenCalledWith({ type: 'provider.completed', result: 'refused' });
  });

  it('says "Payment complete" for the checkout the redirect came back for', async () => {
    const { ui } = setup(examView({ phase: 'paid', items: [{ ...examFee, status: 2 }], selected: [], paymentStatus: 2, justPaid: true }));
    await renderView(ui);
    expect(screen.getByRole('status').textContent).toBe('Payment complete. Thank you.');
    expect(within(screen.getByRole('list', { name: 'Paid items' })).getByText('Exam fee')).toBeTruthy();
  });
});

describe('payment: focus follows the phase, never <body>', () => {
  /** Renders the first view, focuses the button named, clicks it, then shows the next view as the machine would. */
  async function pressThenShow(first: PaymentView, button: string, next: PaymentView) {
    const { ui, send, onBack, onContinue } = setup(first);
    const rendered = await renderView(ui);
    const pressed = screen.getByRole('button', { name: button });
    await rendered.user.click(pressed);
    expect(document.activeElement).toBe(pressed);
    rendered.rerender(<Screen view={next} send={send} onBack={onBack} onContinue={onContinue} />);
    return rendered;
  }

  const checkoutView = examView({ phase: 'checkout', session: session(), termsAccepted: true });

  it('keeps focus on Pay while the checkout opens, then moves it to the amount to pay', async () => {
    const ready = examView({ termsAccepted: true, canCheckout: true });
    const { rerender } = await pressThenShow(ready, 'Pay $25.00', { ...ready, phase: 'startingCheckout', canCheckout: false });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Opening the payment…' }));
    const { send, onBack, onContinue } = setup(checkoutView);
    rerender(<Screen view={checkoutView} send={send} onBack={onBack} onContinue={onContinue} />);
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.textContent).toBe('Amount to pay$25.00');
  });

  it('moves focus to the confirmation after "Authorise"', async () => {
    await pressThenShow(checkoutView, 'Authorise', examView({ phase: 'confirming', session: session(), paymentStatus: 1 }));
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.textContent).toBe('Confirming your payment… Please wait and do not close this page.');
  });

  it('moves focus to the refusal after "Refuse", and to the items after "Try again"', async () => {
    const declined = examView({ phase: 'declined', failure: 'PAYMENT_REFUSED', session: session(), termsAccepted: true });
    const { rerender, user } = await pressThenShow(checkoutView, 'Refuse', declined);
    expect(document.activeElement?.textContent).toBe('The card was refused. Please check the card information and try again.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const again = examView({ termsAccepted: true, canCheckout: true });
    const { send, onBack, onContinue } = setup(again);
    rerender(<Screen view={again} send={send} onBack={onBack} onContinue={onContinue} />);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'What you pay for' }));
  });

  it('keeps the heading focused when the settings arrive (nothing was pressed)', async () => {
    const { ui, send, onBack, onContinue } = setup(examView({ phase: 'loading', items: [] }));
    const { rerender } = await renderView(ui);
    const heading = screen.getByRole('heading', { level: 1, name: 'Pay the exam fee' });
    expect(document.activeElement).toBe(heading);
    rerender(<Screen view={examView()} send={send} onBack={onBack} onContinue={onContinue} />);
    expect(document.activeElement).toBe(heading);
  });
});
