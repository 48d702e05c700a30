/**
 * The server process as the end-to-end harness and `npm start` use it: `startServer` on a free
 * port serves the API and the built client (hashed assets cached for good, index.html for any
 * client route, never cached), reads its settings from the environment, and closes cleanly.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROSTER_POLL_MS } from '../../contract/admin.ts';
import { HealthResponseSchema } from '../../contract/http.ts';
import { PRESENCE_INTERVAL_MS } from '../../contract/presence.ts';
import { LoginResponseSchema } from '../../contract/session.ts';
import { createFakeClock } from '../../server/clock.ts';
import { apiProcessCount, configFromEnv } from '../../server/config.ts';
import { silentLogger } from '../../server/logger.ts';
import { IDLE_CONNECTION_MS, startServer, type RunningServer } from '../../server/main.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/db.ts';

const kinds = await testDatabaseKinds();

describe('startServer', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'gradus-dist-'));
  const clock = createFakeClock('2026-09-01T08:00:00.000Z');
  let server: RunningServer;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Gradus</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'index-3f9a1c.js'), 'export {};');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startServer({ port: 0, memory: true, distDir: dist, clock, logger: silentLogger });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  test('answers on the port it reports, on its clock', async () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://localhost:${server.port}`);
    const body = v.parse(HealthResponseSchema, await (await fetch(`${server.url}/api/health`)).json());
    expect(body.server_time).toBe('2026-09-01T08:00:00.000Z');
  });

  test('is seeded: a demo pupil logs in over HTTP', async () => {
    const response = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login_type: 0, login_code: 'ncpj6k79n3hf' }),
    });
    expect(response.status).toBe(200);
    expect(v.parse(LoginResponseSchema, await response.json()).examinee.examinee_name).toBe('Lucía Fernández');
  });

  test.each(['/', '/start', '/login-code', '/score-report/42'])('GET %s is the client (index.html, not cached)', async (route) => {
    const response = await fetch(`${server.url}${route}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('<title>Gradus</title>');
  });

  test('hashed assets are cached for a year; a missing one is a 404, not the page', async () => {
    const asset = await fetch(`${server.url}/assets/index-3f9a1c.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('export {};');
    const missing = await fetch(`${server.url}/assets/index-000000.js`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('<title>');
  });

  test('other files are served as they are', async () => {
    const response = await fetch(`${server.url}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('image/svg+xml');
  });

  test('unknown API routes stay JSON 404s, not the page', async () => {
    const response = await fetch(`${server.url}/api/exams-of-the-future`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  test('keeps an idle connection open past a poll interval, so the next poll reuses it', async () => {
    // One socket: the second request goes on the first one's connection if the server kept it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const request = httpGet(`${server.url}/api/health`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
        });
        request.on('error', reject);
      });
    try {
      expect(await get()).toEqual({ status: 200, reused: false });
      await new Promise((resolve) => setTimeout(resolve, ROSTER_POLL_MS + 1_000));
      expect(await get()).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
    expect(IDLE_CONNECTION_MS).toBeGreaterThan(Math.max(ROSTER_POLL_MS, PRESENCE_INTERVAL_MS));
  });

  test('close() stops listening and may be called twice', async () => {
    const other = await startServer({ port: 0, memory: true, distDir: dist, logger: silentLogger, seed: false });
    await Promise.all([other.close(), other.close()]);
    await expect(fetch(`${other.url}/api/health`)).rejects.toThrow();
  });
});

describe('without a built client', () => {
  test('client routes say how to build it (503), the API works', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'gradus-nodist-'));
    const server = await startServer({ port: 0, memory: true, distDir: empty, logger: silentLogger, seed: false });
    try {
      const page = await fetch(`${server.url}/start`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('npm run build');
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe.runIf(kinds.includes('postgres'))('startServer on PostgreSQL', () => {
  test('migrates, seeds when asked (the demo is never the default on PostgreSQL) and serves from DATABASE_URL', async () => {
    const database = await createTestDatabase('postgres', { seed: false });
    const server = await startServer({ port: 0, databaseUrl: database.url, seed: true, logger: silentLogger, distDir: tmpdir() });
    try {
      expect(server.database.driver).toBe('postgres');
      expect(server.database.location).not.toContain('password');
      const response = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        body: JSON.stringify({ login_type: 0, login_code: 'XF6H-JGTE-RX69' }),
      });
      expect(v.parse(LoginResponseSchema, await response.json()).examinee.subject_id).toBe(2);
    } finally {
      await server.close();
      await database.close();
    }
  });
});

describe('configFromEnv', () => {
  test('defaults: port 3000, PGlite under ./data, a 24-hour upload window', () => {
    expect(configFromEnv({})).toEqual({
      port: 3000,
      databaseUrl: undefined,
      dataDir: './data',
      uploadWindowHours: 24,
      maintenance: false,
      clockControl: false,
      demo: true,
      clientConfig: { partnerLogoutUrls: {}, embedTargetOrigin: null, oidcEnabled: false },
    });
  });

  test('reads PORT, DATABASE_URL, DATA_DIR and UPLOAD_WINDOW_HOURS', () => {
    expect(
      configFromEnv({
        PORT: '8080',
        DATABASE_URL: 'postgres://gradus@db:5432/gradus',
        DATA_DIR: '/var/lib/gradus',
        UPLOAD_WINDOW_HOURS: '1.5',
      }),
    ).toMatchObject({ port: 8080, databaseUrl: 'postgres://gradus@db:5432/gradus', dataDir: '/var/lib/gradus', uploadWindowHours: 1.5 });
  });

  test('reads MAINTENANCE, the partner logout URLs, EMBED_TARGET_ORIGIN and whether OIDC_ISSUER is set', () => {
    const config = configFromEnv({
      MAINTENANCE: '1',
      PARTNER_LOGOUT_URL_MUMBAI: 'https://mumbai.example.org/logout',
      PARTNER_LOGOUT_URL_KENYA: 'https://kenya.example.org/bye?x=1',
      EMBED_TARGET_ORIGIN: 'https://parent.example.org/some/page',
      OIDC_ISSUER: 'https://id.example.org',
    });
    expect(config.maintenance).toBe(true);
    expect(config.clientConfig).toEqual({
      partnerLogoutUrls: { '3': 'https://mumbai.example.org/logout', '6': 'https://kenya.example.org/bye?x=1' },
      embedTargetOrigin: 'https://parent.example.org',
      oidcEnabled: true,
    });
    expect(configFromEnv({ MAINTENANCE: '0' }).maintenance).toBe(false);
  });

  test.each([
    [{ PORT: 'http' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ UPLOAD_WINDOW_HOURS: '-1' }, /UPLOAD_WINDOW_HOURS/],
    [{ UPLOAD_WINDOW_HOURS: '1000' }, /UPLOAD_WINDOW_HOURS/],
    [{ MAINTENANCE: 'yes' }, /MAINTENANCE/],
    [{ PARTNER_LOGOUT_URL_EGYPT: 'not a url' }, /PARTNER_LOGOUT_URL_EGYPT/],
    [{ PARTNER_LOGOUT_URL_PHILIPPINE: 'javascript:alert(1)' }, /PARTNER_LOGOUT_URL_PHILIPPINE/],
    [{ EMBED_TARGET_ORIGIN: '*' }, /EMBED_TARGET_ORIGIN/],
    [{ WEB_CONCURRENCY: '0' }, /WEB_CONCURRENCY/],
    [{ WEB_CONCURRENCY: 'auto' }, /WEB_CONCURRENCY/],
  ])('refuses %o, naming the variable', (env, message) => {
    expect(() => configFromEnv(env)).toThrow(message);
  });

  test('API processes: one per core on PostgreSQL unless WEB_CONCURRENCY says; always one on PGlite', () => {
    const postgres = 'postgres://gradus@db:5432/gradus';
    expect(apiProcessCount(configFromEnv({ DATABASE_URL: postgres }), 2)).toEqual({ count: 2, ignored: false });
    expect(apiProcessCount(configFromEnv({ DATABASE_URL: postgres, WEB_CONCURRENCY: '6' }), 2)).toEqual({ count: 6, ignored: false });
    expect(apiProcessCount(configFromEnv({ DATABASE_URL: postgres, WEB_CONCURRENCY: '1' }), 8)).toEqual({ count: 1, ignored: false });
    expect(apiProcessCount(configFromEnv({}), 8)).toEqual({ count: 1, ignored: false });
    expect(apiProcessCount(configFromEnv({ WEB_CONCURRENCY: '4' }), 8)).toEqual({ count: 1, ignored: true });
  });
});
