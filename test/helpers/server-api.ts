/**
 * The API under test, in process: `useApi(kind)` opens a seeded test database (test/helpers/db.ts)
 * for the enclosing describe block, builds `createApp` on it with a fake clock and a silent
 * logger, and closes it afterwards. Its `call` speaks HTTP to the Hono app like a browser
 * would, and `loginAs` / `startAs` get a pupil to the point a test needs.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ErrorBodySchema } from '../../contract/errors.ts';
import { StartExamResponseSchema } from '../../contract/exam.ts';
import { LoginResponseSchema } from '../../contract/session.ts';
import { createApp } from '../../server/app.ts';
import { createFakeClock, type FakeClock } from '../../server/clock.ts';
import type { AppSettings } from '../../server/config.ts';
import type { Db } from '../../server/db/client.ts';
import type { Logger } from '../../server/logger.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from './db.ts';

/** The instant every test starts at: inside the demo test period (2026 to 2030). */
export const TEST_START = '2026-06-01T09:00:00.000Z';

export type CallOptions = {
  /** Sent as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
};

export type ApiResponse = { status: number; body: unknown; headers: Headers };

export type ApiContext = {
  readonly db: Db;
  readonly database: TestDatabase;
  readonly clock: FakeClock;
  readonly app: Hono;
  /** Lines the app logged (info and error), for the tests of the request log. */
  readonly logLines: string[];
  call(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
  /** Logs in with a code; fails the test unless it succeeds. */
  loginAs(loginCode: string): Promise<{ token: string; scheduleHistoryId: number }>;
  /** Logs in and presses Start; fails the test unless both succeed. */
  startAs(loginCode: string): Promise<{ token: string; scheduleHistoryId: number; deadlineAt: string }>;
  /** A valid answer body, filled in with a fresh key and the current time. */
  answer(scheduleHistoryId: number, questionId: number, value: string, extra?: Record<string, unknown>): Record<string, unknown>;
};

export function useApi(kind: TestDatabaseKind, settings: Partial<AppSettings> = {}): ApiContext {
  let database: TestDatabase | undefined;
  let app: Hono | undefined;
  const clock = createFakeClock(TEST_START);
  const logLines: string[] = [];
  const logger: Logger = {
    info: (line) => logLines.push(line),
    error: (line) => logLines.push(line),
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = createApp({ db: database.db, clock, logger, settings }) as unknown as Hono;
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(() => {
    clock.set(TEST_START);
    logLines.length = 0;
  });

  const ready = () => {
    if (!database || !app) throw new Error('useApi: the database is not open yet (use it inside tests)');
    return { database, app };
  };

  const context: ApiContext = {
    get db() {
      return ready().database.db;
    },
    get database() {
      return ready().database;
    },
    clock,
    get app() {
      return ready().app;
    },
    logLines,

    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['Content-Type'] = 'application/json';
      }
      if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
      const response = await ready().app.request(path, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      if ((response.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
      return { status: response.status, body: parsed, headers: response.headers };
    },

    async loginAs(loginCode) {
      const response = await context.call('POST', '/api/login', { body: { login_type: 0, login_code: loginCode } });
      if (response.status !== 200) throw new Error(`login ${loginCode}: ${response.status} ${JSON.stringify(response.body)}`);
      const body = v.parse(LoginResponseSchema, response.body);
      const scheduleHistoryId = body.examinee.schedule_history_id;
      if (scheduleHistoryId === null) throw new Error(`login ${loginCode}: a code login must name its exam`);
      return { token: body.access_token, scheduleHistoryId };
    },

    async startAs(loginCode) {
      const login = await context.loginAs(loginCode);
      const start = () =>
        context.call('POST', '/api/exam/start', { token: login.token, body: { schedule_history_id: login.scheduleHistoryId } });
      let response = await start();
      // Pupils who pay online pay the exam fee first, as they would: the demo provider, authorised.
      if (response.status === 403 && (response.body as { code?: string }).code === 'PAYMENT_REQUIRED') {
        const checkout = await context.call('POST', '/api/payment/adyen/sessions/exam-fee', {
          token: login.token,
          body: { schedule_history_id: login.scheduleHistoryId, terms_accepted: true, return_url: 'http://localhost/pay-exam-fee' },
        });
        const reference = (checkout.body as { reference?: string }).reference;
        const paid = await context.call('POST', '/api/payment/demo/complete', { token: login.token, body: { reference, outcome: 'authorised' } });
        if (paid.status !== 200) throw new Error(`pay the exam fee of ${loginCode}: ${paid.status} ${JSON.stringify(paid.body)}`);
        response = await start();
      }
      if (response.status !== 200) throw new Error(`start ${loginCode}: ${response.status} ${JSON.stringify(response.body)}`);
      return { ...login, deadlineAt: v.parse(StartExamResponseSchema, response.body).deadline_at };
    },

    answer(scheduleHistoryId, questionId, value, extra = {}) {
      return {
        schedule_history_id: scheduleHistoryId,
        question_id: questionId,
        value,
        idempotency_key: randomUUID(),
        answered_at: clock.now().toISOString(),
        ...extra,
      };
    },
  };
  return context;
}

/** The contract's error body of a response, parsed (fails when the body is not one). */
export function errorOf(response: ApiResponse) {
  return v.parse(ErrorBodySchema, response.body);
}
