/**
 * Adyen Web, loaded only when a payment screen shows the Drop-in (ARCHITECTURE.md: heavy parts load
 * only where used): a dynamic import of the library and its stylesheet, each its own chunk. A
 * failed load is forgotten, so "Try again" fetches it afresh.
 */
import type * as AdyenWebModule from '@adyen/adyen-web';

type AdyenWeb = typeof AdyenWebModule;

let loading: Promise<AdyenWeb> | undefined;

export function loadAdyenWeb(): Promise<AdyenWeb> {
  loading ??= Promise.all([import('@adyen/adyen-web'), import('@adyen/adyen-web/styles/adyen.css')]).then(
    ([module]) => module,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
