/**
 * Metrics for operators (Prometheus text format, prom-client). One `Metrics` per app, with its
 * own registry; the process metrics of Node (CPU, memory, event loop, GC) once per process.
 *
 * Counted in this process (sum them over processes):
 * - gradus_http_request_duration_seconds{method,route,status}: every request, by the matched
 *   route pattern (`/api/exam/answers`, `/assets/*`), never the raw path; `_count` is requests;
 * - gradus_answer_saves_total{outcome}: answers the server took (saved, duplicate, superseded);
 * - gradus_answer_saves_late_total: saves that arrived after the deadline (an outbox upload from
 *   a terminal that was offline; accepted within the upload window, flagged `late`);
 * - gradus_answer_refusals_total{code}: answers refused, by error code;
 * - gradus_login_throttled_total{limit}: logins refused by a throttle (server/security/throttle.ts);
 * - gradus_csp_reports_total{directive}: Content-Security-Policy violations browsers reported.
 * Read from the database at each scrape (the same in every process: take the max, not the sum):
 * - gradus_sittings_in_progress: sittings whose exam runs (status DOING);
 * - gradus_jobs_pending{kind}, gradus_jobs_due, gradus_jobs_retrying{kind} (failed, to be tried
 *   again), gradus_jobs_given_up{kind} (failed MAX_ATTEMPTS times);
 * Of this process's PostgreSQL pool (absent on PGlite, which has no pool):
 * - gradus_db_pool_connections{state="total|idle|waiting"}.
 * The database is asked at most once per DB_SNAPSHOT_MS, however often someone scrapes.
 *
 * In a cluster (`clusterWorker`, server/main.ts) the rendered text is every worker's, added up
 * by the primary (server/observability/cluster-metrics.ts): counters and histograms summed, the
 * database-read gauges their max (declared with `aggregator: 'max'`), and Node's process metrics
 * one series per worker (label `worker`).
 */
import cluster from 'node:cluster';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { jobs, scheduleHistories } from '../db/schema.ts';
import { jobKinds } from '../jobs/queue.ts';
import type { Logger } from '../logger.ts';
import { clusterMetricsFromPrimary, shareWithPrimary } from './cluster-metrics.ts';

/** How long one reading of the database serves scrapes. */
export const DB_SNAPSHOT_MS = 5_000;

export type Metrics = {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly answerSaves: Counter<'outcome'>;
  readonly answerSavesLate: Counter;
  readonly answerRefusals: Counter<'code'>;
  readonly loginThrottled: Counter<'limit'>;
  readonly cspReports: Counter<'directive'>;
  /** The Prometheus text of this app's metrics and the process's. */
  render(): Promise<{ contentType: string; body: string }>;
};

/** The node-postgres Pool under a Drizzle handle, if that is what it runs on (PGlite: undefined). */
export function poolOf(db: Db): pg.Pool | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : undefined;
}

let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    // In a cluster worker, Node's metrics keep one series per worker when the primary adds them up.
    collectDefaultMetrics({ register: processRegistry, ...(cluster.isWorker ? { labels: { worker: String(cluster.worker?.id) } } : {}) });
  }
  return processRegistry;
}

export function createMetrics(options: { db: Db; clock: Clock; logger: Logger; clusterWorker?: boolean }): Metrics {
  const { db, clock, logger } = options;
  const clustered = options.clusterWorker === true && cluster.isWorker;
  const registry = new Registry();
  const pool = poolOf(db);

  const httpDuration = new Histogram({
    name: 'gradus_http_request_duration_seconds',
    help: 'Time to answer a request, by method, matched route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  /** A counter of this process, with these labels (none: one series). */
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  const answerSaves = counter('gradus_answer_saves_total', 'Answers the server took, by outcome (saved, duplicate, superseded).', ['outcome']);
  const answerSavesLate = counter('gradus_answer_saves_late_total', 'Answers saved after the deadline (outbox uploads arriving late, within the upload window).');
  const answerRefusals = counter('gradus_answer_refusals_total', 'Answers refused, by error code.', ['code']);
  const loginThrottled = counter('gradus_login_throttled_total', 'Login attempts refused by a throttle, by limit.', ['limit']);
  const cspReports = counter('gradus_csp_reports_total', 'Content-Security-Policy violations reported by browsers, by directive.', ['directive']);

  // --- Read from the database, at most once per DB_SNAPSHOT_MS ---------------------------------
  type Snapshot = {
    inProgress: number;
    pending: Map<string, number>;
    due: number;
    retrying: Map<string, number>;
    givenUp: Map<string, number>;
  };
  let snapshot: { at: number; value: Promise<Snapshot | undefined> } | undefined;
  const readSnapshot = async (): Promise<Snapshot | undefined> => {
    try {
      const now = clock.now();
      const [sittings] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(scheduleHistories)
        .where(sql`${scheduleHistories.status} = ${ScheduleHistoryStatus.DOING}`);
      const byKind = await db
        .select({
          kind: jobs.kind,
          pending: sql<number>`count(*) filter (where ${jobs.doneAt} is null)::int`,
          due: sql<number>`count(*) filter (where ${jobs.doneAt} is null and ${jobs.runAt} <= ${now.toISOString()}::timestamptz)::int`,
          retrying: sql<number>`count(*) filter (where ${jobs.doneAt} is null and ${jobs.lastError} is not null)::int`,
          givenUp: sql<number>`count(*) filter (where ${jobs.doneAt} is not null and ${jobs.lastError} is not null)::int`,
        })
        .from(jobs)
        .where(sql`${jobs.doneAt} is null or ${jobs.lastError} is not null`)
        .groupBy(jobs.kind);
      const pending = new Map<string, number>();
      const retrying = new Map<string, number>();
      const givenUp = new Map<string, number>();
      let due = 0;
      for (const row of byKind) {
        pending.set(row.kind, row.pending);
        retrying.set(row.kind, row.retrying);
        givenUp.set(row.kind, row.givenUp);
        due += row.due;
      }
      return { inProgress: sittings?.n ?? 0, pending, due, retrying, givenUp };
    } catch (error) {
      logger.error('metrics: reading the database failed', error);
      return undefined;
    }
  };
  const current = (): Promise<Snapshot | undefined> => {
    const at = Date.now();
    if (!snapshot || at - snapshot.at >= DB_SNAPSHOT_MS) snapshot = { at, value: readSnapshot() };
    return snapshot.value;
  };
  /** A gauge read from the database snapshot; the largest value of any process is the truth. */
  const snapshotGauge = (name: string, help: string, read: (s: Snapshot) => number) =>
    new Gauge({
      name,
      aggregator: 'max',
      help,
      registers: [registry],
      async collect() {
        const s = await current();
        if (s) this.set(read(s));
      },
    });
  /** The same, one value per job kind (0 for a kind with none). */
  const jobKindGauge = (name: string, help: string, read: (s: Snapshot) => ReadonlyMap<string, number>) =>
    new Gauge({
      name,
      aggregator: 'max',
      help,
      labelNames: ['kind'] as const,
      registers: [registry],
      async collect() {
        const s = await current();
        if (s) for (const kind of jobKinds) this.set({ kind }, read(s).get(kind) ?? 0);
      },
    });
  snapshotGauge('gradus_sittings_in_progress', 'Sittings whose exam is running (status DOING), across all processes.', (s) => s.inProgress);
  jobKindGauge('gradus_jobs_pending', 'Jobs not done yet (due or scheduled), by kind, across all processes.', (s) => s.pending);
  snapshotGauge('gradus_jobs_due', 'Jobs due now and not done: the queue a job runner still has to work through.', (s) => s.due);
  jobKindGauge('gradus_jobs_retrying', 'Jobs that failed and wait for another attempt, by kind.', (s) => s.retrying);
  jobKindGauge('gradus_jobs_given_up', 'Jobs given up after their last attempt failed, by kind.', (s) => s.givenUp);
  if (pool) {
    new Gauge({
      name: 'gradus_db_pool_connections',
      help: "This process's PostgreSQL pool: connections open (total), idle, and clients waiting for one.",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  if (clustered) shareWithPrimary([registry, processMetrics()]);

  return {
    registry,
    httpDuration,
    answerSaves,
    answerSavesLate,
    answerRefusals,
    loginThrottled,
    cspReports,
    async render() {
      const body = clustered ? await clusterMetricsFromPrimary() : `${await registry.metrics()}\n${await processMetrics().metrics()}`;
      return { contentType: registry.contentType, body };
    },
  };
}
