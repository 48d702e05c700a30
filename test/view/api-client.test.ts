/**
 * The browser's API client against a tiny local HTTP server: the seed's headers on every call,
 * responses parsed with the contract, the error envelope, and what the network did.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.ts';
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
