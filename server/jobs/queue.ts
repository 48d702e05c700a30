/**
 * The job queue (ARCHITECTURE.md "Jobs"): rows of `jobs`, shared by every API process.
 * - enqueue: idempotent by `key` while a job with that key is pending (not done), so a sweep may
 *   ask for the same work again and again;
 * - claim: due jobs (run_at <= now), not locked or locked longer ago than the stale limit (a
 *   process that died mid-job), taken with FOR UPDATE SKIP LOCKED and marked with the claiming
 *   process's id, so two processes never take the same job;
 * - done: marked in the job's own transaction, only while the lock is still ours, so the work
 *   and its "done" commit together;
 * - failed: the lock is released and the job is due again after a backoff (15 s doubling, at
 *   most 1 h); after MAX_ATTEMPTS it is given up (done, with the last error kept).
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { backoffMs } from '../../machines/shared/backoff.ts';
import type { Db, Tx } from '../db/client.ts';
import { jobs } from '../db/schema.ts';

export const jobKinds = ['score', 'statistics', 'release', 'expire', 'auto-finish', 'document'] as const;
export type JobKind = (typeof jobKinds)[number];

export type Job = typeof jobs.$inferSelect;

/** The seed's 15000 (section 9): how often a process looks for due work, and the first backoff. */
export const JOB_TICK_MS = 15_000;
export const MAX_BACKOFF_MS = 3_600_000;
export const MAX_ATTEMPTS = 8;
/** A lock older than this is taken to be a dead process's; the job can be claimed again. */
export const STALE_LOCK_MS = 300_000;

/** The wait before a failed job is due again, after `attempts` attempts: 15 s, doubling, at most 1 h. */
export function retryDelayMs(attempts: number): number {
  return backoffMs(attempts - 1, { firstMs: JOB_TICK_MS, maxMs: MAX_BACKOFF_MS });
}

/** Adds a job unless one with the same key is pending; true when it was added. */
export async function enqueueJob(
  tx: Tx,
  job: { kind: JobKind; key: string; payload: Record<string, unknown>; runAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(jobs)
    .values({ kind: job.kind, key: job.key, payload: job.payload, runAt: job.runAt })
    .onConflictDoNothing({ target: jobs.key, where: sql`${jobs.doneAt} is null` })
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Claims up to `limit` due jobs for `workerId` (see the module comment). */
export async function claimJobs(
  db: Db,
  options: { workerId: string; now: Date; limit: number; staleMs?: number },
): Promise<Job[]> {
  const { now, workerId } = options;
  const staleBefore = new Date(now.getTime() - (options.staleMs ?? STALE_LOCK_MS));
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(isNull(jobs.doneAt), lte(jobs.runAt, now), or(isNull(jobs.lockedAt), lt(jobs.lockedAt, staleBefore))))
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(options.limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(jobs)
      .set({ lockedAt: now, lockedBy: workerId, attempts: sql`${jobs.attempts} + 1` })
      .where(inArray(jobs.id, due.map((d) => d.id)))
      .returning();
  });
}

/** Marks a claimed job done inside the transaction that did its work; throws when the lock is no longer ours. */
export async function markDone(tx: Tx, job: Job, workerId: string, now: Date): Promise<void> {
  const rows = await tx
    .update(jobs)
    .set({ doneAt: now, lockedAt: null, lastError: null })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), isNull(jobs.doneAt)))
    .returning({ id: jobs.id });
  if (rows.length === 0) throw new Error(`Job ${job.id} (${job.key}) is no longer locked by ${workerId}`);
}

/** Releases a failed job for a later attempt (or gives it up after MAX_ATTEMPTS). */
export async function markFailed(db: Db, job: Job, workerId: string, now: Date, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const givenUp = job.attempts >= MAX_ATTEMPTS;
  await db
    .update(jobs)
    .set({
      lockedAt: null,
      lockedBy: null,
      lastError: message.slice(0, 2000),
      runAt: new Date(now.getTime() + retryDelayMs(job.attempts)),
      doneAt: givenUp ? now : null,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), isNull(jobs.doneAt)));
}
