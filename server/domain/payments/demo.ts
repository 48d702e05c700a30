/**
 * The demo provider: no card, no network. The browser shows a clearly labelled panel where a
 * tester picks authorised, refused or cancelled (POST /payment/demo/complete), so the whole
 * journey runs offline. It is served only where the demo is (PaymentSettings.demo) and no
 * Adyen key is configured.
 */
import type { PaymentProvider } from './provider.ts';

export const demoProvider: PaymentProvider = {
  name: 'demo',
  clientSettings: null,
  createSession: async () => null,
};
