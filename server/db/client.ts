/**
 * Opens the database the server runs on, migrated and ready:
 * - PostgreSQL (node-postgres Pool) when a `databaseUrl` is given (env DATABASE_URL);
 * - otherwise PGlite, persisted under `<dataDir>/pglite` (dataDir defaults to ./data), or kept
 *   in memory for tests (`memory: true`).
 * Both run the same Drizzle schema, migrations and queries; callers see one `Db` type.
 *
 * On PostgreSQL, migrations and the `prepare` step (the seed) run under a session advisory
 * lock, so several API processes can start at once against one database.
 * `close()` must be awaited on shutdown: PGlite only persists cleanly when closed.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The database handle every query and domain function takes, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction, or the database itself, for functions that may run inside either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export type DatabaseDriver = 'pglite' | 'postgres';

export type Database = {
  db: Db;
  driver: DatabaseDriver;
  /** Where the data lives: the PGlite directory, 'memory', or the PostgreSQL URL without password. */
  location: string;
  close(): Promise<void>;
};

export type OpenDatabaseOptions = {
  /** A PostgreSQL connection string; when set, PGlite is not used. */
  databaseUrl?: string;
  /** Base data directory for PGlite (default ./data); the database lives in `<dataDir>/pglite`. */
  dataDir?: string;
  /** PGlite in memory (tests); ignored when databaseUrl is set. */
  memory?: boolean;
  /** Runs after the migrations, under the migration lock (the seed goes here). */
  prepare?: (db: Db) => Promise<void>;
  /** Receives errors of idle PostgreSQL connections (they must not crash the process). */
  onPoolError?: (error: Error) => void;
};

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** An arbitrary constant that names the migration lock among the database's advisory locks. */
const MIGRATION_LOCK_ID = 7_230_411;

export function pgliteDirectory(dataDir = './data'): string {
  return path.resolve(dataDir, 'pglite');
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options);
}

async function openPglite(options: OpenDatabaseOptions): Promise<Database> {
  let location = 'memory';
  let client: PGlite;
  if (options.memory) {
    client = await PGlite.create();
  } else {
    location = pgliteDirectory(options.dataDir);
    mkdirSync(location, { recursive: true });
    client = await PGlite.create(location);
  }
  const pgliteDb = drizzlePglite({ client, schema });
  try {
    await migratePglite(pgliteDb, { migrationsFolder });
    await options.prepare?.(pgliteDb);
  } catch (error) {
    await client.close();
    throw error;
  }
  let closed = false;
  return {
    db: pgliteDb,
    driver: 'pglite',
    location,
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

async function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): Promise<Database> {
  // Migrate on one dedicated connection: a session advisory lock belongs to its connection.
  const migrationClient = new pg.Client({ connectionString: databaseUrl });
  await migrationClient.connect();
  try {
    await migrationClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const migrationDb = drizzlePg({ client: migrationClient, schema });
    await migratePg(migrationDb, { migrationsFolder });
    await options.prepare?.(migrationDb);
  } finally {
    await migrationClient.end();
  }

  const pool = new pg.Pool({ connectionString: databaseUrl });
  pool.on('error', (error) => options.onPoolError?.(error));
  let closed = false;
  return {
    db: drizzlePg({ client: pool, schema }),
    driver: 'postgres',
    location: redactUrl(databaseUrl),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres';
  }
}
