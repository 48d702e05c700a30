/**
 * Results day, by `npm run bench` (never by `npm test`): right after the release, N pupils each
 * download their score report and their certificate (GET /api/score-report/pdf-report and
 * GET /api/get-certificate, each pupil's own token, every access check as in production: paid,
 * released, not expired, owner), served from the stored documents (server/documents/store.ts).
 * Beside it, in the same run and from the same server process, the floor: the same bytes served
 * as a static file (@hono/node-server's serveStatic), the same number of requests over the same
 * connections. Prints requests per second, p50, p99 and the ratio to the floor per round, then
 * both again paced at the goal's results day (RESULTS_DAY_RATE); fails on any error, or when a
 * download needed a print.
 *
 * It measures serving, not printing: the documents are stored rows seeded directly (the
 * `document` job's printing is tested in test/api/documents-at-rest.test.ts), and the app is
 * given a fake renderer that would count any print. The app keeps its documents as files in a
 * directory of the run (server/documents/files.ts), written from the rows by the first
 * downloads, as a fresh server would. PGlite in memory, or a fresh PostgreSQL database with
 * DOCUMENTS_DATABASE=postgres (test/helpers/db.ts, TEST_DATABASE_URL); the server and the load
 * generator (autocannon) share this process and the machine's two cores.
 *
 *   npm run bench -- test/bench/documents.bench.ts
 *   DOCUMENTS_PUPILS=10000 npm run bench -- test/bench/documents.bench.ts
 *   DOCUMENTS_DATABASE=postgres npm run bench -- test/bench/documents.bench.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { createApp } from '../../server/app.ts';
import { etagOf } from '../../server/documents/store.ts';
import { issueToken } from '../../server/domain/tokens.ts';
import { createTestDatabase, type TestDatabaseKind } from '../helpers/db.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const PUPILS = Number(process.env.DOCUMENTS_PUPILS ?? 1_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DATABASE: TestDatabaseKind = process.env.DOCUMENTS_DATABASE === 'postgres' ? 'postgres' : 'pglite';
/**
 * The results day of the goal: 10,000 pupils each download both documents within 10 minutes of
 * the release. The paced round sends that many requests a second, the time each waits then being
 * what a pupil meets on the day (the rounds at full speed measure throughput, where the time is
 * mostly the queue of 32 connections).
 */
const RESULTS_DAY_RATE = Math.ceil((10_000 * 2) / 600);
const PACED_REQUESTS = Math.min(PUPILS * 2, 1_000);
/** About the size of a printed score report with its charts and fonts. */
const DOCUMENT_BYTES = 96 * 1024;

type Result = { duration: number; requests: { total: number }; '2xx': number; non2xx: number; errors: number; timeouts: number; latency: { p50: number; p99: number } };
type Request = { method: string; path: string; headers?: Record<string, string> };
type Autocannon = (
  options: { url: string; connections: number; amount: number; overallRate?: number; requests: { method: string; path: string; setupRequest: (r: Request) => Request }[] },
  done: (error: Error | null, result: Result) => void,
) => unknown;
// autocannon ships no types; this is the part of its programmatic API used here.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function load(url: string, next: () => { path: string; headers?: Record<string, string> }, amount: number, overallRate?: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, amount, ...(overallRate === undefined ? {} : { overallRate }), requests: [{ method: 'GET', path: '/', setupRequest: (r) => ({ ...r, ...next() }) }] },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

test(`${PUPILS} pupils download their score report and certificate right after the release`, { timeout: 1_800_000 }, async () => {
  const database = await createTestDatabase(DATABASE);
  const db = database.db;
  const dir = mkdtempSync(path.join(tmpdir(), 'gradus-documents-bench-'));
  let server: ReturnType<typeof serve> | undefined;
  try {
    const now = new Date();
    const seeding = performance.now();
    const sittings: { id: number; token: string }[] = [];
    for (let i = 0; i < PUPILS; i++) {
      const sitting = await addSitting(db, { isMyPageLogin: true });
      sittings.push({ id: sitting.scheduleHistoryId, token: await issueToken(db, { examineeId: sitting.examineeId, scheduleHistoryId: sitting.scheduleHistoryId, now, ttlMs: 86_400_000 }) });
    }
    const report = randomBytes(DOCUMENT_BYTES);
    const certificate = randomBytes(DOCUMENT_BYTES / 2);
    writeFileSync(path.join(dir, 'report.pdf'), report);
    const ids = sql.raw(`array[${sittings.map((s) => s.id).join(',')}]::int[]`);
    const finishedAt = new Date(now.getTime() - 8 * 86_400_000);
    await db.transaction(async (tx) => {
      await tx.execute(sql`update schedule_histories set status = ${ScheduleHistoryStatus.RESULT_PUBLIC}, finished_at = ${finishedAt}, locale = 'en' where id = any(${ids})`);
      await tx.execute(sql`insert into results (schedule_history_id, score, max_score, correct_count, question_count, passed, scored_at, released_at)
        select id, 20, 20, 20, 20, true, ${finishedAt}, ${now} from unnest(${ids}) as id`);
      await tx.execute(sql`insert into payments (reference, schedule_history_id, purpose, status, outcome, amount_minor, provider, expires_at)
        select 'BENCH-' || id, id, 'result_fee', 2, 'authorised', 1000, 'demo', ${now} from unnest(${ids}) as id`);
      await tx.execute(sql`insert into purchases (schedule_history_id, kind, payment_id, paid_at)
        select p.schedule_history_id, k.kind, p.id, ${now} from payments p cross join (values ('result_sheet'), ('certificate')) as k(kind) where p.reference like 'BENCH-%'`);
      await tx.execute(sql`insert into documents (schedule_history_id, kind, locale, bytes, etag)
        select id, 'report', 'en', ${report}, ${etagOf(report)} from unnest(${ids}) as id`);
      await tx.execute(sql`insert into documents (schedule_history_id, kind, locale, bytes, etag)
        select id, 'certificate', 'en', ${certificate}, ${etagOf(certificate)} from unnest(${ids}) as id`);
    });
    console.log(`seeded ${PUPILS} released, paid sittings with their documents in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

    let prints = 0;
    const app = createApp({
      db,
      logger: { info() {}, error() {} },
      documents: {
        renderer: { render: async () => (prints++, new Uint8Array(report)), close: async () => {} },
        publicOrigin: 'http://127.0.0.1:9',
        directory: path.join(dir, 'documents'),
      },
    });
    const front = new Hono();
    front.get('/static/*', serveStatic({ root: dir, rewriteRequestPath: (p) => p.replace(/^\/static/, '') }));
    front.all('*', (c) => app.fetch(c.req.raw, c.env));
    server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: front.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const amount = PUPILS * 2;
    const rows: string[] = [];
    const ratios: number[] = [];
    let worstP99 = 0;
    let turn = 0;
    const nextDownload = () => {
      const index = turn++;
      const sitting = sittings[Math.floor(index / 2) % sittings.length]!;
      const route = index % 2 === 0 ? '/api/score-report/pdf-report' : '/api/get-certificate';
      return { path: `${route}?schedule_history_id=${sitting.id}`, headers: { authorization: `Bearer ${sitting.token}` } };
    };
    const record = (label: string, name: string, r: Result) => {
      const failures = r.non2xx + r.errors + r.timeouts;
      rows.push(`${label} ${name.padEnd(11)} ${(r.requests.total / r.duration).toFixed(0).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  ${r['2xx']} 2xx`);
      if (failures > 0) console.log(rows.join('\n'));
      expect(failures, `${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} time-outs`).toBe(0);
    };
    for (let round = 1; round <= ROUNDS; round++) {
      const floor = await load(url, () => ({ path: '/static/report.pdf' }), amount);
      const downloads = await load(url, nextDownload, amount);
      record(`round ${round}`, 'static file', floor);
      record(`round ${round}`, 'downloads', downloads);
      worstP99 = Math.max(worstP99, downloads.latency.p99);
      ratios.push(downloads.requests.total / downloads.duration / (floor.requests.total / floor.duration));
    }
    // The day's pace: what a pupil waits when the requests come as fast as the goal's day sends them.
    const pacedFloor = await load(url, () => ({ path: '/static/report.pdf' }), PACED_REQUESTS, RESULTS_DAY_RATE);
    const paced = await load(url, nextDownload, PACED_REQUESTS, RESULTS_DAY_RATE);
    record(`${RESULTS_DAY_RATE}/s`, 'static file', pacedFloor);
    record(`${RESULTS_DAY_RATE}/s`, 'downloads', paced);
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      [
        `${PUPILS} pupils x 2 documents, ${DATABASE}, ${CONNECTIONS} connections, ${ROUNDS} rounds (load average ${loadavg()[0]!.toFixed(1)})`,
        ...rows,
        `downloads / static file: ${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}); worst p99 at full speed ${worstP99} ms`,
        `at the results day's pace (${RESULTS_DAY_RATE} requests/s: 10,000 pupils x 2 in 10 minutes): downloads p99 ${paced.latency.p99} ms, static file's ${pacedFloor.latency.p99} ms; prints during the downloads: ${prints}`,
      ].join('\n'),
    );
    expect(prints).toBe(0);
  } finally {
    server?.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
