/**
 * The pupil API client's HTTP (src/api/client.ts), on the browser's fetch alone, so the first
 * screen's chunk carries no HTTP library. What it promises:
 *
 * - the URL is `baseURL` + the path, with the query's defined values (a number as its digits;
 *   null or '' as the bare key);
 * - a body that is not a string, Blob, FormData or URLSearchParams is sent as JSON, with
 *   `content-type` and `accept` set to application/json unless the call set them;
 * - `beforeSend` sets the call's headers last (token, language, device);
 * - the call is aborted after `timeout` ms and rejects with the signal's TimeoutError; a request
 *   that got no answer rejects with a NetworkError (`NETWORK_ERROR` for the machines);
 * - any status is an answer: `data` is the body read as JSON (`notJson` for text that is not),
 *   or as a Blob with `blob`, and undefined when the answer has no body (204, 205, 304...).
 */
export const notJson = Symbol('not JSON');

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface SendOptions {
  method: 'GET' | 'POST';
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  timeout?: number;
  blob?: boolean;
}

export interface Answer {
  status: number;
  data: unknown;
}

/** No answer came for the request (fetch rejected other than on the time-out). */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

const noBody = new Set([101, 204, 205, 304]);

export function urlOf(baseURL: string, path: string, query: Query = {}): string {
  const params = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => (value === null || value === '' ? encodeURIComponent(key) : `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`));
  return `${baseURL.replace(/\/+$/, '')}${path}${params.length ? `?${params.join('&')}` : ''}`;
}

const isJson = (body: unknown): boolean =>
  body !== undefined && typeof body !== 'string' && !(body instanceof Blob) && !(body instanceof FormData) && !(body instanceof URLSearchParams);

export function createFetch(options: { baseURL: string; timeout: number; beforeSend(headers: Headers): void }) {
  return async function send(path: string, call: SendOptions): Promise<Answer> {
    const headers = new Headers(call.headers);
    let body = call.body as BodyInit | undefined;
    if (isJson(call.body)) {
      body = JSON.stringify(call.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      if (!headers.has('accept')) headers.set('accept', 'application/json');
    }
    options.beforeSend(headers);
    const signal = AbortSignal.timeout(call.timeout ?? options.timeout);
    let response: Response;
    try {
      response = await fetch(urlOf(options.baseURL, path, call.query), { method: call.method, headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new NetworkError(error instanceof Error ? error.message : 'No answer', { cause: error });
    }
    if (!response.body || noBody.has(response.status)) return { status: response.status, data: undefined };
    if (call.blob) return { status: response.status, data: await response.blob() };
    const text = await response.text();
    try {
      return { status: response.status, data: JSON.parse(text) as unknown };
    } catch {
      return { status: response.status, data: notJson };
    }
  };
}
