/**
 * Waiting until a statement is blocked on a row lock (PostgreSQL only): the tests that hold a
 * sitting's row in another transaction (a Finish under way, a plain UPDATE) start a save or a
 * Finish that must wait for it, and go on only once PostgreSQL says that one is waiting, so the
 * commit that follows is seen by a statement already blocked and not by one that has not begun.
 */
import type pg from 'pg';
import { expect } from 'vitest';

/** How many sessions of this database wait for a lock now, asked on `client`. */
export async function lockWaiters(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ waiting: number }>(
    "select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
  );
  return rows[0]!.waiting;
}

/**
 * Polls until exactly `count` sessions wait for a lock. Up to 15 s, not expect.poll's default
 * second: on a loaded two-core machine the request that will wait can take longer than that to
 * reach its statement (seen once with thirteen test files running side by side).
 */
export async function untilLockWaiters(client: pg.Client, count = 1): Promise<void> {
  await expect.poll(() => lockWaiters(client), { timeout: 15_000 }).toBe(count);
}
