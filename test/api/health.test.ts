/**
 * GET /api/health, the routing frame around every endpoint (unknown routes, methods, headers),
 * the request log, and the promise that an unexpected failure is a bare 500 GENERIC_ERROR.
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { catalogOf, languageKeys, languages } from '../../contract/languages.ts';
import { HealthResponseSchema } from '../../contract/http.ts';
import { createApp } from '../../server/app.ts';
import { createFakeClock } from '../../server/clock.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('health and routing on %s', (kind) => {
  const api = useApi(kind);

  test('health answers ok with the server clock', async () => {
    api.clock.set('2027-03-04T05:06:07.000Z');
    const response = await api.call('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(v.parse(HealthResponseSchema, response.body)).toEqual({ ok: true, server_time: '2027-03-04T05:06:07.000Z' });
  });

  test('API responses are never cached and not sniffed', async () => {
    const response = await api.call('GET', '/api/health');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test.each([
    ['GET', '/api/no-such-thing'],
    ['GET', '/api'],
    ['POST', '/api/health'],
    ['GET', '/api/login'],
    ['DELETE', '/api/exam/answers'],
    ['GET', '/api/exam/start/../../health/x'],
  ])('%s %s is a 404 NOT_FOUND', async (method, path) => {
    const response = await api.call(method, path);
    expect(response.status).toBe(404);
    expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', server_time: TEST_START });
  });

  test('a malformed X-Locale or X-Device-Token header is a 422 naming the header', async () => {
    for (const [header, value] of [
      ['X-Locale', 'en<script>'],
      ['X-Device-Token', 'short'],
      ['X-Device-Token', 'x'.repeat(201)],
    ] as const) {
      const response = await api.call('GET', '/api/health', { headers: { [header]: value } });
      expect(response.status).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: header, rule: 'invalid' }] });
    }
  });

  test('the client headers of every call are accepted', async () => {
    const response = await api.call('GET', '/api/health', {
      headers: {
        'Accept-Language': 'fr-CH, fr;q=0.9, en;q=0.8',
        'X-Locale': 'zh_yue_Hant',
        'X-Device-Token': '0b5c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d',
      },
    });
    expect(response.status).toBe(200);
  });

  test('the headers the client sends for each of its languages are accepted', async () => {
    for (const key of languageKeys) {
      const response = await api.call('GET', '/api/health', {
        headers: { 'Accept-Language': languages[key].tag, 'X-Locale': catalogOf(key) },
      });
      expect(response.status, key).toBe(200);
    }
  });

  test('the request log has one line per request: method, route, status, duration', async () => {
    await api.call('GET', '/api/health');
    await api.call('GET', '/api/nowhere');
    expect(api.logLines).toHaveLength(2);
    expect(api.logLines[0]).toMatch(/^GET \/api\/health 200 \d+ms$/);
    // The matched route pattern, not the raw path: an unknown path is the API's catch-all.
    expect(api.logLines[1]).toMatch(/^GET \/api\/\* 404 \d+ms$/);
  });
});

describe('unexpected failures', () => {
  test('a broken database is a 500 GENERIC_ERROR without details, logged on the server', async () => {
    const database = await createTestDatabase('pglite', { seed: false });
    const logged: unknown[] = [];
    const app = createApp({
      db: database.db,
      clock: createFakeClock(TEST_START),
      logger: { info: () => {}, error: (line, error) => logged.push(line, error) },
    });
    await database.close();

    const response = await app.request('/api/health');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ code: 'GENERIC_ERROR', message: 'An error has occurred.', server_time: TEST_START });
    expect(text).not.toMatch(/at |\.ts|closed/i);
    expect(logged[0]).toBe('GET /api/health failed');
    expect(logged[1]).toBeInstanceOf(Error);
  });
});
