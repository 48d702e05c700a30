/**
 * Where a payment provider may send the shopper back to: only a page of our own origin, and our
 * origin is configured, never read from the request (a Host or X-Forwarded-Host header is
 * whatever the client or a proxy passed on):
 * - PUBLIC_ORIGIN set (every deployment): a page of exactly that origin;
 * - unset (a developer's machine, the tests): a page on this machine, `http://localhost`,
 *   `http://127.0.0.1` or `http://[::1]` on any port (the dev server's 5173 as well as the API's),
 *   which no other site can be.
 * Anything else, a `javascript:` URL, another site (an open redirect to a look-alike page after
 * paying), a URL with credentials in it, is refused as 422 VALIDATION_ERROR on `return_url`.
 */
import { invalidField } from '../domain/errors.ts';

const loopbackHosts: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export function assertOwnReturnUrl(returnUrl: string, publicOrigin: string | undefined): void {
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    throw invalidField('return_url', 'The return URL is not a URL.');
  }
  const ours = publicOrigin === undefined ? url.protocol === 'http:' && loopbackHosts.includes(url.hostname) : url.origin === publicOrigin;
  const ownPage = (url.protocol === 'https:' || url.protocol === 'http:') && ours && !url.username && !url.password;
  if (!ownPage) throw invalidField('return_url', 'The return URL must be a page of this site (PUBLIC_ORIGIN).');
}
