/**
 * Setup file of the server's mutation run (vitest.mutation-server.config.ts) only: every test
 * file's seeded PGlite database starts from a copy of one migrated and seeded database instead
 * of migrating and seeding again. Stryker runs the API tests once per mutant, and creating,
 * migrating and seeding a PGlite database is most of each run (about ten times what loading a
 * copy takes); the rules under mutation (server/domain/) never run in the seed's place.
 *
 * The copy is a PGlite data-directory dump in the system's temporary directory, named by a hash
 * of the migrations, the schema, the seed and the domain code it calls, so a change to any of
 * them makes a new one (Stryker's instrumented copy of server/domain/ gets its own). Made
 * once by whichever test file needs it first (written under a temporary name, then renamed).
 * Unseeded databases and PostgreSQL are created as test/helpers/db.ts always does.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { vi } from 'vitest';
import { migrationsFolder, PGLITE_SETTINGS, type Db } from '../../server/db/client.ts';
import * as schema from '../../server/db/schema.ts';
import type * as testDb from './db.ts';
import type { TestDatabase } from './db.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Every file under these paths, for the copy's name. */
function filesUnder(...paths: string[]): string[] {
  return paths.flatMap((p) =>
    statSync(p).isDirectory() ? readdirSync(p, { recursive: true, encoding: 'utf8' }).map((f) => path.join(p, f)).filter((f) => statSync(f).isFile()) : [p],
  );
}

function templatePath(): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(migrationsFolder, path.join(root, 'server/db/schema.ts'), path.join(root, 'server/seed'), path.join(root, 'server/domain')).sort()) {
    hash.update(path.relative(root, file)).update(readFileSync(file));
  }
  return path.join(tmpdir(), `gradus-mutation-db-${hash.digest('hex').slice(0, 16)}.tar`);
}

async function template(): Promise<Blob> {
  const file = templatePath();
  if (!existsSync(file)) {
    // Loaded only to make the copy: most runs never import the seed.
    const [{ openDatabase }, { seedDemoData }] = await Promise.all([import('../../server/db/client.ts'), import('../../server/seed/seed.ts')]);
    const fresh = await openDatabase({ memory: true, prepare: async (db) => void (await seedDemoData(db)) });
    const client = (fresh.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    await fresh.close();
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  return new Blob([readFileSync(file)]);
}

async function fromTemplate(): Promise<TestDatabase> {
  const client = await PGlite.create({
    loadDataDir: await template(),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
  });
  const db = drizzle({ client, schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    driver: 'pglite',
    location: 'memory',
    kind: 'pglite',
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

vi.mock('./db.ts', async (importOriginal) => {
  const original = await importOriginal<typeof testDb>();
  return {
    ...original,
    createTestDatabase: (kind: Parameters<typeof original.createTestDatabase>[0], options: Parameters<typeof original.createTestDatabase>[1] = {}) =>
      kind === 'pglite' && options.seed !== false ? fromTemplate() : original.createTestDatabase(kind, options),
  };
});
