/**
 * Test databases for any test layer: migrated and (by default) seeded with the demo data,
 * on PGlite in memory, or on PostgreSQL in a fresh, uniquely named database that `close()`
 * drops, so parallel test files and reruns never meet.
 *
 * PostgreSQL is the one at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test,
 * used only to create and drop the per-file databases). `testDatabaseKinds()` lists PGlite
 * always and PostgreSQL when it answers; it is left out (with a printed notice) only when the
 * connection is refused. Any other failure (wrong password, say) fails the tests loudly.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { seedDemoData } from '../../server/seed/seed.ts';

export type TestDatabaseKind = 'pglite' | 'postgres';
/** `url` is the PostgreSQL database's connection string (PostgreSQL only). */
export type TestDatabase = Database & { kind: TestDatabaseKind; url?: string };

export const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<boolean> | undefined;

/** True when PostgreSQL answers; false only when the connection is refused. */
export function isPostgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch (error) {
      if (isConnectionRefused(error)) return false;
      throw error;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

/** The databases to run a suite on: PGlite always, PostgreSQL when it answers. */
export async function testDatabaseKinds(): Promise<TestDatabaseKind[]> {
  if (await isPostgresReachable()) return ['pglite', 'postgres'];
  console.warn(`PostgreSQL at ${redacted(postgresAdminUrl)} refused the connection: skipping the PostgreSQL variant.`);
  return ['pglite'];
}

export async function createTestDatabase(
  kind: TestDatabaseKind,
  options: { seed?: boolean } = {},
): Promise<TestDatabase> {
  const prepare = options.seed === false ? undefined : async (db: Database['db']) => void (await seedDemoData(db));
  if (kind === 'pglite') return { ...(await openDatabase({ memory: true, prepare })), kind };

  const name = `gradus_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database "${name}"`));
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: url.toString(), prepare });
  } catch (error) {
    await dropDatabase(name);
    throw error;
  }
  return {
    ...database,
    kind,
    url: url.toString(),
    async close() {
      await database.close();
      await dropDatabase(name);
    },
  };
}

async function dropDatabase(name: string): Promise<void> {
  await withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function isConnectionRefused(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ('code' in error && error.code === 'ECONNREFUSED') return true;
  // Node reports a refused localhost (IPv4 and IPv6 both tried) as an AggregateError.
  return error instanceof AggregateError && error.errors.every(isConnectionRefused);
}

function redacted(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}
