/**
 * Test databases for any test layer: migrated and (by default) seeded with the demo data,
 * on PGlite in memory, or on PostgreSQL in a fresh, uniquely named database that `close()`
 * drops, so parallel test files and reruns never meet.
 *
 * PostgreSQL is the one at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test,
 * used only to create and drop the per-file databases). `testDatabaseKinds()` lists PGlite
 * always and PostgreSQL when it answers; it is left out (with a printed notice) only when the
 * connection is refused. Any other failure (wrong password, say) fails the tests loudly.
 *
 * Seeded databases are copies: in a Vitest run (test/helpers/db-template.global.ts provides
 * `gradusTestDatabases`), the first file that asks migrates and seeds one database per kind,
 * and every seeded database of the run starts as a copy of it: on PGlite a data-directory dump
 * loaded into a new in-memory instance, on PostgreSQL `CREATE DATABASE … TEMPLATE`. Migrating
 * and seeding (ten migrations, the demo's scrypt hashes) is most of a fresh database's cost; a
 * copy holds the same rows. Unseeded databases, and any database outside such a run, are
 * created and migrated as before.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, PGLITE_SETTINGS, type Database, type Db } from '../../server/db/client.ts';
import * as schema from '../../server/db/schema.ts';
import { seedDemoData } from '../../server/seed/seed.ts';

/** What test/helpers/db-template.global.ts gives a run: a directory of its own and a name for its copies. */
export type TestDatabaseTemplates = { dir: string; id: string };

declare module 'vitest' {
  export interface ProvidedContext {
    gradusTestDatabases: TestDatabaseTemplates | undefined;
  }
}

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
  const prepare = options.seed === false ? undefined : seedPrepare;
  const templates = prepare ? templatesOfThisRun() : undefined;
  if (kind === 'pglite') {
    if (templates) return { ...(await pgliteFromDump(await seededPgliteDump(templates))), kind };
    return { ...(await openDatabase({ memory: true, prepare })), kind };
  }

  const name = `gradus_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const template = templates ? await seededPostgresTemplate(templates) : undefined;
  await withAdmin((admin) => admin.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`));
  const url = databaseUrlOf(name);
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: url, prepare: template ? undefined : prepare });
  } catch (error) {
    await dropDatabase(name);
    throw error;
  }
  return {
    ...database,
    kind,
    url,
    async close() {
      await database.close();
      await dropDatabase(name);
    },
  };
}

const seedPrepare = async (db: Db) => void (await seedDemoData(db));

function databaseUrlOf(name: string): string {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** This run's copies (test/helpers/db-template.global.ts); undefined outside a Vitest run that provides them. */
function templatesOfThisRun(): TestDatabaseTemplates | undefined {
  try {
    return inject('gradusTestDatabases');
  } catch {
    return undefined;
  }
}

let pgliteDump: Promise<Blob> | undefined;

/** The run's migrated and seeded PGlite as a data-directory dump, made by the first file that needs it. */
function seededPgliteDump(templates: TestDatabaseTemplates): Promise<Blob> {
  pgliteDump ??= (async () => {
    const file = path.join(templates.dir, 'pglite-seeded.tar');
    await makeOnce(file, async () => {
      const fresh = await openDatabase({ memory: true, prepare: seedPrepare });
      try {
        const client = (fresh.db as unknown as { $client: PGlite }).$client;
        return Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
      } finally {
        await fresh.close();
      }
    });
    return new Blob([readFileSync(file)]);
  })();
  return pgliteDump;
}

/** A new in-memory PGlite holding a copy of the dump (already migrated: no migration runs). */
async function pgliteFromDump(dump: Blob): Promise<Database> {
  const client = await PGlite.create({
    loadDataDir: dump,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
  });
  let closed = false;
  return {
    db: drizzle({ client, schema }) as unknown as Db,
    driver: 'pglite',
    location: 'memory',
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

/**
 * Writes `file` with what `build` returns unless it exists, once across the run's processes:
 * the first to take `<file>.lock` builds; the others wait for the file (or for the lock to be
 * given up without one, and then try themselves).
 */
async function makeOnce(file: string, build: () => Promise<Buffer>): Promise<void> {
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return;
    try {
      mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await sleep(100);
      continue;
    }
    try {
      if (existsSync(file)) return;
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, await build());
      renameSync(partial, file);
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

function postgresTemplateName(templates: TestDatabaseTemplates): string {
  return `gradus_template_${templates.id}`;
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The run's migrated and seeded PostgreSQL database to copy, made by the first file that needs
 * it; the others wait on an advisory lock named after it, so none copies it half made.
 */
function seededPostgresTemplate(templates: TestDatabaseTemplates): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = postgresTemplateName(templates);
    await withAdmin(async (admin) => {
      await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
      try {
        const existing = await admin.query('select 1 from pg_database where datname = $1', [name]);
        if (existing.rowCount !== 0) return;
        await admin.query(`create database "${name}"`);
        try {
          await (await openDatabase({ databaseUrl: databaseUrlOf(name), prepare: seedPrepare })).close();
        } catch (error) {
          await dropDatabase(name);
          throw error;
        }
      } finally {
        await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
      }
    });
    return name;
  })();
  return postgresTemplate;
}

/** Removes a run's copies: its directory, and its PostgreSQL template when one was made. */
export async function dropTestDatabaseTemplates(templates: TestDatabaseTemplates): Promise<void> {
  rmSync(templates.dir, { recursive: true, force: true });
  if (await isPostgresReachable()) await dropDatabase(postgresTemplateName(templates));
}

/** Removes the copies, and the per-file PostgreSQL databases, of runs whose process is gone (killed before their teardown ran). */
export async function dropAbandonedTestDatabaseTemplates(): Promise<void> {
  const abandoned = (name: string, pattern: RegExp) => {
    const pid = Number(pattern.exec(name)?.[1]);
    return Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid);
  };
  for (const entry of readdirSync(tmpdir())) {
    if (abandoned(entry, /^gradus-test-db-(\d+)-/)) rmSync(path.join(tmpdir(), entry), { recursive: true, force: true });
  }
  if (!(await isPostgresReachable())) return;
  const { rows } = await withAdmin((admin) => admin.query<{ datname: string }>("select datname from pg_database where datname like 'gradus\\_%'"));
  for (const { datname } of rows) if (abandoned(datname, /^gradus_(?:template|test)_(\d+)_/)) await dropDatabase(datname);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
