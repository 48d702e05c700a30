/**
 * A stand-in for Adyen Web (the real library loads Adyen's scripts from their servers), for
 * tests that render the payment screens: it records each checkout's configuration so a test can
 * fire `onPaymentCompleted`, counts the Drop-ins mounted and records the redirect results handed
 * back to Adyen (`submitDetails`, after a redirect). Use it with
 *   vi.mock('@adyen/adyen-web', () => import('../helpers/adyen-web-stand-in.ts'));
 *   vi.mock('@adyen/adyen-web/styles/adyen.css', () => ({}));
 * and read `adyenWeb` from this module (the same instance the mock serves).
 */
type CheckoutConfig = { onPaymentCompleted(data: unknown): void };

export const adyenWeb = { configs: [] as CheckoutConfig[], mounted: 0, submitted: [] as unknown[] };

/** Forgets the checkouts and Drop-ins of the previous path. */
export function resetAdyenWeb(): void {
  adyenWeb.configs.length = 0;
  adyenWeb.mounted = 0;
  adyenWeb.submitted.length = 0;
}

export class Card {}

export async function AdyenCheckout(config: CheckoutConfig) {
  adyenWeb.configs.push(config);
  return {
    config,
    submitDetails(data: unknown) {
      adyenWeb.submitted.push(data);
    },
  };
}

export class Dropin {
  mount(node: HTMLElement) {
    adyenWeb.mounted += 1;
    node.setAttribute('data-adyen', 'dropin');
    return this;
  }
  unmount() {
    return this;
  }
}
