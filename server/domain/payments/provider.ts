/**
 * The payment provider interface (ARCHITECTURE.md, "Payments"): a provider opens a checkout session
 * for one of our checkouts and, for Adyen, verifies the signatures of its webhooks. Two
 * providers: `adyen` (./adyen.ts) and `demo` (./demo.ts, only where the demo is), or none.
 * Nothing here touches the database: ./checkout.ts and ./webhook.ts decide what is paid.
 */
import type { PaymentKind, PaymentProvider as ProviderName } from '../../../contract/payments.ts';
import { createAdyenProvider } from './adyen.ts';
import { demoProvider } from './demo.ts';
import type { PaymentSettings } from './settings.ts';

export type SessionRequest = {
  /** Our merchant reference (payments.reference). */
  reference: string;
  amountMinor: number;
  currency: 'USD';
  lines: { kind: PaymentKind; quantity: number; unitPriceMinor: number; totalMinor: number }[];
  returnUrl: string;
  /** The shopper's language as a BCP 47 tag (Accept-Language), if the browser said. */
  shopperLocale: string | undefined;
  expiresAt: Date;
};

/** The provider's session, kept on the checkout so a second tab resumes it. Null: no session (demo). */
export type ProviderSession = { id: string; sessionData: string } | null;

export interface PaymentProvider {
  readonly name: ProviderName;
  /** What the browser needs to show the provider's checkout (Adyen Drop-in); null for the demo. */
  readonly clientSettings: { client_key: string; environment: 'test' | 'live' } | null;
  /** Opens the provider's session; rejects when the provider refuses or cannot be reached. */
  createSession(request: SessionRequest): Promise<ProviderSession>;
}

/** Adyen when its credentials are configured, else the demo provider where the demo is, else none (null). */
export function providerFor(settings: PaymentSettings): PaymentProvider | null {
  if (settings.adyen) return createAdyenProvider(settings.adyen);
  return settings.demo ? demoProvider : null;
}
