/**
 * The one exponential backoff of Gradus (seed section 7: "1 s, doubling"). Every wait that
 * grows after failures is this function with its own first wait and ceiling:
 *
 * | caller | step | first | ceiling |
 * |---|---|---|---|
 * | the retry machine (machines/retry): a call tried again in its window | failed attempts | 1 s | none (the window ends it) |
 * | the exam's background answer saves (machines/exam, sync) | failed saves in a row | 1 s | 8 s |
 * | the payment's status checks (machines/payment) | status calls made − 1 | 500 ms | 4 s |
 * | the proctor's roster polling (machines/proctor) | failed polls − 1 | 5 s (the poll interval) | 30 s |
 * | the reload helper (src/api/client.ts) | the retry's number n = 1, 2, 3 | 1 s (so 2^n s) | none (3 tries) |
 * | the server's job queue (server/jobs/queue.ts) | attempts − 1 | 15 s | 1 h |
 */

/** The seed's first wait: 1 s. */
export const BACKOFF_FIRST_MS = 1_000;

export interface BackoffOptions {
  /** The wait at step 0 (default 1 s). */
  firstMs?: number;
  /** No wait is longer than this (default: no ceiling). */
  maxMs?: number;
}

/** The wait at `step` (0, 1, 2…; below 0 counts as 0): firstMs · 2^step, at most maxMs. */
export function backoffMs(step: number, { firstMs = BACKOFF_FIRST_MS, maxMs = Number.POSITIVE_INFINITY }: BackoffOptions = {}): number {
  return Math.min(firstMs * 2 ** Math.max(0, step), maxMs);
}
