/**
 * Structured logs (server/logger.ts, server/observability/http.ts) and metrics
 * (server/observability/metrics.ts, metrics-routes.ts):
 * - one JSON line per request, with the request id the response names, the route pattern, the
 *   status, the time, the pupil and sitting where known, and never a token, password or code;
 * - GET /api/metrics refused without a staff token, and counting requests, answer saves (late
 *   ones too) and refusals; the job queue and sittings in progress read from the database;
 * - METRICS_PORT: the same text on 127.0.0.1 without a token.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { LoginResponseSchema } from '../../contract/session.ts';
import { createApp } from '../../server/app.ts';
import { createFakeClock } from '../../server/clock.ts';
import { enqueueJob } from '../../server/jobs/queue.ts';
import { createLogger, logLevelFromEnv, silentLogger } from '../../server/logger.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { DB_SNAPSHOT_MS } from '../../server/observability/metrics.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'Never-In-A-Log-42';

/** A pino logger writing into an array: the exact lines the server would print. */
function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger({ destination }) };
}

describe.each(kinds)('the request log on %s', (kind) => {
  let database: TestDatabase;
  const clock = createFakeClock(TEST_START);
  const { lines, logger } = capturedLogger();
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = createApp({ db: database.db, clock, logger });
  });
  afterAll(async () => {
    await database?.close();
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  /** The JSON line of the request that answered with this request id. */
  const lineOf = (requestId: string | null) => {
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const found = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.req_id === requestId);
    expect(found).toHaveLength(1);
    return { entry: found[0]!, raw: lines.find((line) => line.includes(requestId!))! };
  };

  test('a login by code: one JSON line with request id, route, status and time, and no login code or token', async () => {
    const pupil = await addSitting(database.db);
    const response = await post('/api/login', { login_type: 0, login_code: pupil.loginCode });
    expect(response.status).toBe(200);
    const { access_token: token } = v.parse(LoginResponseSchema, await response.json());
    const { entry, raw } = lineOf(response.headers.get('x-request-id'));
    expect(entry).toMatchObject({ level: 'info', method: 'POST', route: '/api/login', status: 200, msg: expect.stringMatching(/^POST \/api\/login 200 \d+ms$/) });
    expect(typeof entry.ms).toBe('number');
    expect(typeof entry.time).toBe('string');
    for (const secret of [pupil.loginCode, pupil.loginCode.replaceAll('-', ''), token]) expect(raw).not.toContain(secret);
  });

  test('a login by ID and password, right and wrong: no password, no login ID in the line', async () => {
    const pupil = await addSitting(database.db, { password: PASSWORD });
    for (const password of [PASSWORD, `${PASSWORD}-wrong`]) {
      const response = await post('/api/login', { login_type: 1, login_id: pupil.loginId, password, org_code: pupil.orgCode });
      const { raw, entry } = lineOf(response.headers.get('x-request-id'));
      expect(entry.status).toBe(response.status);
      expect(raw).not.toContain(PASSWORD);
      expect(raw).not.toContain(pupil.loginId!);
    }
  });

  test('a call with a token names the pupil and the sitting, by the route pattern, and not the token', async () => {
    const pupil = await addSitting(database.db);
    const login = v.parse(LoginResponseSchema, await (await post('/api/login', { login_type: 0, login_code: pupil.loginCode })).json());
    const response = await app.request(`/api/exam-details?schedule_history_id=${pupil.scheduleHistoryId}`, {
      headers: { Authorization: `Bearer ${login.access_token}` },
    });
    expect(response.status).toBe(200);
    const { entry, raw } = lineOf(response.headers.get('x-request-id'));
    expect(entry).toMatchObject({ route: '/api/exam-details', examinee_id: pupil.examineeId, sitting_id: pupil.scheduleHistoryId });
    expect(raw).not.toContain(login.access_token);
  });

  test('levels: LOG_LEVEL=error keeps request lines out; a bad LOG_LEVEL stops the start', async () => {
    const quiet: string[] = [];
    const errorOnly = createLogger({ level: logLevelFromEnv({ LOG_LEVEL: 'error' }), destination: new Writable({ write: (c: Buffer, _e, done) => (quiet.push(c.toString()), done()) }) });
    const quietApp = createApp({ db: database.db, clock, logger: errorOnly });
    expect((await quietApp.request('/api/health')).status).toBe(200);
    expect(quiet).toEqual([]);
    errorOnly.error('something broke', new Error('boom'));
    expect(JSON.parse(quiet[0]!)).toMatchObject({ level: 'error', msg: 'something broke', err: { message: 'boom' } });
    expect(() => logLevelFromEnv({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL');
    expect(logLevelFromEnv({})).toBe('info');
  });

  test('a request id from outside is not taken without a trusted proxy', async () => {
    const response = await app.request('/api/health', { headers: { 'X-Request-Id': 'chosen-by-the-client-1' } });
    expect(response.headers.get('x-request-id')).not.toBe('chosen-by-the-client-1');
    lineOf(response.headers.get('x-request-id'));
  });
});

describe('the request line without pino (server/logger.ts plainLine)', () => {
  test("is byte for byte pino's line for the same plain fields; anything else still goes through pino", () => {
    const written: string[] = [];
    const logger = createLogger({ destination: new Writable({ write: (c: Buffer, _e, done) => (written.push(c.toString()), done()) }) });
    const viaPino: string[] = [];
    const reference = pino(
      { base: { pid: process.pid, service: 'gradus' }, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
      new Writable({ write: (c: Buffer, _e, done) => (viaPino.push(c.toString()), done()) }),
    );
    const fields = {
      req_id: 'f1b2c3d4-0000-4000-8000-000000000000', method: 'POST', route: '/api/exam/answers', status: 201, ms: 3,
      client: '127.0.0.1', examinee_id: 12, sitting_id: 34, worker: 2, odd: 'quote " backslash \\ line\u2028 control \u0001 ü',
      nothing: null, skipped: undefined, yes: true, huge: 1e21, nan: Number.NaN,
    };
    vi.useFakeTimers({ now: new Date('2026-06-01T09:00:00.123Z'), toFake: ['Date'] });
    try {
      logger.info('POST /api/exam/answers 201 3ms', fields);
      reference.info(fields, 'POST /api/exam/answers 201 3ms');
      // A field named as one of pino's own keys, and an object: pino's way (the object is redacted).
      logger.info('own key', { msg: 'mine', level: 'mine' });
      reference.info({ msg: 'mine', level: 'mine' }, 'own key');
      logger.info('integer key', { 7: 'seven', route: '/x' });
      reference.info({ 7: 'seven', route: '/x' }, 'integer key');
      logger.info('nested', { body: { password: 'secret' } });
    } finally {
      vi.useRealTimers();
    }
    expect(written[0]).toBe(viaPino[0]);
    expect(written[1]).toBe(viaPino[1]);
    expect(written[2]).toBe(viaPino[2]);
    expect(JSON.parse(written[3]!)).toMatchObject({ msg: 'nested', body: { password: '[redacted]' } });
  });
});

/** The value of one sample of the Prometheus text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, val]) => `${k}="${val}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})?\s+(\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',').filter(Boolean);
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(match[3]);
  }
  return 0;
}

describe.each(kinds)('metrics on %s', (kind) => {
  const api = useApi(kind);
  const proctor = loadStaffAccounts().find((a) => a.login_refused_with === null)!;
  let staffToken: string;
  beforeAll(async () => {
    const response = await api.call('POST', '/api/admin/login', {
      body: { org_code: proctor.org_code, login_id: proctor.login_id, password: proctor.password },
    });
    expect(response.status).toBe(200);
    staffToken = (response.body as { access_token: string }).access_token;
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  /** Past the database snapshot's lifetime (metrics read the database at most every DB_SNAPSHOT_MS). */
  const nextSnapshot = () => vi.setSystemTime(Date.now() + DB_SNAPSHOT_MS);
  const scrape = async () => {
    const response = await api.call('GET', '/api/metrics', { token: staffToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.body as string;
  };

  test('are not public: no token, a pupil token or a wrong token is 401 NOT_LOGGED_IN', async () => {
    const pupil = await addSitting(api.db);
    const { token } = await api.loginAs(pupil.loginCode);
    for (const attempt of [undefined, token, 'x'.repeat(43)]) {
      const response = await api.call('GET', '/api/metrics', attempt === undefined ? {} : { token: attempt });
      expect(response.status).toBe(401);
      expect((response.body as { code: string }).code).toBe('NOT_LOGGED_IN');
      expect(JSON.stringify(response.body)).not.toContain('gradus_');
    }
  });

  test('count a save, a late save from the outbox, a refusal, the requests by route, and sittings in progress', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const before = await scrape();
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId, deadlineAt } = await api.startAs(pupil.loginCode);
    const [q1, q2] = await answerKey(api.db, pupil.examId);
    const save = (body: Record<string, unknown>) => api.call('POST', '/api/exam/answers', { token, body });

    expect((await save(api.answer(scheduleHistoryId, q1!.id, 'b'))).status).toBe(201);
    // Answered before the deadline, uploaded after it (the terminal was offline): saved, late.
    const offline = api.answer(scheduleHistoryId, q2!.id, 'cold');
    api.clock.set(new Date(Date.parse(deadlineAt) + 60_000));
    expect((await save(offline)).status).toBe(201);
    // Answered after the deadline: refused.
    const refused = await save(api.answer(scheduleHistoryId, q2!.id, 'too late'));
    expect(refused.status).toBe(403);
    const code = (refused.body as { code: string }).code;

    nextSnapshot();
    const after = await scrape();
    expect(sample(after, 'gradus_answer_saves_total', { outcome: 'saved' }) - sample(before, 'gradus_answer_saves_total', { outcome: 'saved' })).toBe(2);
    expect(sample(after, 'gradus_answer_saves_late_total') - sample(before, 'gradus_answer_saves_late_total')).toBe(1);
    expect(sample(after, 'gradus_answer_refusals_total', { code }) - sample(before, 'gradus_answer_refusals_total', { code })).toBe(1);
    const answers = { method: 'POST', route: '/api/exam/answers' };
    expect(sample(after, 'gradus_http_request_duration_seconds_count', { ...answers, status: '201' })).toBeGreaterThanOrEqual(2);
    // Routes, not raw paths: no sitting id in any label.
    expect(after).not.toMatch(new RegExp(`route="[^"]*${scheduleHistoryId}`));
    expect(sample(after, 'gradus_sittings_in_progress')).toBeGreaterThanOrEqual(1);
    expect(after).toContain('process_cpu_user_seconds_total');
  });

  test('read the job queue from the database', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    nextSnapshot();
    const before = sample(await scrape(), 'gradus_jobs_pending', { kind: 'score' });
    await enqueueJob(api.db, { kind: 'score', key: `metrics-test-${Date.now()}`, payload: {}, runAt: api.clock.now() });
    nextSnapshot();
    const after = await scrape();
    expect(sample(after, 'gradus_jobs_pending', { kind: 'score' })).toBe(before + 1);
    expect(sample(after, 'gradus_jobs_due')).toBeGreaterThanOrEqual(1);
    if (kind === 'postgres') expect(sample(after, 'gradus_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    else expect(after).not.toContain('gradus_db_pool_connections');
  });
});

describe('METRICS_PORT', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, memory: true, seed: false, runJobs: false, logger: silentLogger, metricsPort: 0, distDir: '/nonexistent' });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('serves the metrics on 127.0.0.1 without a token; the public port still wants one', async () => {
    expect(server.metricsPort).toBeGreaterThan(0);
    await fetch(`${server.url}/api/health`);
    const response = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(sample(text, 'gradus_http_request_duration_seconds_count', { method: 'GET', route: '/api/health', status: '200' })).toBe(1);
    expect((await fetch(`${server.url}/api/metrics`)).status).toBe(401);
  });
});
