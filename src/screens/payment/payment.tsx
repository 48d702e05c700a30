/**
 * The payment screen of pay-exam-fee and pay-exam-result (seed sections 2, 3, 5, 9): the items
 * with quantity, unit price and total in USD (result items ticked by the user, the exam fee
 * fixed), the payment terms the pupil must read and agree to before paying, the non-refundable
 * notice, then the provider's checkout: Adyen's Drop-in, or the clearly labelled demo panel.
 * After the checkout it shows the server's confirmation, success, or the seed's message for a
 * cancelled, refused or failed payment with "Try again". Opened by the provider's redirect back
 * (Adyen's returnUrl), it hands the redirect result to Adyen and confirms that checkout.
 *
 * Focus follows the phase: when the content changes under the pupil (the checkout opens, the
 * payment is being confirmed, it is paid or declined), focus moves to the new content's first
 * meaningful element, never to <body>; while the checkout is being opened it stays on Pay.
 *
 * Presentational: it renders PaymentView (machines/payment/payment.types.ts) and writes only
 * with `send`; leaving the screen is the host's (`onBack`, `onContinue`).
 */
import { useLingui } from '@lingui/react';
import { Trans, useLingui as useLinguiMacro } from '@lingui/react/macro';
import { useEffect, useRef, type ReactNode } from 'react';
import type { PaymentEvent, PaymentView } from '../../../machines/payment/payment.types.ts';
import type { PaymentLine } from '../../../contract/payments.ts';
import type { ResultItemKind } from '../../../contract/payments.ts';
import { AdyenDropin } from '../../components/adyen-dropin/adyen-dropin.tsx';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { CheckIcon, ClockIcon, InfoIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { failureMessage } from '../../i18n/failure-messages.ts';
import { formatNumber, formatUsd } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { itemNames } from './item-names.ts';
import styles from './payment.module.css';

export interface PaymentScreenProps {
  view: PaymentView;
  send(event: PaymentEvent): void;
  /** Back to the menu (before paying, after a failed load or a declined payment). */
  onBack(): void;
  /** On, once everything chosen is paid (or was paid already). */
  onContinue(): void;
}

const PAID = 2;
const PENDING = 1;

function isPaid(line: PaymentLine): boolean {
  return line.status === PAID;
}

/** Marks the element that takes focus when its phase appears (see usePhaseFocus). */
const phaseFocus = { 'data-phase-focus': '', tabIndex: -1 } as const;

/**
 * Moves focus into the content of a new phase (its element marked with phaseFocus) when the
 * element that had it went away with the old phase (the pressed Pay, Authorise or Try again), so
 * it never falls to <body>. Focus that is still on the page (the screen's heading after loading)
 * stays where it is.
 */
function usePhaseFocus(phase: PaymentView['phase']) {
  const ref = useRef<HTMLDivElement>(null);
  const previous = useRef(phase);
  useEffect(() => {
    if (previous.current === phase) return;
    previous.current = phase;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    // The phase's own element, else (a skeleton while loading) the screen's heading.
    (ref.current?.querySelector<HTMLElement>('[data-phase-focus]') ?? ref.current?.querySelector<HTMLElement>('h1'))?.focus();
  }, [phase]);
  return ref;
}

function Money({ minor }: { minor: number }) {
  const { language } = useLanguage();
  return <span className="ltr-isolate">{formatUsd(minor, language)}</span>;
}

function Heading({ view }: { view: PaymentView }) {
  return (
    <PageHeading>
      {view.purpose === 'exam_fee' ? <Trans>Pay the exam fee</Trans> : <Trans>Buy the result sheet and certificate</Trans>}
    </PageHeading>
  );
}

/** One item: a checkbox for result items, its state, quantity, unit price and amount. */
function Item({ line, view, send, locked }: { line: PaymentLine; view: PaymentView; send: PaymentScreenProps['send']; locked: boolean }) {
  const { i18n } = useLingui();
  const { language } = useLanguage();
  const name = i18n._(itemNames[line.kind]);
  const paid = isPaid(line);
  const tickable = line.kind !== 'exam_fee';
  const id = `payment-item-${line.kind}`;
  const noteId = `${id}-note`;
  const hasNote = paid || !line.available || line.status === PENDING;
  return (
    <li className={styles.item} data-kind={line.kind} data-paid={paid}>
      <div className={styles.itemHead}>
        {tickable ? (
          <label className={styles.check} htmlFor={id}>
            <input
              id={id}
              type="checkbox"
              className={styles.box}
              checked={paid || view.selected.includes(line.kind)}
              disabled={locked || paid || !line.available}
              aria-describedby={hasNote ? noteId : undefined}
              onChange={() => send({ type: 'item.toggled', kind: line.kind as ResultItemKind })}
            />
            <span className={styles.itemName}>{name}</span>
          </label>
        ) : (
          <span className={styles.itemName}>{name}</span>
        )}
        {paid && (
          <span className={styles.badge} data-tone="done" id={noteId}>
            <CheckIcon />
            <Trans>Paid</Trans>
          </span>
        )}
      </div>
      {!paid && !line.available && (
        <p className="note" id={noteId}>
          <InfoIcon />
          <span>
            {line.kind === 'certificate' ? (
              <Trans>A certificate is issued only for a passed exam.</Trans>
            ) : (
              <Trans>This item cannot be bought now.</Trans>
            )}
          </span>
        </p>
      )}
      {!paid && line.available && line.status === PENDING && (
        <p className="note" id={noteId}>
          <ClockIcon />
          <span>
            <Trans>Payment not completed. You can pay again; nothing is charged twice.</Trans>
          </span>
        </p>
      )}
      <dl className={styles.figures}>
        <div>
          <dt>
            <Trans>Quantity</Trans>
          </dt>
          <dd>{formatNumber(line.quantity, language)}</dd>
        </div>
        <div>
          <dt>
            <Trans>Unit price</Trans>
          </dt>
          <dd>
            <Money minor={line.unit_price_minor} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Amount</Trans>
          </dt>
          <dd>
            <Money minor={line.total_minor} />
          </dd>
        </div>
      </dl>
    </li>
  );
}

function Items({ view, send, locked }: { view: PaymentView; send: PaymentScreenProps['send']; locked: boolean }) {
  return (
    <section aria-labelledby="payment-items-heading">
      <h2 id="payment-items-heading" className={styles.sectionTitle} {...phaseFocus}>
        {view.purpose === 'exam_fee' ? <Trans>What you pay for</Trans> : <Trans>Choose what to buy</Trans>}
      </h2>
      <ul className={styles.items}>
        {view.items.map((line) => (
          <Item key={line.kind} line={line} view={view} send={send} locked={locked} />
        ))}
      </ul>
      <p className={styles.total}>
        <span>
          <Trans>Total (US dollars)</Trans>
        </span>
        <strong data-testid="payment-total">
          <Money minor={view.totalMinor} />
        </strong>
      </p>
    </section>
  );
}

/** The payment terms (seed section 5: read and agreed before paying), in a scrollable region. */
function Terms({ view, send, locked }: { view: PaymentView; send: PaymentScreenProps['send']; locked: boolean }) {
  return (
    <div className={styles.terms}>
      <h2 id="payment-terms-heading" className={styles.sectionTitle}>
        <Trans>Payment terms</Trans>
      </h2>
      <div className={styles.termsText} role="region" aria-labelledby="payment-terms-heading" tabIndex={0}>
        <p>
          <Trans>You pay Gradus for the items shown above. Prices are in US dollars (USD) and include everything you are charged by Gradus.</Trans>
        </p>
        <p>
          <Trans>Payment is made by card through our payment provider. Gradus does not see or keep your card number.</Trans>
        </p>
        <p>
          <Trans>The exam fee lets the pupil take this exam once. The result sheet opens the score report of this exam; the certificate is issued as a PDF for a passed exam only.</Trans>
        </p>
        <p>
          <Trans>Fees are non-refundable, also when the exam is not taken or not passed.</Trans>
        </p>
        <p>
          <Trans>Each item is charged once. If a payment does not go through, nothing is charged and you can try again.</Trans>
        </p>
        <p>
          <Trans>If you have a question about a payment, please ask the school or organization that registered the pupil.</Trans>
        </p>
      </div>
      <label className={styles.agree}>
        <input
          type="checkbox"
          className={styles.box}
          checked={view.termsAccepted}
          disabled={locked}
          onChange={() => send({ type: 'terms.toggled' })}
        />
        <span>
          <Trans>I have read and agree to the payment terms</Trans>
        </span>
      </label>
    </div>
  );
}

/** The non-refundable notice (seed section 9), with currency and conversion. */
function RefundNotice() {
  return (
    <div className="alert" data-tone="warning">
      <WarningIcon />
      <div>
        <p>
          <strong>
            <Trans>Fees are non-refundable.</Trans>
          </strong>
        </p>
        <p>
          <Trans>Prices are shown in US dollars (USD). If your card is in another currency, your card issuer converts the amount at its own rate and may charge a fee.</Trans>
        </p>
        <p>
          <Trans>The refund policy is set by the payment provider.</Trans>
        </p>
      </div>
    </div>
  );
}

function Choosing({ view, send, onBack }: { view: PaymentView; send: PaymentScreenProps['send']; onBack(): void }) {
  const starting = view.phase === 'startingCheckout';
  return (
    <>
      {view.purpose === 'exam_fee' && view.paymentStatus === PENDING && (
        <div className="alert" data-tone="info" role="status">
          <ClockIcon />
          <p>
            <Trans>A payment was started but not completed. You can pay now; nothing is charged twice.</Trans>
          </p>
        </div>
      )}
      <Items view={view} send={send} locked={starting} />
      <RefundNotice />
      <Terms view={view} send={send} locked={starting} />
      <div className="button-row">
        <button
          type="button"
          className={`button ${styles.pay}`}
          data-variant="primary"
          // While the checkout opens Pay keeps the focus (aria-disabled): a disabled button would drop it to <body>.
          disabled={!view.canCheckout && !starting}
          aria-disabled={starting || undefined}
          aria-busy={starting || undefined}
          onClick={() => {
            if (!starting) send({ type: 'checkout.requested' });
          }}
        >
          {starting ? (
            <Trans>Opening the payment…</Trans>
          ) : (
            <Trans>
              Pay <Money minor={view.totalMinor} />
            </Trans>
          )}
        </button>
        <button type="button" className="button" onClick={onBack} disabled={starting}>
          <Trans>Back to menu</Trans>
        </button>
      </div>
      {!view.canCheckout && !starting && (
        <p className={styles.hint}>
          {view.termsAccepted ? (
            <Trans>Choose at least one item to pay.</Trans>
          ) : (
            <Trans>To pay, read the payment terms and tick the box to agree.</Trans>
          )}
        </p>
      )}
      {starting && (
        <p className="visually-hidden" role="status">
          <Trans>Opening the payment…</Trans>
        </p>
      )}
    </>
  );
}

/** The demo provider (ARCHITECTURE.md): clearly labelled, so nobody takes it for a real checkout. */
function DemoPanel({ send }: { send: PaymentScreenProps['send'] }) {
  return (
    <section className={styles.demo} aria-labelledby="demo-heading">
      <h2 id="demo-heading" className={styles.demoTitle}>
        <InfoIcon />
        <span>
          <Trans>Demo payment — no real card is charged</Trans>
        </span>
      </h2>
      <p>
        <Trans>This is a test setup without a payment provider. Choose how the payment ends.</Trans>
      </p>
      <div className="button-row">
        <button type="button" className="button" data-variant="primary" onClick={() => send({ type: 'demo.chosen', outcome: 'authorised' })}>
          <Trans>Authorise</Trans>
        </button>
        <button type="button" className="button" onClick={() => send({ type: 'demo.chosen', outcome: 'refused' })}>
          <Trans>Refuse</Trans>
        </button>
        <button type="button" className="button" onClick={() => send({ type: 'demo.chosen', outcome: 'cancelled' })}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </section>
  );
}

function Checkout({ view, send }: { view: PaymentView; send: PaymentScreenProps['send'] }) {
  const session = view.session;
  let provider: ReactNode;
  if (view.provider === 'demo') {
    provider = <DemoPanel send={send} />;
  } else if (view.provider === 'adyen' && view.adyen && session?.adyen_session) {
    provider = (
      <AdyenDropin
        session={{ id: session.adyen_session.id, sessionData: session.adyen_session.session_data }}
        clientKey={view.adyen.client_key}
        environment={view.adyen.environment}
        amountMinor={session.amount_minor}
        onCompleted={(result) => send({ type: 'provider.completed', result })}
      />
    );
  } else {
    // The machine opened a checkout without what the provider needs: nothing can be paid here.
    provider = (
      <FailureAlert code="PAYMENT_ERROR">
        <button type="button" className="button" onClick={() => send({ type: 'again.requested' })}>
          <Trans>Try again</Trans>
        </button>
      </FailureAlert>
    );
  }
  return (
    <>
      <p className={styles.total} {...phaseFocus}>
        <span>
          <Trans>Amount to pay</Trans>
        </span>
        <strong data-testid="payment-total">
          <Money minor={session?.amount_minor ?? view.totalMinor} />
        </strong>
      </p>
      {provider}
    </>
  );
}

function Confirming() {
  return (
    <div className={styles.busy} aria-busy="true">
      <p role="status" className={styles.busyText} {...phaseFocus}>
        <ClockIcon />
        <Trans>Confirming your payment… Please wait and do not close this page.</Trans>
      </p>
      <SkeletonBlock shape="box" blockSize="4rem" />
    </div>
  );
}

function Paid({ view, onContinue }: { view: PaymentView; onContinue(): void }) {
  const { i18n } = useLingui();
  const { t } = useLinguiMacro();
  // The items now paid: the server's statuses, or what was chosen for the payment just confirmed.
  const paid = view.items.filter((line) => isPaid(line) || view.selected.includes(line.kind));
  return (
    <>
      <div className={styles.success} role="status" {...phaseFocus}>
        <CheckIcon />
        <p>
          {/* No checkout confirmed on this screen: it was paid before (another tab, an earlier visit). */}
          {view.justPaid ? <Trans>Payment complete. Thank you.</Trans> : i18n._(failureMessage('ALREADY_PAID'))}
        </p>
      </div>
      {paid.length > 0 && (
        <ul className={styles.paidList} aria-label={t`Paid items`}>
          {paid.map((line) => (
            <li key={line.kind}>
              <CheckIcon />
              <span>{i18n._(itemNames[line.kind])}</span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button" data-variant="primary" onClick={onContinue}>
        <Trans>Continue</Trans>
      </button>
    </>
  );
}

function Declined({ view, send, onBack }: { view: PaymentView; send: PaymentScreenProps['send']; onBack(): void }) {
  return (
    <>
      <div {...phaseFocus}>
        <FailureAlert code={view.failure ?? 'PAYMENT_ERROR'} />
      </div>
      <div className="button-row">
        <button type="button" className="button" data-variant="primary" onClick={() => send({ type: 'again.requested' })}>
          <Trans>Try again</Trans>
        </button>
        <button type="button" className="button" onClick={onBack}>
          <Trans>Back to menu</Trans>
        </button>
      </div>
    </>
  );
}

/** Everything here is paid already: nothing to choose, nothing charged again. */
function NothingToPay({ view, onContinue }: { view: PaymentView; onContinue(): void }) {
  const { i18n } = useLingui();
  return (
    <>
      <div className="alert" data-tone="info" role="status" {...phaseFocus}>
        <InfoIcon />
        <p>
          {view.items.length === 0 ? <Trans>There is nothing to pay here.</Trans> : i18n._(failureMessage('ALREADY_PAID'))}
        </p>
      </div>
      <button type="button" className="button" data-variant="primary" onClick={onContinue}>
        <Trans>Continue</Trans>
      </button>
    </>
  );
}

/**
 * Back from Adyen's redirect: the pupil sees the confirmation while Adyen Web (no form shown)
 * hands the redirect result to Adyen, which reports the outcome.
 */
function Returning({ view, send }: { view: PaymentView; send: PaymentScreenProps['send'] }) {
  return (
    <>
      <Confirming />
      {view.adyen && view.redirect && (
        <AdyenDropin
          redirect={view.redirect}
          clientKey={view.adyen.client_key}
          environment={view.adyen.environment}
          onCompleted={(result) => send({ type: 'provider.completed', result })}
        />
      )}
    </>
  );
}

export function PaymentScreen({ view, send, onBack, onContinue }: PaymentScreenProps) {
  const { phase } = view;
  const nothingToPay = view.items.every((line) => isPaid(line) || !line.available);
  const content = usePhaseFocus(phase);
  return (
    <Page align="start">
      <div className="card" ref={content}>
        <Heading view={view} />
        {phase === 'loading' && (
          <SkeletonRegion>
            {[0, 1].map((row) => (
              <SkeletonBlock key={row} shape="box" blockSize="5.5rem" />
            ))}
            <SkeletonBlock shape="box" blockSize="10rem" />
            <SkeletonBlock shape="button" inlineSize="12rem" />
          </SkeletonRegion>
        )}
        {phase === 'loadFailed' && (
          <>
            <div {...phaseFocus}>
              <FailureAlert code={view.failure ?? 'GENERIC_ERROR'} />
            </div>
            <div className="button-row">
              <button type="button" className="button" data-variant="primary" onClick={() => send({ type: 'retry.requested' })}>
                <Trans>Try again</Trans>
              </button>
              <button type="button" className="button" onClick={onBack}>
                <Trans>Back to menu</Trans>
              </button>
            </div>
          </>
        )}
        {(phase === 'choosing' || phase === 'startingCheckout') &&
          (nothingToPay ? <NothingToPay view={view} onContinue={onContinue} /> : <Choosing view={view} send={send} onBack={onBack} />)}
        {phase === 'checkout' && <Checkout view={view} send={send} />}
        {phase === 'returning' && <Returning view={view} send={send} />}
        {phase === 'confirming' && <Confirming />}
        {phase === 'paid' && <Paid view={view} onContinue={onContinue} />}
        {phase === 'declined' && <Declined view={view} send={send} onBack={onBack} />}
      </div>
    </Page>
  );
}
