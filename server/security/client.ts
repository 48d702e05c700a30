/**
 * What a request says about its client, read carefully:
 * - `clientAddress`: the address throttling counts by. The TCP peer's address, unless
 *   TRUST_PROXY names how many reverse proxies of ours stand in front: then the entry of
 *   X-Forwarded-For that the outermost of them appended (counted from the right, because
 *   everything left of it is whatever the client chose to send). Without TRUST_PROXY the header
 *   is ignored, so nobody can claim a fresh address per request. IPv6 clients count by their
 *   /64 (one subscriber's block), IPv4-mapped IPv6 as plain IPv4.
 * - `isSecureRequest`: the request came over TLS (directly, or by a trusted proxy's
 *   X-Forwarded-Proto).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { SecuritySettings } from './settings.ts';

/** The key of requests whose address is unknown (in-process tests: `app.request()` has no socket). */
export const UNKNOWN_ADDRESS = 'unknown';

function peerAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: IncomingMessage; server?: { incoming?: IncomingMessage } } | undefined;
  return (env?.incoming ?? env?.server?.incoming)?.socket?.remoteAddress;
}

/** The last `count` values of a comma-separated header (several headers of one name are joined by commas). */
function listOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The value the outermost of `hops` trusted proxies appended, or undefined when the list is shorter. */
function appendedByOutermostProxy(header: string | undefined, hops: number): string | undefined {
  const list = listOf(header);
  return list.length >= hops ? list[list.length - hops] : undefined;
}

export function clientAddress(c: Context, settings: Pick<SecuritySettings, 'trustProxy'>): string {
  let raw = peerAddress(c);
  if (settings.trustProxy > 0) {
    const forwarded = appendedByOutermostProxy(c.req.header('x-forwarded-for'), settings.trustProxy);
    if (forwarded !== undefined) raw = forwarded;
  }
  return normalizeAddress(raw);
}

/** An address as a throttling key: IPv4 as is, IPv6 as its /64, anything unreadable as UNKNOWN_ADDRESS. */
export function normalizeAddress(raw: string | undefined): string {
  if (raw === undefined) return UNKNOWN_ADDRESS;
  let address = raw.trim();
  // "[2001:db8::1]:443" or "1.2.3.4:5678", as some proxies write them.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/%.*$/, ''); // an IPv6 zone
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const family = isIP(address);
  if (family === 4) return address;
  if (family === 6) return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
  return UNKNOWN_ADDRESS;
}

/** The eight 16-bit groups of an IPv6 address, lower case, without leading zeros. */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  // A trailing dotted IPv4 part stands for the last two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => (parseInt(group, 16) || 0).toString(16));
}

export function isSecureRequest(c: Context, settings: Pick<SecuritySettings, 'trustProxy'>): boolean {
  if (settings.trustProxy > 0) {
    const proto = appendedByOutermostProxy(c.req.header('x-forwarded-proto'), 1);
    if (proto !== undefined) return proto.toLowerCase() === 'https';
  }
  // Request URLs are absolute and their scheme is lower case (WHATWG URL): no need to parse it.
  return c.req.url.startsWith('https:');
}
