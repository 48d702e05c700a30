/**
 * The Adyen provider through @adyen/api-library: Checkout API sessions (POST /sessions, the
 * amount in USD minor units, our reference as merchantReference) and the HMAC check of the
 * standard webhook's items. The library's HTTP client is the seam tests replace
 * (`new Client(config, httpClient)`): they point it at a local fake that speaks Adyen's wire
 * format (test/helpers/fake-adyen.ts).
 */
import { createRequire } from 'node:module';
import type * as AdyenLibrary from '@adyen/api-library';
import type { Types } from '@adyen/api-library';
import type { PaymentProvider } from './provider.ts';
import type { AdyenSettings } from './settings.ts';

type NotificationRequestItem = Types.notification.NotificationRequestItem;

let library: typeof AdyenLibrary | undefined;
/** The library, loaded on first use: most servers never configure Adyen, and loading it costs every start about a second. */
function adyen(): typeof AdyenLibrary {
  library ??= createRequire(import.meta.url)('@adyen/api-library') as typeof AdyenLibrary;
  return library;
}

/** Our item kinds as Adyen line item descriptions (shown on Adyen's side, not to pupils). */
const descriptions = { exam_fee: 'Exam fee', result_sheet: 'Result sheet', certificate: 'Certificate' } as const;

/** Adyen's request time-out: a pupil waits for it, so well under the client's 60 s. */
const ADYEN_TIMEOUT_MS = 20_000;

export function createAdyenProvider(settings: AdyenSettings): PaymentProvider {
  const { CheckoutAPI, Client, EnvironmentEnum } = adyen();
  const client = new Client(
    {
      apiKey: settings.apiKey,
      environment: settings.environment === 'live' ? EnvironmentEnum.LIVE : EnvironmentEnum.TEST,
      liveEndpointUrlPrefix: settings.liveUrlPrefix,
      connectionTimeoutMillis: ADYEN_TIMEOUT_MS,
    },
    settings.httpClient,
  );
  const checkout = new CheckoutAPI(client);

  return {
    name: 'adyen',
    clientSettings: { client_key: settings.clientKey, environment: settings.environment },
    async createSession(request) {
      const response = await checkout.PaymentsApi.sessions(
        {
          merchantAccount: settings.merchantAccount,
          amount: { currency: request.currency, value: request.amountMinor },
          reference: request.reference,
          returnUrl: request.returnUrl,
          shopperLocale: request.shopperLocale,
          expiresAt: request.expiresAt,
          lineItems: request.lines.map((line) => ({
            id: line.kind,
            description: descriptions[line.kind],
            quantity: line.quantity,
            amountIncludingTax: line.unitPriceMinor,
          })),
        },
        // Adyen answers a repeated key with the first session instead of a second one.
        { idempotencyKey: request.reference },
      );
      if (!response.id || !response.sessionData) throw new Error('Adyen answered /sessions without id or sessionData');
      return { id: response.id, sessionData: response.sessionData };
    },
  };
}

/**
 * Whether a standard webhook item carries a valid HMAC signature (additionalData.hmacSignature)
 * under our key. An item without a signature is not valid.
 */
export function isSignedItem(item: NotificationRequestItem, hmacKey: string): boolean {
  if (!item.additionalData?.hmacSignature) return false;
  try {
    return new (adyen().hmacValidator)().validateHMAC(item, hmacKey);
  } catch {
    return false;
  }
}
