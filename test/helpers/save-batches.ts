/**
 * What the answer saves sent to PostgreSQL as one statement: the batched save
 * (server/domain/answers/batch.ts `SAVE_ANSWERS`, sent by server/db/batching.ts) is a named prepared
 * statement, so a spy on node-postgres' `Client#query` sees each batch and its size. Tests that
 * call `batchesDuring` restore the spy with `vi.restoreAllMocks()` after each test.
 */
import pg from 'pg';
import { vi } from 'vitest';

/** The batched save statement's name (server/domain/answers/batch.ts `SAVE_ANSWERS`). */
const BATCHED_SAVE = 'gradus_save_answers_2_postgres';

/** Runs `work` and returns its result with the sizes (saves per statement) of the batched saves sent meanwhile. */
export async function batchesDuring<T>(work: () => Promise<T>): Promise<{ result: T; sizes: number[] }> {
  const sizes: number[] = [];
  const query = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as { name?: string; values?: unknown[][] } | undefined;
    if (config?.name === BATCHED_SAVE) sizes.push(config.values![0]!.length);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  const result = await work();
  return { result, sizes };
}
