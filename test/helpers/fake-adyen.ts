/**
 * A local fake of Adyen's Checkout API, enough for POST /v{n}/sessions, speaking its wire
 * format: X-API-Key authentication, the CreateCheckoutSessionRequest JSON in, a 201 with
 * CreateCheckoutSessionResponse (id, sessionData, expiresAt, ...) out, Adyen's error body
 * (status, errorCode, message, errorType) on a refusal, and Idempotency-Key replays answered
 * with the first response.
 *
 * `fake.httpClient` is what the server's @adyen/api-library Client is given (the
 * `new Client(config, httpClient)` seam): it sends the library's request to this server
 * instead of checkout-test.adyen.com, and turns a non-2xx answer into the library's
 * HttpClientException, as the library's own client does.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClientException } from '@adyen/api-library';
import type ClientInterface from '@adyen/api-library/lib/src/httpClient/clientInterface.js';

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
};

export type FakeAdyen = {
  readonly url: string;
  /** Every request the fake received, oldest first. */
  readonly requests: RecordedRequest[];
  /** The next /sessions call is refused with this HTTP status and Adyen error body. */
  refuseNext(status: number, errorCode: string, message: string): void;
  /** Adyen takes this long to answer each /sessions call from now on (0: at once). */
  setLatency(ms: number): void;
  readonly httpClient: ClientInterface;
  start(): Promise<void>;
  stop(): Promise<void>;
};

export function createFakeAdyen(apiKey: string): FakeAdyen {
  let server: Server | undefined;
  let url = '';
  const requests: RecordedRequest[] = [];
  const byIdempotencyKey = new Map<string, string>();
  let refusal: { status: number; errorCode: string; message: string } | undefined;
  let latencyMs = 0;

  const handle = async (req: IncomingMessage): Promise<{ status: number; body: string }> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const error = (status: number, errorCode: string, message: string, errorType = 'validation') => ({
      status,
      body: JSON.stringify({ status, errorCode, message, errorType }),
    });
    if (req.headers['x-api-key'] !== apiKey) return error(401, '000', 'HTTP Status Response - Unauthorized', 'security');
    if (req.method !== 'POST' || !/^\/v\d+\/sessions$/.test(req.url ?? '')) return error(404, '000', 'Not found');
    if (refusal) {
      const r = refusal;
      refusal = undefined;
      return error(r.status, r.errorCode, r.message);
    }
    const amount = body.amount as { currency?: unknown; value?: unknown } | undefined;
    if (typeof body.merchantAccount !== 'string') return error(422, '14_0', "Required field 'merchantAccount' is not provided.");
    if (typeof body.reference !== 'string') return error(422, '130', "Required field 'reference' is not provided.");
    if (typeof body.returnUrl !== 'string') return error(422, '14_0', "Required field 'returnUrl' is not provided.");
    if (!amount || typeof amount.value !== 'number' || typeof amount.currency !== 'string') {
      return error(422, '100', "Required field 'amount' is not provided.");
    }
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string' && byIdempotencyKey.has(key)) return { status: 201, body: byIdempotencyKey.get(key)! };
    const response = JSON.stringify({
      amount,
      expiresAt: body.expiresAt ?? new Date(Date.now() + 3_600_000).toISOString(),
      id: `CS${randomBytes(8).toString('hex').toUpperCase()}`,
      merchantAccount: body.merchantAccount,
      reference: body.reference,
      returnUrl: body.returnUrl,
      shopperLocale: body.shopperLocale ?? 'en-US',
      mode: 'embedded',
      sessionData: `Ab02b4c0!${randomBytes(24).toString('base64')}`,
    });
    if (typeof key === 'string') byIdempotencyKey.set(key, response);
    return { status: 201, body: response };
  };

  const httpClient: ClientInterface = {
    async request(endpoint, json, config, _isApiKeyRequired, requestOptions) {
      const target = new URL(endpoint);
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (config.apiKey) headers['X-API-Key'] = config.apiKey;
      if (requestOptions?.idempotencyKey) headers['Idempotency-Key'] = requestOptions.idempotencyKey;
      const response = await fetch(`${url}${target.pathname}${target.search}`, {
        method: requestOptions?.method ?? 'POST',
        headers,
        body: typeof json === 'string' ? json : new Uint8Array(json),
      });
      const text = await response.text();
      if (!response.ok) {
        throw new HttpClientException({
          message: `HTTP Exception: ${response.status}. ${response.statusText}`,
          statusCode: response.status,
          responseBody: text,
        });
      }
      return text;
    },
  };

  return {
    get url() {
      return url;
    },
    requests,
    refuseNext(status, errorCode, message) {
      refusal = { status, errorCode, message };
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    httpClient,
    async start() {
      server = createServer((req, res) => {
        handle(req).then(
          ({ status, body }) => {
            res.writeHead(status, { 'Content-Type': 'application/json' });
            res.end(body);
          },
          (error: unknown) => {
            res.writeHead(500, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify({ status: 500, errorCode: '905', message: String(error), errorType: 'internal' }));
          },
        );
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop() {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
}
