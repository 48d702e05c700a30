/**
 * Running the jobs: `runDueJobs(db, clock)` sweeps for due work, then claims and runs due jobs
 * until none is left (several rounds, since one job's work makes another's due: auto-finish ->
 * score -> statistics and release). Each job runs in its own transaction together with its
 * "done" mark; a failure is retried later with backoff (server/jobs/queue.ts).
 *
 * `startJobRunner` does that every 15 000 ms (the seed's constant) inside a server process,
 * never two ticks at once, and stops cleanly. Any number of processes may run one.
 *
 * A `document` job prints a released sitting's documents (server/documents/store.ts) before its
 * transaction (Chromium reads this server, so printing never holds a transaction open) and
 * stores them inside it; without `documents` (tests, the test clock) it prints nothing and the
 * documents are printed on their first download.
 *
 * Beside the jobs, on its own timer (so a long round of jobs never looks like an outage), the
 * runner beats: at once when it starts and then every 15 000 ms it moves the service's
 * heartbeat and grants the automatic time credits (server/domain/time-credit.ts): a gap since
 * the last beat of any process longer than a minute is a server outage, and a maintenance
 * window that has begun is credited to the sittings it blocks. The first beat runs before the
 * first jobs, so an outage is credited before the automatic finish could end those sittings.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import * as v from 'valibot';
import type { Clock } from '../clock.ts';
import { defaultSettings } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import {
  autoFinishSitting,
  computeLevelStatistics,
  expireSchedule,
  releaseResult,
  scoreSitting,
} from '../domain/results-lifecycle.ts';
import { beat, creditMaintenanceWindows } from '../domain/time-credit.ts';
import { renderReleasedDocuments, storeDocument, type DocumentPrinting, type PrintedDocument } from '../documents/store.ts';
import type { Logger } from '../logger.ts';
import { claimJobs, JOB_TICK_MS, markDone, markFailed, type Job, type JobKind } from './queue.ts';
import { sweep } from './sweep.ts';

export type JobContext = {
  now: Date;
  uploadWindowMs: number;
  /** A `document` job's documents, printed before its transaction. */
  printed?: PrintedDocument[];
};
export type JobHandler = (tx: Tx, payload: unknown, context: JobContext) => Promise<unknown>;

const id = v.pipe(v.number(), v.integer(), v.minValue(1));
const SittingPayload = v.object({ scheduleHistoryId: id });

export const jobHandlers: Record<JobKind, JobHandler> = {
  score: (tx, payload, { now }) => scoreSitting(tx, v.parse(SittingPayload, payload).scheduleHistoryId, now),
  statistics: (tx, payload, { now }) => computeLevelStatistics(tx, v.parse(v.object({ levelId: id }), payload).levelId, now),
  release: (tx, payload, { now }) => releaseResult(tx, v.parse(SittingPayload, payload).scheduleHistoryId, now),
  expire: (tx, payload, { now }) => expireSchedule(tx, v.parse(v.object({ scheduleId: id }), payload).scheduleId, now),
  'auto-finish': (tx, payload, { now, uploadWindowMs }) =>
    autoFinishSitting(tx, v.parse(SittingPayload, payload).scheduleHistoryId, now, uploadWindowMs),
  document: async (tx, payload, { now, printed }) => {
    const { scheduleHistoryId } = v.parse(SittingPayload, payload);
    for (const document of printed ?? []) await storeDocument(tx, { scheduleHistoryId, ...document, now });
  },
};

/** This process's name on the locks it takes. */
export const processWorkerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export type RunOptions = {
  workerId?: string;
  uploadWindowMs?: number;
  /** Jobs claimed at once. */
  batchSize?: number;
  /** Replace handlers (tests: a job that fails). */
  handlers?: Partial<Record<JobKind, JobHandler>>;
  logger?: Logger;
  /** How `document` jobs print (the server's renderer and its own origin); without it they print nothing. */
  printing?: DocumentPrinting;
};

export type RunSummary = { ran: number; failed: number; jobs: { id: number; key: string; ok: boolean }[] };

/** Runs one claimed job; true when it succeeded. */
export async function runJob(db: Db, job: Job, clock: Clock, options: RunOptions = {}): Promise<boolean> {
  const workerId = options.workerId ?? processWorkerId;
  const handler = options.handlers?.[job.kind as JobKind] ?? jobHandlers[job.kind as JobKind];
  const context: JobContext = { now: clock.now(), uploadWindowMs: options.uploadWindowMs ?? defaultSettings.uploadWindowMs };
  try {
    if (handler === undefined) throw new Error(`Unknown job kind ${job.kind}`);
    if (job.kind === 'document') {
      context.printed = await renderReleasedDocuments(db, v.parse(SittingPayload, job.payload).scheduleHistoryId, context.now, options.printing);
    }
    await db.transaction(async (tx) => {
      await handler(tx, job.payload, context);
      await markDone(tx, job, workerId, clock.now());
    });
    return true;
  } catch (error) {
    options.logger?.error(`job ${job.id} (${job.key}) failed, attempt ${job.attempts}`, error);
    await markFailed(db, job, workerId, clock.now(), error);
    return false;
  }
}

/** Sweeps and runs every due job (see the module comment). */
export async function runDueJobs(db: Db, clock: Clock, options: RunOptions = {}): Promise<RunSummary> {
  const workerId = options.workerId ?? processWorkerId;
  const summary: RunSummary = { ran: 0, failed: 0, jobs: [] };
  for (let round = 0; round < 10; round++) {
    await sweep(db, clock.now(), { uploadWindowMs: options.uploadWindowMs ?? defaultSettings.uploadWindowMs });
    let progressed = false;
    for (;;) {
      const claimed = await claimJobs(db, { workerId, now: clock.now(), limit: options.batchSize ?? 20 });
      if (claimed.length === 0) break;
      progressed = true;
      for (const job of claimed) {
        const ok = await runJob(db, job, clock, { ...options, workerId });
        summary.jobs.push({ id: job.id, key: job.key, ok });
        if (ok) summary.ran++;
        else summary.failed++;
      }
    }
    if (!progressed) break;
  }
  return summary;
}

export type JobRunner = {
  /** Runs due jobs now (waits for a tick in progress first). */
  runNow(): Promise<RunSummary>;
  stop(): Promise<void>;
};

/** Runs due jobs every `intervalMs` (default 15 000 ms) until stopped. */
export function startJobRunner(options: { db: Db; clock: Clock; logger: Logger; intervalMs?: number } & RunOptions): JobRunner {
  const { db, clock, logger } = options;
  let stopped = false;
  let current: Promise<RunSummary> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const tick = (): Promise<RunSummary> => {
    const run = (current ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => runDueJobs(db, clock, options));
    current = run;
    return run;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => logger.error('job runner tick failed', error))
        .finally(schedule);
    }, options.intervalMs ?? JOB_TICK_MS);
    timer.unref?.();
  };
  let beating: Promise<void> | undefined;
  let beatTimer: ReturnType<typeof setTimeout> | undefined;
  const beatOnce = async () => {
    const now = clock.now();
    const result = await beat(db, now);
    if (result.outage) {
      logger.info(
        `server outage from ${result.outage.from.toISOString()} to ${result.outage.to.toISOString()}: ` +
          `time credited to ${result.credited} sitting(s)`,
      );
    }
    const maintenance = await creditMaintenanceWindows(db, now);
    if (maintenance > 0) logger.info(`maintenance: time credited to ${maintenance} sitting(s)`);
  };
  const scheduleBeat = () => {
    if (stopped) return;
    beatTimer = setTimeout(() => {
      beating = beatOnce()
        .catch((error: unknown) => logger.error('server heartbeat failed', error))
        .finally(scheduleBeat);
    }, options.intervalMs ?? JOB_TICK_MS);
    beatTimer.unref?.();
  };
  // The first beat at once, and the first jobs only after it (see the module comment).
  beating = beatOnce()
    .catch((error: unknown) => logger.error('server heartbeat failed', error))
    .finally(scheduleBeat);
  current = beating.then(() => ({ ran: 0, failed: 0, jobs: [] }));
  schedule();

  return {
    runNow: tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (beatTimer) clearTimeout(beatTimer);
      await current?.catch(() => undefined);
      await beating?.catch(() => undefined);
    },
  };
}
