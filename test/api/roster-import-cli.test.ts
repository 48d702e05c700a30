/**
 * The roster commands of `npm run admin` (server/cli/import.ts through server/admin.ts's
 * runAdmin, in process) on an empty database: a dry run and --apply of the example files, a
 * refused file printed as `row N, column X: reason` with exit code 1 and nothing imported, and
 * reissue-code printing the pupil's new code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { normalizeLoginCode } from '../../contract/session.ts';
import { runAdmin } from '../../server/admin.ts';
import { openDatabase } from '../../server/db/client.ts';
import { examinees, organizations } from '../../server/db/schema.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';

const kinds = await testDatabaseKinds();
const examples = path.resolve(import.meta.dirname, '..', '..', 'examples');

describe.each(kinds)('npm run admin -- import / reissue-code on an empty %s', (kind) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gradus-roster-cli-'));
  let env: Record<string, string>;
  let postgres: TestDatabase | undefined;

  beforeAll(async () => {
    if (kind === 'postgres') {
      postgres = await createTestDatabase('postgres', { seed: false });
      env = { DATABASE_URL: postgres.url! };
    } else {
      env = { DATA_DIR: path.join(dir, 'data') };
    }
  });
  afterAll(async () => {
    await postgres?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const admin = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(args, { out: (line) => out.push(line), err: (line) => err.push(line), env });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const pupilCodes = async () => {
    const database = await openDatabase(kind === 'postgres' ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR });
    try {
      return await database.db.select({ externalId: examinees.externalId, code: examinees.loginCode }).from(examinees);
    } finally {
      await database.close();
    }
  };

  // Each command opens the database afresh, as from a terminal: on PGlite a few seconds each on a busy machine.
  test('dry run, --apply, a refused file, the same file again, and a re-issued code', { timeout: 180_000 }, async () => {
    const dry = await admin('import', 'schools', path.join(examples, 'schools.csv'));
    expect(dry).toMatchObject({ code: 0, err: '' });
    expect(dry.out).toMatch(/1 to create, 0 to update, 0 unchanged, 0 refused\. Run again with --apply/);

    expect(await admin('import', 'schools', path.join(examples, 'schools.csv'), '--apply')).toMatchObject({ code: 0 });
    expect(await admin('import', 'venues', path.join(examples, 'venues.csv'), '--apply')).toMatchObject({ code: 0 });

    // The example pupils without their test period (an empty database has no exam to sit).
    const pupils = readFileSync(path.join(examples, 'pupils.csv'), 'utf8').replace(/,[^,\n]*$/gm, '');
    const pupilsFile = path.join(dir, 'pupils.csv');
    writeFileSync(pupilsFile, `${pupils}NOWHERE,X-1,Nobody,6A,,,,,\n`);
    const refused = await admin('import', 'pupils', pupilsFile, '--apply');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('row 10, column school: no school with this code (import the schools first): "NOWHERE"');
    expect(refused.err).toMatch(/8 to create, 0 to update, 0 unchanged, 1 refused\. Nothing was imported\./);
    expect(await pupilCodes()).toEqual([]);

    writeFileSync(pupilsFile, pupils);
    expect(await admin('import', 'pupils', pupilsFile, '--apply')).toMatchObject({ code: 0 });
    const codes = await pupilCodes();
    expect(codes).toHaveLength(8);
    const again = await admin('import', 'pupils', pupilsFile, '--apply');
    expect(again.out).toMatch(/0 create, 0 update, 8 unchanged, 0 refused/);

    const before = codes.find((row) => row.externalId === 'R6-003')!.code;
    const reissued = await admin('reissue-code', 'RIVERSIDE-INTL', 'R6-003');
    expect(reissued.code).toBe(0);
    const fresh = (await pupilCodes()).find((row) => row.externalId === 'R6-003')!.code;
    expect(fresh).not.toBe(before);
    expect(normalizeLoginCode(fresh)).toBe(fresh);
    expect(reissued.out).toContain(`New login code of ليلى حسن (RIVERSIDE-INTL/R6-003): ${fresh}. The old code ${before} no longer logs in.`);
    expect(await admin('reissue-code', 'RIVERSIDE-INTL', 'R6-999')).toMatchObject({ code: 1 });
  });

  test('usage: an unknown kind or a missing file name exits 2', async () => {
    expect((await admin('import', 'teachers', 'x.csv')).code).toBe(2);
    expect((await admin('import', 'pupils')).code).toBe(2);
    expect((await admin('reissue-code', 'RIVERSIDE-INTL')).code).toBe(2);
    const missing = await admin('import', 'pupils', path.join(dir, 'no-such-file.csv'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^Nothing was imported: cannot read/);
  });

  test('an organisation is never created by a dry run', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'school.csv');
    writeFileSync(file, 'code;name\r\nDRY-ONLY;Dry Only School\r\n');
    expect((await admin('import', 'schools', file)).code).toBe(0);
    const database = await openDatabase(kind === 'postgres' ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR });
    try {
      expect((await database.db.select().from(organizations)).map((row) => row.code)).not.toContain('DRY-ONLY');
    } finally {
      await database.close();
    }
  });
});
