/**
 * The browser's API client against a tiny local HTTP server: the seed's headers on every call,
 * responses parsed with the contract, the error envelope, what the network did, and the seed's
 * call behaviour (section 7): serial calls in 20 ms steps, the reload helper's 2^n seconds
 * (fake timers: nothing waits for real; what was sent is read from a spy on fetch).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { CALL_WAIT_STEP_MS, RELOAD_RETRIES, callModes, createApiClient, type CallName } from '../../src/api/client.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import type { LanguageKey } from '../../contract/languages.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseURL: string;
let handler: Handler;
let seen: Seen[];

function json(status: number, body: unknown): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

const now = '2026-11-22T09:00:00.000Z';
const examinee = {
  user_key: 'u1', test_key: 't1', login_type: 0, examinee_name: 'Aiko Tanaka', level_id: 3, subject_id: 1,
  schedule_code: 'S1', org_code: 'ORG', org_login_method: 1, enable_mode_step: false, org_category: 'SCHOOL',
  is_my_page_login: false, foreign_payment_method: false, venue_id: null, grade_id: 5, email: null,
  schedule_history_id: 42, flag_retake: false,
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  handler = json(200, {});
});

function client(overrides: { token?: string | null; language?: LanguageKey; timeoutMs?: number; base?: string } = {}) {
  return createApiClient({
    baseURL: overrides.base ?? baseURL,
    getToken: () => (overrides.token === undefined ? 'tok-123' : overrides.token),
    getLanguage: () => overrides.language ?? 'ja',
    getDeviceToken: () => '0f6e6c1e-6a4f-4e8c-9d55-3f1d2f3a4b5c',
    timeoutMs: overrides.timeoutMs,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<ApiFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiFailure);
    return error as ApiFailure;
  }
  throw new Error('expected the call to fail');
}

describe('headers', () => {
  it('sends the bearer token, the language, the locale and the device token on every call', async () => {
    handler = json(200, { access_token: 'new', examinee, server_time: now });
    const result = await client().login({ login_type: 0, login_code: 'AC3E-F4GH-J6KM' });
    expect(result.access_token).toBe('new');
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/login');
    expect(request?.headers.authorization).toBe('Bearer tok-123');
    expect(request?.headers['accept-language']).toBe('ja');
    expect(request?.headers['x-locale']).toBe('ja');
    expect(request?.headers['x-device-token']).toBe('0f6e6c1e-6a4f-4e8c-9d55-3f1d2f3a4b5c');
    expect(JSON.parse(request?.body ?? '')).toEqual({ login_type: 0, login_code: 'AC3E-F4GH-J6KM' });
  });

  it('sends no Authorization header when logged out', async () => {
    handler = json(200, { ok: true });
    await client({ token: null }).logout();
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(seen[0]?.url).toBe('/api/logout');
  });

  it('maps the catalog key to BCP 47 for Accept-Language', async () => {
    handler = json(200, { ok: true });
    await client({ language: 'zh_yue_Hant' }).logout();
    await client({ language: 'ar-nu-arab' }).logout();
    expect(seen.map((s) => [s.headers['accept-language'], s.headers['x-locale']])).toEqual([
      ['yue-Hant-HK', 'zh_yue_Hant'],
      ['ar-u-nu-arab', 'ar'],
    ]);
  });

  it('puts the schedule history id in the query of GET calls and the body of POST calls', async () => {
    handler = json(200, {
      schedule_history_id: 42, examinee_name: 'Aiko Tanaka', subject: { id: 1, name: 'English' },
      level: { id: 3, name: 'Level 3' }, exam: { id: 7, title: 'English 3', question_count: 3, time_limit_seconds: 2400 },
      status: 0, started_at: null, deadline_at: null, server_time: now,
    });
    const details = await client().examDetails(42);
    expect(details.level.name).toBe('Level 3');
    expect(seen[0]?.url).toBe('/api/exam-details?schedule_history_id=42');

    handler = json(201, { status: 6, started_at: now, deadline_at: '2026-11-22T09:40:00.000Z', server_time: now });
    await client().startExam(42);
    expect(seen[1]?.url).toBe('/api/exam/start');
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ schedule_history_id: 42 });
  });
});

describe('responses', () => {
  it('rejects a response that does not match its schema with GENERIC_ERROR', async () => {
    handler = json(200, { access_token: 'x' });
    const failure = await failureOf(client().login({ login_type: 0, login_code: 'AC3E-F4GH-J6KM' }));
    expect(failure.code).toBe('GENERIC_ERROR');
    expect(failure.status).toBe(200);
  });

  it('rejects a body that is not JSON with GENERIC_ERROR', async () => {
    handler = json(200, '<html>proxy page</html>');
    expect((await failureOf(client().finishExam(42))).code).toBe('GENERIC_ERROR');
  });

  it('turns the error envelope into ApiFailure(code, status)', async () => {
    handler = json(401, { code: 'LOGIN_CODE_INCORRECT', message: 'The login code is incorrect.' });
    const failure = await failureOf(client().login({ login_type: 0, login_code: 'AC3E-F4GH-J6KM' }));
    expect(failure.code).toBe('LOGIN_CODE_INCORRECT');
    expect(failure.status).toBe(401);
  });

  it('reads an error body that is not an envelope as GENERIC_ERROR with its status', async () => {
    handler = json(502, '<html>Bad gateway</html>');
    const failure = await failureOf(client().examQuestions(42));
    expect(failure.code).toBe('GENERIC_ERROR');
    expect(failure.status).toBe(502);
  });

  it('does not retry a failed call', async () => {
    handler = json(503, { code: 'DURING_MAINTENANCE', message: 'Maintenance' });
    expect((await failureOf(client().examDetails(42))).code).toBe('DURING_MAINTENANCE');
    expect(seen).toHaveLength(1);
  });
});

describe('the network', () => {
  it('reports NETWORK_ERROR when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await failureOf(client({ base: `http://127.0.0.1:${port}/api` }).logout());
    expect(failure.code).toBe('NETWORK_ERROR');
    expect(failure.status).toBeUndefined();
  });

  it('reports TIMEOUT when the answer comes too late', async () => {
    handler = () => undefined; // never answers
    const failure = await failureOf(client({ timeoutMs: 150 }).examDetails(42));
    expect(failure.code).toBe('TIMEOUT');
  });
});

describe('documents', () => {
  it('reads a PDF as the bytes the server sent, not as JSON', async () => {
    const pdf = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(pdf);
    };
    const file = await client().resultDocument!(42, 'report');
    expect(file).toBeInstanceOf(Blob);
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
    expect(seen[0]?.url).toBe('/api/score-report/pdf-report?schedule_history_id=42&locale=ja');
  });

  it('asks for the document in the pupil\'s language, the Arabic numerals variant included', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(Buffer.from('%PDF-1.7\n%%EOF\n', 'latin1'));
    };
    await client({ language: 'ar-nu-arab' }).resultDocument!(42, 'report');
    expect(seen[0]?.url).toBe('/api/score-report/pdf-report?schedule_history_id=42&locale=ar-nu-arab');
    // The catalog header alone ("ar") would lose the variant.
    expect(seen[0]?.headers['x-locale']).toBe('ar');
  });

  it('asks for the certificate at /get-certificate and reports a refusal by its code', async () => {
    handler = json(403, { code: 'NOT_PASSED', message: 'Not passed.', server_time: now });
    const failure = await failureOf(client().resultDocument!(42, 'certificate'));
    expect(failure.code).toBe('NOT_PASSED');
    expect(failure.status).toBe(403);
    expect(seen[0]?.url).toBe('/api/get-certificate?schedule_history_id=42&locale=ja');
  });
});

describe('call behaviour (seed section 7)', () => {
  let sent: MockInstance<typeof fetch>;

  beforeEach(() => {
    // Timers only: the local server's sockets stay real, the client's waits are ours to move.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    sent = vi.spyOn(globalThis, 'fetch');
  });

  afterEach(() => {
    sent.mockRestore();
    vi.useRealTimers();
  });

  /** The paths the client has handed to fetch so far, in order (sent, whether or not answered). */
  const sentPaths = () =>
    sent.mock.calls.map(([input]) => new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname);

  /** Lets the sockets and promises move on; fake time stands still. */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

  /** Resolves once the server has seen `count` requests. */
  async function arrived(count: number): Promise<void> {
    for (let i = 0; i < 2000 && seen.length < count; i++) await settle();
    expect(seen).toHaveLength(count);
  }

  /** Waits for the i-th fetch to fail or succeed, and for the client to act on it. */
  async function fetchSettled(i: number): Promise<void> {
    for (let k = 0; k < 2000 && sent.mock.results.length <= i; k++) await settle();
    await (sent.mock.results[i]?.value as Promise<unknown>).catch(() => undefined);
    for (let k = 0; k < 20; k++) await settle();
  }

  /** Moves fake time in the seed's steps until `promise` has settled. */
  async function drive(promise: Promise<unknown>): Promise<void> {
    let done = false;
    void promise.then(() => (done = true), () => (done = true));
    for (let i = 0; i < 500 && !done; i++) {
      await vi.advanceTimersByTimeAsync(CALL_WAIT_STEP_MS);
      await settle();
    }
    expect(done).toBe(true);
  }

  it('a serial call waits, in 20 ms steps, for the one before it; reads, saves, heartbeats and revocations go at once', async () => {
    const held: ServerResponse[] = [];
    handler = (req, res) => {
      if (req.url === '/api/exam/start') held.push(res);
      else json(403, { code: 'NOT_FOUND', message: 'No.' })(req, res);
    };
    const api = client();
    const start = api.startExam(42).catch((error: unknown) => error);
    await arrived(1);
    const finish = api.finishExam(42).catch((error: unknown) => error);
    const beside = Promise.all(
      [
        api.exams(),
        api.heartbeat({ schedule_history_id: 42, question_index: 0, visible: true }),
        api.saveAnswer({
          schedule_history_id: 42, question_id: 1, value: 'A', idempotency_key: '0f6e6c1e-6a4f-4e8c-9d55-3f1d2f3a4b5c', answered_at: now,
        }),
        // An earlier pupil's token, kept from an offline logout (session.revocation.ts).
        api.logout('tok-of-an-earlier-pupil'),
      ].map((call) => call.catch(() => undefined)),
    );
    await beside;
    expect(sentPaths()).toEqual(['/api/exam/start', '/api/exams', '/api/exam/heartbeat', '/api/exam/answers', '/api/logout']);

    // While Start has no answer, Finish keeps looking, every 20 ms.
    await vi.advanceTimersByTimeAsync(200);
    expect(sentPaths()).not.toContain('/api/exam/finish');

    json(201, { status: 6, started_at: now, deadline_at: '2026-11-22T09:40:00.000Z', server_time: now })({} as IncomingMessage, held[0]!);
    expect(await start).toMatchObject({ status: 6 });
    // Its next look is at the next 20 ms step, not before.
    await vi.advanceTimersByTimeAsync(19);
    expect(sentPaths()).not.toContain('/api/exam/finish');
    await vi.advanceTimersByTimeAsync(1);
    expect(sentPaths().at(-1)).toBe('/api/exam/finish');
    expect(await finish).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('serial calls run one at a time, in the order they were made, a failed one included', async () => {
    let open = 0;
    let most = 0;
    handler = (req, res) => {
      open++;
      most = Math.max(most, open);
      res.on('finish', () => open--);
      // Start fails on the server; the others are refused: each call finishes either way.
      json(req.url === '/api/exam/start' ? 500 : 403, { code: req.url === '/api/exam/start' ? 'GENERIC_ERROR' : 'NOT_FOUND', message: 'No.' })(req, res);
    };
    const api = client();
    const calls = [
      api.saveExamineeInfo({ examinee_name: 'Aiko Tanaka', grade_id: 5, email: 'aiko@example.com' }),
      api.startExam(42),
      api.finishExam(42),
      api.logout(),
      api.login({ login_type: 0, login_code: 'AC3E-F4GH-J6KM' }),
    ].map((call) => call.catch((error: unknown) => error));
    await drive(Promise.all(calls));
    expect(seen.map((s) => s.url)).toEqual(['/api/save-examinee-info', '/api/exam/start', '/api/exam/finish', '/api/logout', '/api/login']);
    expect(most).toBe(1);
    expect(((await calls[1]) as ApiFailure).code).toBe('GENERIC_ERROR');
  });

  it('the reload helper reads again while no answer comes, at most 3 times, after 2, 4 and 8 s', async () => {
    handler = (req) => req.socket.destroy();
    const menu = client().exams().catch((error: unknown) => error);
    for (const [retry, waitMs] of [[1, 2_000], [2, 4_000], [3, 8_000]] as const) {
      await fetchSettled(retry - 1);
      await vi.advanceTimersByTimeAsync(waitMs - 1);
      expect(sentPaths()).toHaveLength(retry);
      await vi.advanceTimersByTimeAsync(1);
      expect(sentPaths()).toHaveLength(retry + 1);
    }
    expect(((await menu) as ApiFailure).code).toBe('NETWORK_ERROR');
    expect(sentPaths()).toHaveLength(1 + RELOAD_RETRIES);
    // Given up: nothing more goes out.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sentPaths()).toHaveLength(4);
  });

  it('the reload helper stops at the first answer: the read succeeds on a later try', async () => {
    let count = 0;
    handler = (req, res) => (++count <= 2 ? req.socket.destroy() : json(200, { exams: [], server_time: now })(req, res));
    const list = client().exams();
    await fetchSettled(0);
    await vi.advanceTimersByTimeAsync(2_000);
    await fetchSettled(1);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await list).toEqual({ exams: [], server_time: now });
    expect(seen).toHaveLength(3);
  });

  it('reloads only reads: every reload call is a GET, and a refusal or a time-out is not read again', async () => {
    handler = json(403, { code: 'NOT_FOUND', message: 'No.', server_time: now });
    const api = client();
    const reads: Record<Extract<CallName, { [K in CallName]: (typeof callModes)[K] extends 'reload' ? K : never }[CallName]>, () => Promise<unknown>> = {
      organization: () => api.organization('ORG'),
      schedule: () => api.schedule({ schedule_code: 'S1', login_type: 0 }),
      appSchedule: () => api.appSchedule('ORG'),
      me: () => api.me(),
      clientConfig: () => api.clientConfig(),
      chooseStatus: () => api.chooseStatus(),
      exams: () => api.exams(),
      examPaymentSetting: () => api.examPaymentSetting(42),
      resultPaymentSetting: () => api.resultPaymentSetting(42),
      shortResult: () => api.shortResult!(42),
      scoreReport: () => api.scoreReport!(42),
      loginSlips: () => api.loginSlips!('S1', null, 'a'.repeat(43)),
      tutorialSetting: () => api.tutorialSetting!(42),
    };
    for (const [name, read] of Object.entries(reads)) {
      expect(callModes[name as CallName]).toBe('reload');
      expect(((await read().catch((error: unknown) => error)) as ApiFailure).code).toBe('NOT_FOUND');
    }
    expect(seen.map((s) => s.method)).toEqual(Object.keys(reads).map(() => 'GET'));
    expect(Object.keys(reads)).toEqual(Object.entries(callModes).filter(([, mode]) => mode === 'reload').map(([name]) => name));

    // An answer too late is not read again either (it already took the whole time-out).
    const before = sentPaths().length;
    handler = () => undefined;
    const late = createApiClient({ baseURL, getToken: () => null, getLanguage: () => 'en', getDeviceToken: () => 'd', timeoutMs: 150 });
    const failure = late.exams().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(150);
    expect(((await failure) as ApiFailure).code).toBe('TIMEOUT');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sentPaths().slice(before)).toEqual(['/api/exams']);
  });
});
