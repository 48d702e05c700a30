/**
 * Adyen Drop-in's outcome callbacks as the one ProviderResult the payment machine reads
 * (machines/payment/payment.types.ts). The browser's word is only a hint: the server confirms
 * every payment, so an unexpected result code of a completed payment reads as pending.
 */
import type { ProviderResult } from '../../../machines/payment/payment.types.ts';

const byResultCode: Readonly<Record<string, ProviderResult>> = {
  Authorised: 'authorised',
  Refused: 'refused',
  Cancelled: 'cancelled',
  Pending: 'pending',
  Received: 'received',
  Error: 'error',
};

function resultOf(data: unknown): ProviderResult | undefined {
  if (!data || typeof data !== 'object' || !('resultCode' in data) || typeof data.resultCode !== 'string') return undefined;
  return Object.hasOwn(byResultCode, data.resultCode) ? byResultCode[data.resultCode] : undefined;
}

/** onPaymentCompleted(data): the session's result code. */
export function completedResult(data: unknown): ProviderResult {
  return resultOf(data) ?? 'pending';
}

/** onPaymentFailed(data?): refused, cancelled or an error (data may be missing). */
export function failedResult(data: unknown): ProviderResult {
  const result = resultOf(data);
  return result === 'refused' || result === 'cancelled' ? result : 'error';
}

/** onError(error): the shopper cancelled (AdyenCheckoutError named CANCEL), or a critical error. */
export function errorResult(error: unknown): ProviderResult {
  return error instanceof Error && error.name === 'CANCEL' ? 'cancelled' : 'error';
}
