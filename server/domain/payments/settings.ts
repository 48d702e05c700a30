/**
 * Payment settings: the prices of the items (USD minor units, seed section 3 and 9: currency
 * USD), how long an open checkout lives, Adyen's credentials, and whether the demo provider may
 * stand in without them (ARCHITECTURE.md, "Payments"). Neither: no provider, nothing is sold.
 */
import type ClientInterface from '@adyen/api-library/lib/src/httpClient/clientInterface.js';
import type { PaymentKind } from '../../../contract/payments.ts';

export type AdyenSettings = {
  apiKey: string;
  /** Given to the browser for Drop-in. */
  clientKey: string;
  merchantAccount: string;
  /** Hex HMAC key of the standard webhook (Customer Area, webhook settings). */
  hmacKey: string;
  environment: 'test' | 'live';
  /** The live endpoint prefix Adyen assigns to the merchant (required for live). */
  liveUrlPrefix?: string;
  /** The HTTP client under @adyen/api-library (tests point it at a local fake); default: the library's own. */
  httpClient?: ClientInterface;
};

export type PaymentSettings = {
  /** Unit prices in USD minor units (cents). */
  prices: Record<PaymentKind, number>;
  /** An open checkout is abandoned after this long; a new one may then be made. */
  checkoutTtlMs: number;
  /** Adyen; undefined: the demo provider when `demo`, else none. */
  adyen: AdyenSettings | undefined;
  /**
   * Without Adyen, the demo provider serves the checkouts (fees "paid" without money): only where
   * the demo data is (server/config.ts `demoWanted`). False: no provider; a checkout is refused
   * with PAYMENT_UNAVAILABLE, and what needs no payment (group mode) works as ever.
   */
  demo: boolean;
};

export const defaultPaymentSettings: PaymentSettings = {
  prices: { exam_fee: 1500, result_sheet: 500, certificate: 800 },
  // Adyen's own default session lifetime is one hour.
  checkoutTtlMs: 3_600_000,
  adyen: undefined,
  // In-process servers (tests, the end-to-end harness) are the demo; `npm start` reads it from the environment.
  demo: true,
};
