/**
 * Adyen's Drop-in with the Card component (issue "Results, payments...": `@adyen/adyen-web` on the
 * client, loaded only on payment screens). It opens the session the server created, in the
 * pupil's language, and reports how the checkout ended as one ProviderResult through
 * `onCompleted`; the server then confirms. A skeleton shows while the library loads; a library
 * that fails to load is said in words with "Try again". Unmounting removes the Drop-in.
 */
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import type { ProviderResult } from '../../../machines/payment/payment.types.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { intlLocale } from '../../i18n/languages.ts';
import { FailureAlert } from '../failure-alert/failure-alert.tsx';
import { SkeletonBlock, SkeletonRegion } from '../skeleton/skeleton.tsx';
import { loadAdyenWeb } from './adyen-loader.ts';
import { completedResult, errorResult, failedResult } from './provider-result.ts';
import styles from './adyen-dropin.module.css';

export interface AdyenDropinProps {
  /** The session from POST /payment/adyen/sessions/* (its id and sessionData). */
  session: { id: string; sessionData: string };
  clientKey: string;
  environment: 'test' | 'live';
  /** The amount the session charges, USD minor units (shown on Adyen's Pay button). */
  amountMinor: number;
  /** ISO two-letter country of the shopper, when known (Adyen picks methods by it). */
  countryCode?: string;
  onCompleted(result: ProviderResult): void;
  /** Loads Adyen Web; tests hand in their own. */
  load?: typeof loadAdyenWeb;
}

type LoadState = 'loading' | 'ready' | 'failed';

export function AdyenDropin({
  session,
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
        const checkout = await AdyenCheckout({
          session: { id: session.id, sessionData: session.sessionData },
          clientKey,
          environment,
          locale,
          ...(countryCode ? { countryCode } : {}),
          amount: { value: amountMinor, currency: 'USD' },
          onPaymentCompleted: (data) => report(completedResult(data)),
          onPaymentFailed: (data) => report(failedResult(data)),
          onError: (error) => report(errorResult(error)),
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
  }, [loadLibrary, attempt, session.id, session.sessionData, clientKey, environment, locale, countryCode, amountMinor]);

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
