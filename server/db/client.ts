/**
 * Opens the database the server runs on, migrated and ready:
 * - PostgreSQL (node-postgres Pool) when a `databaseUrl` is given (env DATABASE_URL);
 * - otherwise PGlite, persisted under `<dataDir>/pglite` (dataDir defaults to ./data), or kept
 *   in memory for tests (`memory: true`).
 * Both run the same Drizzle schema, migrations and queries; callers see one `Db` type.
 *
 * On PostgreSQL, migrations and the `prepare` step (the seed) run under a session advisory
 * lock, so several API processes can start at once against one database.
 * A PGlite directory belongs to ONE process at a time (PGlite is in-process: a second process
 * would keep its own diverging copy of the data). Opening it takes an exclusive lock
 * (proper-lockfile: `<dir>.lock`, refreshed while held, with the holder's pid inside); a second
 * opener gets `DataDirectoryInUseError` with a message saying who holds it. A lock left by a
 * process that died is taken over at once when its pid is gone, else once it is stale.
 * `close()` must be awaited on shutdown: PGlite only persists cleanly when closed.
 *
 * PGlite runs with PGLITE_SETTINGS: PostgreSQL's default 128 MB of shared buffers are memory
 * the WebAssembly instance touches at start and keeps (about 120 MB of the process's resident
 * memory at rest); the demo and a school's exam day fit in a fraction of 16 MB, and the files
 * underneath are in the operating system's cache anyway.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import lockfile from 'proper-lockfile';
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
  /** How often the PGlite directory lock is refreshed and when it counts as abandoned (tests shorten them). */
  lockTiming?: LockTiming;
  /** Receives errors of idle PostgreSQL connections (they must not crash the process). */
  onPoolError?: (error: Error) => void;
};

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** An arbitrary constant that names the migration lock among the database's advisory locks. */
const MIGRATION_LOCK_ID = 7_230_411;

/** Refresh the PGlite lock this often; another process treats it as abandoned after LOCK_STALE_MS. */
const LOCK_UPDATE_MS = 10_000;
const LOCK_STALE_MS = 60_000;

export type LockTiming = { updateMs?: number; staleMs?: number };

/** PostgreSQL settings of the embedded PGlite (see the module comment). */
export const PGLITE_SETTINGS = ['shared_buffers=16MB'] as const;

function pgliteOptions(dataDir?: string) {
  return {
    ...(dataDir === undefined ? {} : { dataDir }),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
  };
}

/** A second process tried to open a PGlite directory that a running process holds. */
export class DataDirectoryInUseError extends Error {
  readonly directory: string;
  readonly holderPid: number | undefined;

  constructor(directory: string, holderPid: number | undefined) {
    super(
      `The data directory ${directory} is in use by another Gradus process` +
        `${holderPid ? ` (pid ${holderPid})` : ''}. An embedded PGlite database belongs to one process at a time. ` +
        'Stop that server first, or act through it: the proctor console at /proctor and the admin API work while it runs. ' +
        'To run several processes on one database, use PostgreSQL (DATABASE_URL).',
    );
    this.name = 'DataDirectoryInUseError';
    this.directory = directory;
    this.holderPid = holderPid;
  }
}

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
  let releaseLock: () => Promise<void> = async () => {};
  if (options.memory) {
    client = await PGlite.create(pgliteOptions());
  } else {
    location = pgliteDirectory(options.dataDir);
    mkdirSync(location, { recursive: true });
    releaseLock = await holdDirectory(location, options.lockTiming);
    try {
      client = await PGlite.create(pgliteOptions(location));
    } catch (error) {
      await releaseLock();
      throw error;
    }
  }
  const pgliteDb = drizzlePglite({ client, schema });
  try {
    await migratePglite(pgliteDb, { migrationsFolder });
    await options.prepare?.(pgliteDb);
  } catch (error) {
    await client.close();
    await releaseLock();
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
      try {
        await client.close();
      } finally {
        await releaseLock();
      }
    },
  };
}

/**
 * Takes the directory's exclusive lock for this process; resolves to its release.
 * Refuses (DataDirectoryInUseError) while another live process holds it.
 */
async function holdDirectory(directory: string, timing: LockTiming = {}): Promise<() => Promise<void>> {
  const { updateMs = LOCK_UPDATE_MS, staleMs = LOCK_STALE_MS } = timing;
  const lockDirectory = `${directory}.lock`;
  // Beside the lock directory, not in it: proper-lockfile refreshes the directory's mtime and
  // treats any other change of it as a lost lock.
  const pidFile = `${lockDirectory}.pid`;
  const attempt = () =>
    lockfile.lock(directory, {
      lockfilePath: lockDirectory,
      realpath: false,
      retries: 0,
      stale: staleMs,
      update: updateMs,
      // The holder lost its lock (its refresh stalled past LOCK_STALE_MS and someone took it):
      // nothing safe is left to do but say so loudly; the other process refuses nothing now.
      onCompromised: (error) => console.error(`PGlite lock on ${directory} was compromised: ${error.message}`),
    });
  let release: () => Promise<void>;
  try {
    release = await attempt();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const holder = readHolderPid(pidFile);
    if (holder === undefined || isAlive(holder)) throw new DataDirectoryInUseError(directory, holder);
    // The holder died without releasing (a crash, SIGKILL): its lock is ours to take.
    rmSync(lockDirectory, { recursive: true, force: true });
    rmSync(pidFile, { force: true });
    try {
      release = await attempt();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirectoryInUseError(directory, readHolderPid(pidFile));
      throw again;
    }
  }
  writeFileSync(pidFile, String(process.pid));
  return async () => {
    rmSync(pidFile, { force: true });
    await release();
  };
}

function readHolderPid(pidFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
