/**
 * Compression on the wire:
 * - `chooseEncoding`: which of the encodings we have (br, gzip) a request's Accept-Encoding takes,
 *   with q-values and `*` (RFC 9110, 12.5.3): the first offered one at the highest q above 0,
 *   or none (identity). Shared by the static files (server/http/client-files.ts), which are
 *   compressed at build time, and by the API below.
 * - `compressApi`: API answers to GET that are JSON and at least API_COMPRESS_THRESHOLD bytes
 *   (the questions of an exam, results, the proctor's roster...) are compressed on the fly,
 *   brotli at a fast quality or gzip, off the event loop (zlib's thread pool). Smaller answers,
 *   every POST (an answer save is ~200 bytes) and anything already encoded or marked
 *   `no-transform` are left alone: compressing them would cost more than it saves. A compressed
 *   answer says `Vary: Accept-Encoding`, has its own Content-Length, and a strong ETag becomes
 *   weak (the bytes differ; If-None-Match compares weakly, so a 304 still works).
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';

export type Encoding = 'br' | 'gzip';

/** The smallest API answer worth compressing (bytes). */
export const API_COMPRESS_THRESHOLD = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encoding to answer with, from the offered ones in order of preference; undefined: identity. */
export function chooseEncoding(acceptEncoding: string | undefined, offered: readonly Encoding[] = ['br', 'gzip']): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = Number(value);
    }
    if (Number.isFinite(q)) weights.set(name === 'x-gzip' ? 'gzip' : name, q);
  }
  let best: { encoding: Encoding; q: number } | undefined;
  for (const encoding of offered) {
    const q = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding;
}

/** Adds Accept-Encoding to a response's Vary (once). */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (vary === '*' || (vary && /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary))) return;
  headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/** Compresses one buffer: brotli at quality 4 (fast, smaller than gzip -6) or gzip at level 6. */
export function compressBuffer(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gzipAsync(body, { level: 6 });
}

/** The API answers worth compressing, compressed (see the module comment). */
export function compressApi(options: { threshold?: number } = {}): MiddlewareHandler {
  const threshold = options.threshold ?? API_COMPRESS_THRESHOLD;
  return async (c, next) => {
    await next();
    if (c.req.method !== 'GET') return;
    const res = c.res;
    if (res.status !== 200 || !res.body || res.headers.has('Content-Encoding')) return;
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(res.headers.get('Content-Type') ?? '')) return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return;
    const length = Number(res.headers.get('Content-Length') ?? NaN);
    if (Number.isFinite(length) && length < threshold) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    if (body.byteLength >= threshold) varyOnEncoding(headers);
    const encoding = body.byteLength >= threshold ? chooseEncoding(c.req.header('Accept-Encoding')) : undefined;
    if (encoding === undefined) {
      replaceResponse(c, new Response(body, { status: res.status, statusText: res.statusText, headers }));
      return;
    }
    const compressed = await compressBuffer(body, encoding);
    headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(compressed.byteLength));
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    replaceResponse(c, new Response(new Uint8Array(compressed), { status: res.status, statusText: res.statusText, headers }));
  };
}

/** Sets c.res to exactly `response`: Hono's setter would copy the old response's headers over it. */
function replaceResponse(c: Context, response: Response): void {
  c.res = undefined as unknown as Response;
  c.res = response;
}
