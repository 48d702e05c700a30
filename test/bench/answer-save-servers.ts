/**
 * The servers of the answer-save bench (test/bench/answer-save.bench.ts), run in a process of
 * their own (`fork`) so the load generator does not share their thread. For PGlite (in memory)
 * and, when it answers, PostgreSQL (a fresh database made by test/helpers/db.ts, dropped at
 * the end), each with
 * - `real`: the API as server/main.ts builds it (createApp on the system clock, its metrics, a
 *   pino logger writing every request's JSON line to /dev/null, synchronously as on stdout),
 *   with `pupils` pupils whose exams were started from their own terminal (X-Device-Token), so
 *   every save runs every rule;
 * - `floor`: a bare Hono route that reads the same body and stores it with one upsert, no rules
 *   (PGlite: through Drizzle on the same PGlite; PostgreSQL: `pg` on a pool of the same size).
 * It tells the parent where they listen and who the pupils are (one IPC message), answers the
 * message 'cpu' with the CPU time it has used so far (user + system, microseconds: the cost of
 * a save on this process, which contention on a shared machine inflates less than the wall
 * time), and closes everything on the message 'close'. The messages `{ profile: 'start' }` and
 * `{ profile: 'stop', file }` record a V8 CPU profile of this process between them
 * (node:inspector) and write it to `file` (a .cpuprofile for Chrome's DevTools or any
 * flame-graph viewer): the servers under load without their start-up.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import pg from 'pg';
import pino from 'pino';
import { createApp } from '../../server/app.ts';
import { systemClock } from '../../server/clock.ts';
import type { Db } from '../../server/db/client.ts';
import { questions } from '../../server/db/schema.ts';
import { issueToken } from '../../server/domain/tokens.ts';
import { createLogger } from '../../server/logger.ts';
import { createTestDatabase, isPostgresReachable, type TestDatabase, type TestDatabaseKind } from '../helpers/db.ts';
import { addSitting } from '../helpers/server-fixtures.ts';
import type { LoadPupil } from './load.ts';

export type BenchTarget = { database: TestDatabaseKind; server: 'real' | 'floor'; url: string };
export type ServersReady = { targets: BenchTarget[]; pupils: Record<TestDatabaseKind, LoadPupil[]> };

const FLOOR_TABLE = sql`create table if not exists bench_floor (key text primary key, question_id int not null, value text not null, answered_at timestamptz not null)`;
const FLOOR_UPSERT = 'insert into bench_floor values ($1, $2, $3, $4) on conflict (key) do update set value = excluded.value returning key';

type FloorBody = { question_id: number; value: string; idempotency_key: string; answered_at: string };

type Listening = { url: string; close(): Promise<void> };

function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
    server.once('error', reject);
  });
}

/** `count` pupils of the demo English exam in a test period around now, each started on its own terminal. */
async function startedPupils(db: Db, app: ReturnType<typeof createApp>, count: number): Promise<LoadPupil[]> {
  const now = systemClock.now();
  const day = 24 * 3600_000;
  const schedule = { startsAt: new Date(now.getTime() - day).toISOString(), endsAt: new Date(now.getTime() + day).toISOString() };
  const pupils: LoadPupil[] = [];
  for (let i = 0; i < count; i++) {
    const sitting = await addSitting(db, { schedule, venue: null });
    const token = await issueToken(db, {
      examineeId: sitting.examineeId,
      scheduleHistoryId: sitting.scheduleHistoryId,
      now,
      ttlMs: day,
      loginType: 0,
    });
    const device = `bench-terminal-${randomUUID()}`;
    const started = await app.request('/api/exam/start', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-device-token': device },
      body: JSON.stringify({ schedule_history_id: sitting.scheduleHistoryId }),
    });
    if (started.status !== 200) throw new Error(`start failed: ${started.status} ${await started.text()}`);
    // A value of each question's own type: its correct answer (the bench is not scored).
    const answers = await db
      .select({ questionId: questions.id, value: questions.correctAnswer })
      .from(questions)
      .where(eq(questions.examId, sitting.examId));
    pupils.push({ token, device, scheduleHistoryId: sitting.scheduleHistoryId, answers });
  }
  return pupils;
}

async function main(): Promise<void> {
  const pupilCount = Number(process.env.BENCH_PUPILS ?? 50);
  const kinds: TestDatabaseKind[] = (await isPostgresReachable()) ? ['pglite', 'postgres'] : ['pglite'];
  const databases: TestDatabase[] = [];
  const servers: Listening[] = [];
  const pools: pg.Pool[] = [];
  const ready: ServersReady = { targets: [], pupils: { pglite: [], postgres: [] } };
  const requestLog = pino.destination({ dest: '/dev/null', sync: true });

  for (const kind of kinds) {
    const database = await createTestDatabase(kind);
    databases.push(database);
    const app = createApp({ db: database.db, clock: systemClock, logger: createLogger({ destination: requestLog }) });
    ready.pupils[kind] = await startedPupils(database.db, app, pupilCount);
    const real = await listen(app.fetch);

    await database.db.execute(FLOOR_TABLE);
    let store: (b: FloorBody) => Promise<unknown>;
    if (kind === 'pglite') {
      store = (b) =>
        database.db.execute(
          sql`insert into bench_floor values (${b.idempotency_key}, ${b.question_id}, ${b.value}, ${b.answered_at}) on conflict (key) do update set value = excluded.value returning key`,
        );
    } else {
      const pool = new pg.Pool({ connectionString: database.url });
      pools.push(pool);
      store = (b) => pool.query(FLOOR_UPSERT, [b.idempotency_key, b.question_id, b.value, b.answered_at]);
    }
    const bare = new Hono().post('/api/exam/answers', async (c) => {
      await store((await c.req.json()) as FloorBody);
      return c.json({ ok: true }, 201);
    });
    const floor = await listen(bare.fetch);
    servers.push(real, floor);
    ready.targets.push({ database: kind, server: 'real', url: real.url }, { database: kind, server: 'floor', url: floor.url });
  }

  process.send?.(ready);
  let profiler: Session | undefined;
  process.on('message', (message) => {
    if (isProfileMessage(message)) {
      void (async () => {
        if (message.profile === 'start') {
          profiler = new Session();
          profiler.connect();
          await profiler.post('Profiler.enable');
          await profiler.post('Profiler.start');
        } else if (profiler) {
          const { profile } = await profiler.post('Profiler.stop');
          profiler.disconnect();
          profiler = undefined;
          await writeFile(message.file, JSON.stringify(profile));
        }
        process.send?.({ profiled: message.profile });
      })();
      return;
    }
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpu: user + system });
      return;
    }
    if (message !== 'close') return;
    void (async () => {
      for (const server of servers) await server.close();
      for (const pool of pools) await pool.end();
      for (const database of databases) await database.close();
      process.exit(0);
    })();
  });
}

type ProfileMessage = { profile: 'start' } | { profile: 'stop'; file: string };
function isProfileMessage(message: unknown): message is ProfileMessage {
  return typeof message === 'object' && message !== null && 'profile' in message;
}

await main();
