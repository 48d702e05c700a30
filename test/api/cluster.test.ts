/**
 * The cluster: `node server/main.ts` (what `npm start` runs) on PostgreSQL with
 * WEB_CONCURRENCY=2 runs a primary and two API processes sharing the port and the database.
 * Real processes, real sockets (a new connection per request, so the kernel's round robin
 * spreads them):
 * - requests are served by both workers, and each log line says which;
 * - the login throttle holds across them: 150 wrong codes from one address, served by both
 *   workers, then the 151st is 429 whichever worker takes it;
 * - the metrics (METRICS_PORT, served by the primary, and GET /api/metrics on any worker) are
 *   every worker's added up, with Node's process metrics one series per worker;
 * - SIGTERM to the primary stops every worker cleanly (exit 0, nothing left running).
 * PostgreSQL only: on PGlite `npm start` is one process (test/api/server.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { freePort } from '../../scripts/lib/process.ts';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { throttleLimits } from '../../server/security/throttle.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { randomLoginCode } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const root = path.resolve(import.meta.dirname, '..', '..');

type Raw = { status: number; body: string };


/** One request on a new connection. */
function call(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      url,
      { method: options.method ?? 'GET', agent: false, headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...options.headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

type LogLine = { msg?: string; worker?: number | string; route?: string; status?: number; worker_pid?: number; url?: string; metrics?: string };

describe.runIf(kinds.includes('postgres'))('npm start on PostgreSQL with WEB_CONCURRENCY=2', () => {
  let database: TestDatabase;
  let primary: ChildProcess;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  const lines: LogLine[] = [];
  let url = '';
  let metricsUrl = '';
  let staffToken = '';

  const linesOf = (worker: number) => lines.filter((l) => l.worker === worker);

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { seed: false });
    primary = spawn(process.execPath, ['server/main.ts'], {
      cwd: root,
      // GRADUS_DEMO=on: the demo proctor's token is used for the metrics.
      env: { ...process.env, DATABASE_URL: database.url, GRADUS_DEMO: 'on', WEB_CONCURRENCY: '2', PORT: '0', METRICS_PORT: String(await freePort()), LOG_LEVEL: 'info', TRUST_PROXY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => primary.once('exit', (code, signal) => resolve({ code, signal })));
    let buffered = '';
    let stderr = '';
    primary.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      primary.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${stderr}`)));
      primary.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        let newline = buffered.indexOf('\n');
        while (newline >= 0) {
          const text = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf('\n');
          if (!text.startsWith('{')) continue;
          const line = JSON.parse(text) as LogLine;
          lines.push(line);
          if (line.msg === 'all 2 workers ready') {
            url = line.url!.replace('localhost', '127.0.0.1');
            metricsUrl = line.metrics!;
            resolve();
          }
        }
      });
    });
    // A proctor's token for GET /api/metrics, before the throttle test spends this address's login budget.
    const login = await call(`${url}/api/admin/login`, {
      method: 'POST',
      body: { org_code: 'GRADUS-DEMO', login_id: 'proctor.demo', password: 'gradus-demo' },
    });
    expect(login.status).toBe(200);
    staffToken = (JSON.parse(login.body) as { access_token: string }).access_token;
  }, 120_000);

  afterAll(async () => {
    if (primary && primary.exitCode === null && primary.signalCode === null) {
      primary.kill('SIGTERM');
      await exited;
    }
    await database?.close();
  });

  test('both workers serve, and every log line says which', async () => {
    for (let i = 0; i < 12; i++) expect((await call(`${url}/api/health`)).status).toBe(200);
    const served = lines.filter((l) => l.route === '/api/health');
    expect(served.length).toBe(12);
    expect(new Set(served.map((l) => l.worker))).toEqual(new Set([1, 2]));
    expect(lines.filter((l) => l.msg === 'started').map((l) => l.worker).sort()).toEqual([1, 2]);
  });

  test('the login throttle counts failures on both workers against one limit', async () => {
    const limit = throttleLimits.devicePerMinute.points;
    for (let i = 0; i < limit; i++) {
      const response = await call(`${url}/api/login`, { method: 'POST', body: { login_type: 0, login_code: randomLoginCode() } });
      expect(response.status).toBe(401);
    }
    const failures = lines.filter((l) => l.route === '/api/login' && l.status === 401);
    expect(failures.length).toBe(limit);
    expect(linesOf(1).some((l) => l.route === '/api/login')).toBe(true);
    expect(linesOf(2).some((l) => l.route === '/api/login')).toBe(true);
    // The next ones are refused, on whichever worker they land.
    const refused = await Promise.all(
      Array.from({ length: 4 }, () => call(`${url}/api/login`, { method: 'POST', body: { login_type: 0, login_code: randomLoginCode() } })),
    );
    for (const response of refused) {
      expect(response.status).toBe(429);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    }
    const workersRefusing = new Set(lines.filter((l) => l.route === '/api/login' && l.status === 429).map((l) => l.worker));
    expect(workersRefusing.size).toBeGreaterThanOrEqual(1);
  });

  test('the metrics are every worker’s, added up, on METRICS_PORT and on /api/metrics of any worker', async () => {
    const loginsCounted = (text: string) =>
      [...text.matchAll(/^gradus_http_request_duration_seconds_count\{method="POST",route="\/api\/login",status="401"\} (\d+)$/gm)].reduce(
        (sum, m) => sum + Number(m[1]),
        0,
      );
    const scraped = await call(metricsUrl);
    expect(scraped.status).toBe(200);
    expect(loginsCounted(scraped.body)).toBe(throttleLimits.devicePerMinute.points);
    expect(scraped.body).toMatch(/^process_resident_memory_bytes\{worker="1"\} \d+/m);
    expect(scraped.body).toMatch(/^process_resident_memory_bytes\{worker="2"\} \d+/m);
    // Read from the database by each worker: the max, not the sum.
    expect(scraped.body).toMatch(/^gradus_sittings_in_progress 0$/m);

    const answeredBy = new Set<unknown>();
    for (let i = 0; i < 6; i++) {
      const viaApi = await call(`${url}/api/metrics`, { headers: { Authorization: `Bearer ${staffToken}` } });
      expect(viaApi.status).toBe(200);
      expect(loginsCounted(viaApi.body)).toBe(throttleLimits.devicePerMinute.points);
    }
    for (const line of lines.filter((l) => l.route === '/api/metrics')) answeredBy.add(line.worker);
    expect(answeredBy).toEqual(new Set([1, 2]));
  });

  test('SIGTERM to the primary stops every worker cleanly', async () => {
    const workerPids = lines.filter((l) => l.worker_pid !== undefined).map((l) => l.worker_pid!);
    expect(workerPids.length).toBe(2);
    primary.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(lines.filter((l) => typeof l.msg === 'string' && l.msg.includes('closing the database')).map((l) => l.worker).sort()).toEqual([1, 2]);
    for (const pid of workerPids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
