/**
 * The database underneath the API: migrations and the demo seed are safe to run on every
 * start (also by several processes at once on PostgreSQL), PGlite keeps its data on disk
 * across restarts, and the demo content is what the README and the journey rely on.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { LOGIN_CODE_ALPHABET, normalizeLoginCode } from '../../contract/session.ts';
import { DataDirectoryInUseError, openDatabase, pgliteDirectory } from '../../server/db/client.ts';
import { projectEnv, root, spawnNode, waitForExit } from '../../scripts/lib/process.ts';
import * as schema from '../../server/db/schema.ts';
import { demoSittingsOf, loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import { resultsDemoLoginCodes } from '../../server/seed/results-demo.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('migrations and seed on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  test('seeding again changes nothing', async () => {
    const before = await snapshotTables(database.db);
    await seedDemoData(database.db);
    await seedDemoData(database.db);
    expect(await snapshotTables(database.db)).toEqual(before);
  });

  test('the demo content: subjects 1, 2, 3, 6 with a level each, and exams of both question types', async () => {
    const { db } = database;
    expect((await db.select().from(schema.subjects).orderBy(schema.subjects.id)).map((s) => s.id)).toEqual([1, 2, 3, 6]);
    const levels = await db.select().from(schema.levels);
    expect(new Set(levels.map((l) => l.subjectId))).toEqual(new Set([1, 2, 3, 6]));
    const [english] = await db.select().from(schema.exams).where(eq(schema.exams.code, 'EN-1'));
    expect(english).toMatchObject({ timeLimitSeconds: 2400 });
    const questions = await db.select().from(schema.questions).where(eq(schema.questions.examId, english!.id));
    expect(questions.length).toBeGreaterThanOrEqual(5);
    expect(new Set(questions.map((q) => q.type))).toEqual(new Set(['single_choice', 'text']));
    for (const q of questions) {
      if (q.type === 'single_choice') expect(q.choices.map((c) => c.id)).toContain(q.correctAnswer);
      else expect(q.choices).toEqual([]);
    }
  });

  test('every demo account exists with a normalised code from the alphabet and its sittings', async () => {
    const accounts = loadDemoAccounts();
    for (const account of accounts) {
      expect(normalizeLoginCode(account.login_code)).toBe(account.login_code);
      expect([...account.login_code.replaceAll('-', '')].every((ch) => LOGIN_CODE_ALPHABET.includes(ch))).toBe(true);
      const [examinee] = await database.db.select().from(schema.examinees).where(eq(schema.examinees.loginCode, account.login_code));
      expect(examinee?.name).toBe(account.name);
      const [sittings] = await database.db
        .select({ n: count() })
        .from(schema.scheduleHistories)
        .where(eq(schema.scheduleHistories.examineeId, examinee!.id));
      expect(sittings?.n).toBe(demoSittingsOf(account).length);
    }
  });

  test('a demo pupil an older seed wrote without a pupil id: the pupils file adopts them by their login code', async () => {
    const code = loadDemoAccounts()[0]!.login_code;
    await database.db.update(schema.examinees).set({ externalId: null }).where(eq(schema.examinees.loginCode, code));
    const [before] = await database.db.select({ n: count() }).from(schema.examinees);
    await seedDemoData(database.db);
    const [after] = await database.db.select({ n: count() }).from(schema.examinees);
    expect(after?.n).toBe(before?.n);
    const [pupil] = await database.db.select().from(schema.examinees).where(eq(schema.examinees.loginCode, code));
    expect(pupil?.externalId).toBe('P-001');
  });

  test('the schema refuses what the seed forbids (status, subject, category)', async () => {
    const { db } = database;
    await expect(db.execute(sql`update schedule_histories set status = 9`)).rejects.toThrow();
    await expect(db.insert(schema.subjects).values({ id: 4, name: 'Not a subject' })).rejects.toThrow();
    await expect(db.execute(sql`update organizations set category = 'CLUB'`)).rejects.toThrow();
  });
});

describe.each(kinds)('a newer seed on older data on %s', (kind) => {
  test('adds the new demo rows, leaves the old ones as they were, duplicates nothing', async () => {
    const database = await createTestDatabase(kind, { seed: false });
    try {
      const all = loadDemoAccounts();
      const older = all.filter((a) => a.login_type === 0 && !a.other_exams.length).slice(0, 11);
      await seedDemoData(database.db, older);
      await database.db.update(schema.examinees).set({ email: 'kept@example.org' }).where(eq(schema.examinees.loginCode, older[0]!.login_code));
      const oldRows = await database.db.select().from(schema.examinees).orderBy(schema.examinees.id);

      await seedDemoData(database.db);
      const rows = await database.db.select().from(schema.examinees).orderBy(schema.examinees.id);
      expect(rows.slice(0, oldRows.length)).toEqual(oldRows);
      // Besides the demo accounts: the results demo (server/seed/results-demo.ts), one sitting each.
      const results = new Set(resultsDemoLoginCodes());
      expect(rows.map((r) => r.loginCode).filter((c) => !results.has(c)).sort()).toEqual(all.map((a) => a.login_code).sort());
      const [sittings] = await database.db.select({ n: count() }).from(schema.scheduleHistories);
      expect(sittings?.n).toBe(all.reduce((n, a) => n + demoSittingsOf(a).length, 0) + results.size);

      const before = await snapshotTables(database.db);
      await seedDemoData(database.db);
      expect(await snapshotTables(database.db)).toEqual(before);
    } finally {
      await database.close();
    }
  });
});

describe('PGlite on disk', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gradus-pglite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('keeps its data across a close and a reopen, and the second start seeds nothing twice', async () => {
    const first = await openDatabase({ dataDir: dir, prepare: async (db) => void (await seedDemoData(db)) });
    await first.db.update(schema.examinees).set({ email: 'kept@example.org' }).where(eq(schema.examinees.loginCode, 'GM47-WCWJ-CRKT'));
    const before = await snapshotTables(first.db);
    await first.close();

    const second = await openDatabase({ dataDir: dir, prepare: async (db) => void (await seedDemoData(db)) });
    try {
      expect(second.location).toBe(path.join(dir, 'pglite'));
      expect(await snapshotTables(second.db)).toEqual(before);
    } finally {
      await second.close();
    }
  });
});

describe('a PGlite directory belongs to one process', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gradus-pglite-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a second opener is refused while the first holds it, and gets it once the first closed', async () => {
    const first = await openDatabase({ dataDir: dir, prepare: async (db) => void (await seedDemoData(db)) });
    try {
      const second = openDatabase({ dataDir: dir });
      await expect(second).rejects.toBeInstanceOf(DataDirectoryInUseError);
      await expect(second).rejects.toThrow(`in use by another Gradus process (pid ${process.pid})`);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  test('`npm run admin` beside a server holding the directory refuses, says why, and changes nothing', async () => {
    const server = await openDatabase({ dataDir: dir });
    try {
      const before = await snapshotTables(server.db);
      const child = spawnNode(path.join(root, 'server/admin.ts'), ['reset', 'GM47-WCWJ-CRKT'], {
        env: projectEnv({ DATA_DIR: dir, DATABASE_URL: undefined }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exit = await waitForExit(child);
      expect(exit.code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain('Nothing was reset.');
      expect(stderr).toContain('/proctor');
      expect(await snapshotTables(server.db)).toEqual(before);
    } finally {
      await server.close();
    }
  });

  test('a holder keeps its lock across refreshes and releases it cleanly on close', async () => {
    const onCompromised = vi.spyOn(console, 'error');
    const database = await openDatabase({ dataDir: dir, lockTiming: { updateMs: 1_000, staleMs: 2_000 } });
    try {
      // Past two refreshes and the stale time: still held, nobody else gets in.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirectoryInUseError);
    } finally {
      await database.close();
    }
    expect(onCompromised).not.toHaveBeenCalled();
    onCompromised.mockRestore();
    expect(existsSync(`${pgliteDirectory(dir)}.lock`)).toBe(false);
    expect(existsSync(`${pgliteDirectory(dir)}.lock.pid`)).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  test('a lock left by a process that died is taken over at once', async () => {
    const dead = spawnNode(path.join(root, 'scripts/lib/process.ts'), []);
    await waitForExit(dead);
    const lockDirectory = `${pgliteDirectory(dir)}.lock`;
    mkdirSync(lockDirectory, { recursive: true });
    writeFileSync(`${lockDirectory}.pid`, String(dead.pid));
    const database = await openDatabase({ dataDir: dir });
    try {
      expect(readFileSync(`${lockDirectory}.pid`, 'utf8')).toBe(String(process.pid));
    } finally {
      await database.close();
    }
  });
});

describe.runIf(kinds.includes('postgres'))('several processes starting at once on PostgreSQL', () => {
  test('all start; none duplicates the seed', async () => {
    const template = await createTestDatabase('postgres', { seed: false });
    const url = template.url!;
    try {
      const opened = await Promise.all(
        Array.from({ length: 6 }, () => openDatabase({ databaseUrl: url, prepare: async (db) => void (await seedDemoData(db)) })),
      );
      const [examinees] = await template.db.select({ n: count() }).from(schema.examinees);
      const [sittings] = await template.db.select({ n: count() }).from(schema.scheduleHistories);
      const results = resultsDemoLoginCodes().length;
      expect(examinees?.n).toBe(loadDemoAccounts().length + results);
      expect(sittings?.n).toBe(loadDemoAccounts().reduce((n, a) => n + demoSittingsOf(a).length, 0) + results);
      await Promise.all(opened.map((d) => d.close()));
    } finally {
      await template.close();
    }
  });
});
