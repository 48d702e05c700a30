/**
 * Adyen's Drop-in with the Card component (issue "Results, payments...": `@adyen/adyen-web` on the
 * client, loaded only on payment screens). It opens the session the server created, in the
 * pupil's language, and reports how the checkout ended as one ProviderResult through
 * `onCompleted`; the server then confirms. A skeleton shows while the library loads; a library
 * that fails to load is said in words with "Try again". Unmounting removes the Drop-in.
 *
 * Back from a redirect (3-D Secure, a bank's page: Adyen's returnUrl with `sessionId` and
 * `redirectResult`), it shows no form: it opens the session by its id and hands the redirect
 * result to Adyen (`submitDetails`, Adyen's sessions flow), which completes the payment and
 * reports the outcome through the same callbacks.
 */
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import type { ProviderResult } from '../../../machines/payment/payment.types.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { intlLocale } from '../../../contract/languages.ts';
import { FailureAlert } from '../failure-alert/failure-alert.tsx';
import { SkeletonBlock, SkeletonRegion } from '../skeleton/skeleton.tsx';
import { loadAdyenWeb } from './adyen-loader.ts';
import { completedResult, errorResult, failedResult } from './provider-result.ts';
import styles from './adyen-dropin.module.css';

interface CommonProps {
  clientKey: string;
  environment: 'test' | 'live';
  /** ISO two-letter country of the shopper, when known (Adyen picks methods by it). */
  countryCode?: string;
  onCompleted(result: ProviderResult): void;
  /** Loads Adyen Web; tests hand in their own. */
  load?: typeof loadAdyenWeb;
}

/** The checkout's form: the session from POST /payment/adyen/sessions/* and its amount. */
interface CheckoutProps extends CommonProps {
  session: { id: string; sessionData: string };
  /** The amount the session charges, USD minor units (shown on Adyen's Pay button). */
  amountMinor: number;
  redirect?: undefined;
}

/** Back from Adyen's redirect: its session id and redirect result (no form is shown). */
interface RedirectProps extends CommonProps {
  redirect: { sessionId: string; redirectResult: string };
  session?: undefined;
  amountMinor?: undefined;
}

export type AdyenDropinProps = CheckoutProps | RedirectProps;

type LoadState = 'loading' | 'ready' | 'failed';

export function AdyenDropin({
  session,
  redirect,
  clientKey,
  environment,
  amountMinor,
  countryCode,
  onCompleted,
  load: loadLibrary = loadAdyenWeb,
}: AdyenDropinProps) {
  const { language } = useLanguage();
  const locale = intlLocale(language);
  const mountRef = useRef<HTMLDivElement>(null);
  const onCompletedRef = useRef(onCompleted);
  const [load, setLoad] = useState<{ attempt: number; state: LoadState }>({ attempt: 0, state: 'loading' });
  const attempt = load.attempt;
  // Primitives for the effect: a new object with the same values must not open Adyen again.
  const sessionId = session?.id;
  const sessionData = session?.sessionData;
  const redirectSessionId = redirect?.sessionId;
  const redirectResult = redirect?.redirectResult;

  useEffect(() => {
    onCompletedRef.current = onCompleted;
  }, [onCompleted]);

  useEffect(() => {
    let active = true;
    let dropin: { unmount(): unknown } | undefined;
    const report = (result: ProviderResult) => {
      if (active) onCompletedRef.current(result);
    };
    loadLibrary()
      .then(async ({ AdyenCheckout, Dropin, Card }) => {
        const callbacks = {
          clientKey,
          environment,
          locale,
          ...(countryCode ? { countryCode } : {}),
          onPaymentCompleted: (data: unknown) => report(completedResult(data)),
          onPaymentFailed: (data: unknown) => report(failedResult(data)),
          onError: (error: unknown) => report(errorResult(error)),
        };
        if (redirectSessionId !== undefined && redirectResult !== undefined) {
          // Adyen's sessions flow after a redirect: the session by its id alone, then the result.
          const checkout = await AdyenCheckout({ ...callbacks, session: { id: redirectSessionId } as { id: string; sessionData: string } });
          if (!active) return;
          checkout.submitDetails({ details: { redirectResult } });
          setLoad((current) => (current.attempt === attempt ? { attempt, state: 'ready' } : current));
          return;
        }
        const checkout = await AdyenCheckout({
          ...callbacks,
          session: { id: sessionId ?? '', sessionData: sessionData ?? '' },
          amount: { value: amountMinor ?? 0, currency: 'USD' },
        });
        if (!active || !mountRef.current) return;
        dropin = new Dropin(checkout, { paymentMethodComponents: [Card] }).mount(mountRef.current);
        setLoad((current) => (current.attempt === attempt ? { attempt, state: 'ready' } : current));
      })
      .catch(() => {
        if (active) setLoad((current) => (current.attempt === attempt ? { attempt, state: 'failed' } : current));
      });
    return () => {
      active = false;
      dropin?.unmount();
    };
  }, [
    loadLibrary,
    attempt,
    sessionId,
    sessionData,
    redirectSessionId,
    redirectResult,
    clientKey,
    environment,
    locale,
    countryCode,
    amountMinor,
  ]);

  return (
    <div className={styles.dropin}>
      {load.state === 'loading' && (
        <SkeletonRegion>
          <SkeletonBlock shape="box" blockSize="4rem" />
          <SkeletonBlock shape="box" blockSize="9rem" />
          <SkeletonBlock shape="button" />
        </SkeletonRegion>
      )}
      {load.state === 'failed' && (
        <FailureAlert code="NETWORK_ERROR">
          <p>
            <Trans>The card payment form could not be loaded.</Trans>
          </p>
          <button
            type="button"
            className="button"
            onClick={() => setLoad((current) => ({ attempt: current.attempt + 1, state: 'loading' }))}
          >
            <Trans>Try again</Trans>
          </button>
        </FailureAlert>
      )}
      <div ref={mountRef} className={styles.mount} />
    </div>
  );
}
