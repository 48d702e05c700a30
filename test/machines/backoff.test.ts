/**
 * The one backoff (machines/shared/backoff.ts) and each wait that grows after failures, read
 * through it: the retry machine and the background answer saves, the payment's status checks,
 * the proctor's polling, the reload helper's 2^n seconds and the server's job queue.
 */
import { describe, expect, it } from 'vitest';
import { pollDelayMs } from '../../machines/proctor/proctor.machine.ts';
import { statusBackoffMs } from '../../machines/payment/payment.rules.ts';
import { backoffMs } from '../../machines/shared/backoff.ts';
import { retryDelayMs } from '../../server/jobs/queue.ts';

const steps = (count: number) => Array.from({ length: count }, (_, i) => i);

describe('backoffMs', () => {
  it('starts at 1 s and doubles (seed section 7)', () => {
    expect(steps(6).map((step) => backoffMs(step))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
  });

  it('never waits longer than its ceiling, and counts a step below 0 as 0', () => {
    expect(steps(6).map((step) => backoffMs(step, { maxMs: 8_000 }))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(backoffMs(-3, { firstMs: 500 })).toBe(500);
    // However long the network stays away, the wait stays a number at its ceiling.
    expect(backoffMs(5_000, { maxMs: 8_000 })).toBe(8_000);
  });

  it('gives the reload helper its 2^n seconds for n = 1, 2, 3', () => {
    expect([1, 2, 3].map((n) => backoffMs(n))).toEqual([2_000, 4_000, 8_000]);
  });
});

describe('every growing wait is the one backoff with its own first wait and ceiling', () => {
  it('payment status checks: 500 ms, doubling, at most 4 s', () => {
    expect(steps(7).map(statusBackoffMs)).toEqual([500, 500, 1_000, 2_000, 4_000, 4_000, 4_000]);
  });

  it('proctor polling: the poll interval, then doubling after failures, at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(pollDelayMs)).toEqual([5_000, 5_000, 10_000, 20_000, 30_000, 30_000]);
  });

  it('server jobs: 15 s, doubling, at most 1 h', () => {
    expect([1, 2, 3, 9, 20].map(retryDelayMs)).toEqual([15_000, 30_000, 60_000, 3_600_000, 3_600_000]);
  });
});
