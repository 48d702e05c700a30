/**
 * Where a payment provider may send the shopper back to: only a page of our own origin
 * (PUBLIC_ORIGIN, else the request's own origin; server/security/client.ts). Anything else, a
 * `javascript:` URL, another site (an open redirect to a look-alike page after paying), a URL
 * with credentials in it, is refused as 422 VALIDATION_ERROR on `return_url`.
 */
import { invalidField } from '../domain/errors.ts';

export function assertOwnReturnUrl(returnUrl: string, ownOrigin: string): void {
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    throw invalidField('return_url', 'The return URL is not a URL.');
  }
  const ownPage = (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === ownOrigin && !url.username && !url.password;
  if (!ownPage) throw invalidField('return_url', 'The return URL must be a page of this site.');
}
