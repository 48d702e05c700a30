/**
 * The headers every response carries (the security headers, the request id, the API's
 * Cache-Control), collected per request as plain records and written onto the response once.
 *
 * Middleware registers them before the handler runs: `responseHeaders(c, record)` for headers
 * that replace whatever the handler set (the security headers, X-Request-Id), and
 * `defaultResponseHeader(c, name, value)` for a default the handler may override (Cache-Control,
 * as `c.header` before the response does). Both say whether theirs was the request's first
 * registration: that middleware (the outermost of them) calls `writeResponseHeaders(c)` after the
 * handler, which puts them all on the response, exactly as setting each there would.
 *
 * A response made by `jsonResponse` already holds them all, as a plain record: @hono/node-server
 * then writes the head straight from that record, where headers set one by one on the response
 * go through a WHATWG Headers object first (validated on every set, sorted, copied back into a
 * record), which costs more than anything else the middleware of the pupil's answer save does.
 */
import type { Context } from 'hono';

type Collected = { defaults: Record<string, string>; forced: Record<string, string>[] };

const collected = new WeakMap<Context, Collected>();
/** Responses made by jsonResponse: they carry every collected header already. */
const complete = new WeakSet<Response>();

/** This request's collection, and whether it was made just now (the caller is the first to register). */
function of(c: Context): [Collected, boolean] {
  const known = collected.get(c);
  if (known) return [known, false];
  const made: Collected = { defaults: {}, forced: [] };
  collected.set(c, made);
  return [made, true];
}

/**
 * Headers this request's response carries whatever its handler set (kept by reference: do not
 * change `record` later). True for the first registration: the caller writes them (writeResponseHeaders).
 */
export function responseHeaders(c: Context, record: Readonly<Record<string, string>>): boolean {
  const [mine, first] = of(c);
  mine.forced.push(record);
  return first;
}

/** A header this request's response carries unless its handler sets it itself. True as responseHeaders. */
export function defaultResponseHeader(c: Context, name: string, value: string): boolean {
  const [mine, first] = of(c);
  mine.defaults[name.toLowerCase()] = value;
  return first;
}

/** Whether jsonResponse made this response (its headers are plain and final). */
export function isJsonResponse(response: Response): boolean {
  return complete.has(response);
}

/**
 * A JSON response (as `c.json(body, status)`) with every header collected for this request so
 * far. Only for a handler that sets no header of its own and runs after all the middleware
 * that collect headers (their `await next()`), as every route handler does.
 */
export function jsonResponse(c: Context, body: unknown, status: 200 | 201): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const mine = collected.get(c);
  if (mine) {
    Object.assign(headers, mine.defaults);
    for (const record of mine.forced) for (const name in record) headers[name.toLowerCase()] = record[name]!;
  }
  const response = new Response(JSON.stringify(body), { status, headers });
  complete.add(response);
  return response;
}

/**
 * Puts the collected headers on the finished response, unless jsonResponse made it with them. On
 * the response itself, not through `c.header`: after the handler, that rebuilds the response
 * around its body stream, which makes @hono/node-server send it as a stream (several writes)
 * instead of its prepared string (one write). A response whose headers cannot change (one
 * fetched from elsewhere) takes the rebuilding way.
 */
export function writeResponseHeaders(c: Context): void {
  const mine = collected.get(c);
  if (!mine || complete.has(c.res)) return;
  const set = (name: string, value: string) => {
    try {
      c.res.headers.set(name, value);
    } catch {
      c.header(name, value);
    }
  };
  for (const name in mine.defaults) if (!c.res.headers.has(name)) set(name, mine.defaults[name]!);
  for (const record of mine.forced) for (const name in record) set(name, record[name]!);
}
