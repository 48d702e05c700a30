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
 * Presentational: it renders PaymentApi (machines/payment/payment.connect.ts: what is paid,
 * tickable, payable or pending is decided there) and calls back what it is given; leaving the
 * screen goes to the machine that runs the payment (`api.back`, `api.continue`).
 */
import { useLingui } from '@lingui/react';
import { Trans, useLingui as useLinguiMacro } from '@lingui/react/macro';
import { useEffect, useRef, type ReactNode } from 'react';
import type { CheckoutApi, PaymentApi, PaymentItemApi } from '../../../machines/payment/payment.connect.ts';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import { AdyenDropin } from '../../components/adyen-dropin/adyen-dropin.tsx';
import { Fact } from '../../components/details/details.tsx';
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
  api: PaymentApi;
}

/** Marks the element that takes focus when its phase appears (see usePhaseFocus). */
const phaseFocus = { 'data-phase-focus': '', tabIndex: -1 } as const;

/**
 * Moves focus into the content of a new phase (its element marked with phaseFocus) when the
 * element that had it went away with the old phase (the pressed Pay, Authorise or Try again), so
 * it never falls to <body>. Focus that is still on the page (the screen's heading after loading)
 * stays where it is.
 */
function usePhaseFocus(phase: PaymentApi['phase']) {
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

function Heading({ api }: { api: PaymentApi }) {
  return (
    <PageHeading>
      {api.purpose === 'exam_fee' ? <Trans>Pay the exam fee</Trans> : <Trans>Buy the result sheet and certificate</Trans>}
    </PageHeading>
  );
}

/** One item: a checkbox for result items, its state, quantity, unit price and amount. */
function Item({ item }: { item: PaymentItemApi }) {
  const { i18n } = useLingui();
  const { language } = useLanguage();
  const name = i18n._(itemNames[item.kind]);
  const paid = item.note === 'paid';
  const id = `payment-item-${item.kind}`;
  const noteId = `${id}-note`;
  return (
    <li className={styles.item} data-kind={item.kind} data-paid={paid}>
      <div className={styles.itemHead}>
        {item.tickable ? (
          <label className={styles.check} htmlFor={id}>
            <input
              id={id}
              type="checkbox"
              className={styles.box}
              checked={item.checked}
              disabled={item.disabled}
              aria-describedby={item.note ? noteId : undefined}
              onChange={item.toggle}
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
      {(item.note === 'notPassed' || item.note === 'unavailable') && (
        <p className="note" id={noteId}>
          <InfoIcon />
          <span>
            {item.note === 'notPassed' ? (
              <Trans>A certificate is issued only for a passed exam.</Trans>
            ) : (
              <Trans>This item cannot be bought now.</Trans>
            )}
          </span>
        </p>
      )}
      {item.note === 'pending' && (
        <p className="note" id={noteId}>
          <ClockIcon />
          <span>
            <Trans>Payment not completed. You can pay again; nothing is charged twice.</Trans>
          </span>
        </p>
      )}
      <dl className={styles.figures}>
        <Fact term={<Trans>Quantity</Trans>}>{formatNumber(item.quantity, language)}</Fact>
        <Fact term={<Trans>Unit price</Trans>}>
          <Money minor={item.unitPriceMinor} />
        </Fact>
        <Fact term={<Trans>Amount</Trans>}>
          <Money minor={item.totalMinor} />
        </Fact>
      </dl>
    </li>
  );
}

function Items({ api }: { api: PaymentApi }) {
  return (
    <section aria-labelledby="payment-items-heading">
      <h2 id="payment-items-heading" className={styles.sectionTitle} {...phaseFocus}>
        {api.purpose === 'exam_fee' ? <Trans>What you pay for</Trans> : <Trans>Choose what to buy</Trans>}
      </h2>
      <ul className={styles.items}>
        {api.items.map((item) => (
          <Item key={item.kind} item={item} />
        ))}
      </ul>
      <p className={styles.total}>
        <span>
          <Trans>Total (US dollars)</Trans>
        </span>
        <strong data-testid="payment-total">
          <Money minor={api.totalMinor} />
        </strong>
      </p>
    </section>
  );
}

/** The payment terms (seed section 5: read and agreed before paying), in a scrollable region. */
function Terms({ terms }: { terms: PaymentApi['terms'] }) {
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
          checked={terms.accepted}
          disabled={terms.disabled}
          onChange={terms.toggle}
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

function Choosing({ api }: { api: PaymentApi }) {
  const { pay } = api;
  return (
    <>
      {api.unfinishedCheckout && (
        <div className="alert" data-tone="info" role="status">
          <ClockIcon />
          <p>
            <Trans>A payment was started but not completed. You can pay now; nothing is charged twice.</Trans>
          </p>
        </div>
      )}
      <Items api={api} />
      <RefundNotice />
      <Terms terms={api.terms} />
      <div className="button-row">
        <button
          type="button"
          className={`button ${styles.pay}`}
          data-variant="primary"
          // While the checkout opens Pay keeps the focus (aria-disabled): a disabled button would drop it to <body>.
          disabled={!pay.enabled && !pay.busy}
          aria-disabled={pay.busy || undefined}
          aria-busy={pay.busy || undefined}
          onClick={pay.request}
        >
          {pay.busy ? (
            <Trans>Opening the payment…</Trans>
          ) : (
            <Trans>
              Pay <Money minor={api.totalMinor} />
            </Trans>
          )}
        </button>
        <button type="button" className="button" onClick={api.back} disabled={pay.busy}>
          <Trans>Back to menu</Trans>
        </button>
      </div>
      {pay.hint && (
        <p className={styles.hint}>
          {pay.hint === 'chooseItem' ? (
            <Trans>Choose at least one item to pay.</Trans>
          ) : (
            <Trans>To pay, read the payment terms and tick the box to agree.</Trans>
          )}
        </p>
      )}
      {pay.busy && (
        <p className="visually-hidden" role="status">
          <Trans>Opening the payment…</Trans>
        </p>
      )}
    </>
  );
}

/** The demo provider (ARCHITECTURE.md): clearly labelled, so nobody takes it for a real checkout. */
function DemoPanel({ chooseDemo }: { chooseDemo: PaymentApi['chooseDemo'] }) {
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
        <button type="button" className="button" data-variant="primary" onClick={() => chooseDemo('authorised')}>
          <Trans>Authorise</Trans>
        </button>
        <button type="button" className="button" onClick={() => chooseDemo('refused')}>
          <Trans>Refuse</Trans>
        </button>
        <button type="button" className="button" onClick={() => chooseDemo('cancelled')}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </section>
  );
}

function Checkout({ api, checkout }: { api: PaymentApi; checkout: CheckoutApi }) {
  let provider: ReactNode;
  if (checkout.provider === 'demo') {
    provider = <DemoPanel chooseDemo={api.chooseDemo} />;
  } else if (checkout.provider === 'adyen') {
    provider = (
      <AdyenDropin
        session={checkout.session}
        clientKey={checkout.clientKey}
        environment={checkout.environment}
        amountMinor={checkout.amountMinor}
        onCompleted={api.complete}
      />
    );
  } else {
    // The machine opened a checkout without what the provider needs: nothing can be paid here.
    provider = (
      <FailureAlert code="PAYMENT_ERROR">
        <button type="button" className="button" onClick={api.tryAgain}>
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
          <Money minor={api.amountMinor} />
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

/** "Continue": on to where the payment's owner goes next (the menu, the results). */
function ContinueButton({ onContinue }: { onContinue(): void }) {
  return (
    <button type="button" className="button" data-variant="primary" onClick={onContinue}>
      <Trans>Continue</Trans>
    </button>
  );
}

function Paid({ api }: { api: PaymentApi }) {
  const { i18n } = useLingui();
  const { t } = useLinguiMacro();
  return (
    <>
      <div className={styles.success} role="status" {...phaseFocus}>
        <CheckIcon />
        <p>
          {/* No checkout confirmed on this screen: it was paid before (another tab, an earlier visit). */}
          {api.justPaid ? <Trans>Payment complete. Thank you.</Trans> : i18n._(failureMessage('ALREADY_PAID'))}
        </p>
      </div>
      {api.paidItems.length > 0 && (
        <ul className={styles.paidList} aria-label={t`Paid items`}>
          {api.paidItems.map((kind) => (
            <li key={kind}>
              <CheckIcon />
              <span>{i18n._(itemNames[kind])}</span>
            </li>
          ))}
        </ul>
      )}
      <ContinueButton onContinue={api.continue} />
    </>
  );
}

/** A failure and its two ways on: "Try again" (primary) and "Back to menu". */
function Failed({ code, onTryAgain, onBack }: { code: FailureCode; onTryAgain(): void; onBack(): void }) {
  return (
    <>
      <div {...phaseFocus}>
        <FailureAlert code={code} />
      </div>
      <div className="button-row">
        <button type="button" className="button" data-variant="primary" onClick={onTryAgain}>
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
function NothingToPay({ api }: { api: PaymentApi }) {
  const { i18n } = useLingui();
  return (
    <>
      <div className="alert" data-tone="info" role="status" {...phaseFocus}>
        <InfoIcon />
        <p>
          {api.nothingToPay === 'empty' ? <Trans>There is nothing to pay here.</Trans> : i18n._(failureMessage('ALREADY_PAID'))}
        </p>
      </div>
      <ContinueButton onContinue={api.continue} />
    </>
  );
}

/**
 * Back from Adyen's redirect: the pupil sees the confirmation while Adyen Web (no form shown)
 * hands the redirect result to Adyen, which reports the outcome.
 */
function Returning({ api }: { api: PaymentApi }) {
  const { redirect } = api;
  return (
    <>
      <Confirming />
      {redirect && (
        <AdyenDropin
          redirect={{ sessionId: redirect.sessionId, redirectResult: redirect.redirectResult }}
          clientKey={redirect.clientKey}
          environment={redirect.environment}
          onCompleted={api.complete}
        />
      )}
    </>
  );
}

export function PaymentScreen({ api }: PaymentScreenProps) {
  const { phase } = api;
  const content = usePhaseFocus(phase);
  return (
    <Page align="start">
      <div className="card" ref={content}>
        <Heading api={api} />
        {phase === 'loading' && (
          <SkeletonRegion>
            {[0, 1].map((row) => (
              <SkeletonBlock key={row} shape="box" blockSize="5.5rem" />
            ))}
            <SkeletonBlock shape="box" blockSize="10rem" />
            <SkeletonBlock shape="button" inlineSize="12rem" />
          </SkeletonRegion>
        )}
        {phase === 'loadFailed' && <Failed code={api.failure ?? 'GENERIC_ERROR'} onTryAgain={api.retry} onBack={api.back} />}
        {(phase === 'choosing' || phase === 'startingCheckout') &&
          (api.nothingToPay ? <NothingToPay api={api} /> : <Choosing api={api} />)}
        {phase === 'checkout' && api.checkout && <Checkout api={api} checkout={api.checkout} />}
        {phase === 'returning' && <Returning api={api} />}
        {phase === 'confirming' && <Confirming />}
        {phase === 'paid' && <Paid api={api} />}
        {phase === 'declined' && <Failed code={api.failure ?? 'PAYMENT_ERROR'} onTryAgain={api.tryAgain} onBack={api.back} />}
      </div>
    </Page>
  );
}
