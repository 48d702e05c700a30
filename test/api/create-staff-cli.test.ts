/**
 * `npm run admin -- create-staff` (server/cli/create-staff.ts) on an empty database, on PGlite
 * (a DATA_DIR of its own) and on PostgreSQL: an administrator and a proctor are created with the
 * password from standard input (a pipe: its first line) or from a terminal (asked twice, never
 * echoed); the length rule, a taken login id, an unknown organisation and bad usage are refused
 * with their exit codes and change nothing; the creation is audited without the password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAdmin } from '../../server/admin.ts';
import type { CreateStaffIo } from '../../server/cli/create-staff.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { auditLog, organizations, staff } from '../../server/db/schema.ts';
import { verifyPassword } from '../../server/domain/passwords.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase, type TestDatabaseKind } from '../helpers/db.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'correct horse battery';

type Run = { code: number; out: string[]; err: string[] };

describe.each(kinds)('npm run admin -- create-staff on %s', (kind: TestDatabaseKind) => {
  let env: Record<string, string | undefined>;
  let postgres: TestDatabase | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (kind === 'postgres') {
      postgres = await createTestDatabase('postgres', { seed: false });
      env = { DATABASE_URL: postgres.url };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'gradus-create-staff-'));
      env = { DATA_DIR: dataDir };
    }
    await withDb(async (db) => void (await db.insert(organizations).values({ code: 'NORTH-HIGH', name: 'North High School', category: 'SCHOOL', loginMethod: 1 })));
  });
  afterAll(async () => {
    await postgres?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The database, opened after the command closed it (a PGlite directory belongs to one process at a time). */
  async function withDb<T>(work: (db: Database['db']) => Promise<T>): Promise<T> {
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  }

  async function run(args: string[], stdin: Readable & { isTTY?: boolean } = Readable.from([`${PASSWORD}\n`]), promptTo = new PassThrough()): Promise<Run> {
    const out: string[] = [];
    const err: string[] = [];
    const io: CreateStaffIo = { out: (l) => out.push(l), err: (l) => err.push(l), env, stdin, promptTo };
    const code = await runAdmin(args, io);
    return { code, out, err };
  }

  const accounts = () => withDb((db) => db.select().from(staff).orderBy(staff.id));

  test('the first administrator: password from standard input, no organisation, audited without the password', async () => {
    const result = await run(['create-staff', 'first.admin', '--role', 'admin', '--name', 'Head of IT']);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.out.join('\n')).toMatch(/Created administrator "first\.admin" \(Head of IT\)/);
    const [admin] = (await accounts()).filter((a) => a.loginId === 'first.admin');
    expect(admin).toMatchObject({ role: 'admin', organizationId: null, name: 'Head of IT', disabled: false });
    expect(await verifyPassword(PASSWORD, admin!.passwordHash)).toBe(true);
    const [entry] = await withDb((db) => db.select().from(auditLog).where(eq(auditLog.entity, 'staff:first.admin')));
    expect(entry).toMatchObject({ action: 'staff_create', staffId: null, scheduleId: null, reason: 'command line', before: null });
    expect(JSON.stringify(entry)).not.toContain(PASSWORD);
    expect(JSON.stringify(entry)).not.toContain('scrypt');
  });

  test('a proctor of an organisation (its code in any case); the name defaults to the login id; only the first line is the password', async () => {
    const result = await run(['create-staff', 'room.proctor', '--role', 'proctor', '--org', 'north-high'], Readable.from([`${PASSWORD}\r\nsecond line\n`]));
    expect(result.code).toBe(0);
    const [proctor] = (await accounts()).filter((a) => a.loginId === 'room.proctor');
    const [org] = await withDb((db) => db.select().from(organizations).where(eq(organizations.code, 'NORTH-HIGH')));
    expect(proctor).toMatchObject({ role: 'proctor', organizationId: org!.id, name: 'room.proctor' });
    expect(await verifyPassword(PASSWORD, proctor!.passwordHash)).toBe(true);
  });

  test('on a terminal the password is asked twice and never echoed; two different ones create nothing', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    const prompts = new PassThrough();
    let shown = '';
    prompts.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const pending = run(['create-staff', 'tty.admin', '--role', 'admin'], terminal, prompts);
    await waitFor(() => shown.includes('Password: '));
    terminal.write('tty-password-123\r');
    await waitFor(() => shown.includes('Password again: '));
    terminal.write('tty-password-123\r');
    const result = await pending;
    expect(result.code).toBe(0);
    expect(shown).toContain('Password: ');
    expect(shown).toContain('Password again: ');
    expect(shown + result.out.join('') + result.err.join('')).not.toContain('tty-password-123');

    const mismatched = Object.assign(new PassThrough(), { isTTY: true });
    const otherPrompts = new PassThrough();
    let otherShown = '';
    otherPrompts.on('data', (chunk: Buffer) => (otherShown += chunk.toString()));
    const second = run(['create-staff', 'tty.other', '--role', 'admin'], mismatched, otherPrompts);
    await waitFor(() => otherShown.includes('Password: '));
    mismatched.write('first-password-1\r');
    await waitFor(() => otherShown.includes('Password again: '));
    mismatched.write('other-password-2\r');
    const refused = await second;
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/differ/);
    expect((await accounts()).some((a) => a.loginId === 'tty.other')).toBe(false);
  });

  test('refusals (exit 1) change nothing: a taken login id, an unknown organisation, a password outside 12 to 128 characters', async () => {
    const before = await accounts();
    for (const [args, input, message] of [
      [['create-staff', 'first.admin', '--role', 'admin'], `${PASSWORD}\n`, /taken/],
      [['create-staff', 'new.proctor', '--role', 'proctor', '--org', 'NO-SUCH'], `${PASSWORD}\n`, /organisation/],
      [['create-staff', 'short.one', '--role', 'admin'], 'elevenchars\n', /12 to 128/],
      [['create-staff', 'long.one', '--role', 'admin'], `${'x'.repeat(129)}\n`, /12 to 128/],
      [['create-staff', 'no.input', '--role', 'admin'], '', /12 to 128/],
    ] as const) {
      const result = await run([...args], Readable.from(input === '' ? [] : [input]));
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.err.join('\n')).toMatch(message);
    }
    expect(await accounts()).toEqual(before);
  });

  test('bad usage is exit 2 and reads no password: no login id, no or an unknown role, --org with admin, none with proctor, a password argument', async () => {
    for (const args of [
      ['create-staff'],
      ['create-staff', 'x.admin'],
      ['create-staff', 'x.admin', '--role', 'root'],
      ['create-staff', 'x.admin', '--role', 'admin', '--org', 'NORTH-HIGH'],
      ['create-staff', 'x.proctor', '--role', 'proctor'],
      ['create-staff', 'x.admin', '--role', 'admin', '--password', PASSWORD],
      ['create-staff', 'x.admin', 'extra', '--role', 'admin'],
      ['create-staff', 'has space', '--role', 'admin'],
    ]) {
      const stdin = Readable.from([`${PASSWORD}\n`]);
      const result = await run(args, stdin);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err.join('\n')).toMatch(/Usage: npm run admin -- create-staff/);
      expect(stdin.readableEnded, 'the password was not read').toBe(false);
    }
    expect((await accounts()).some((a) => a.loginId.startsWith('x.'))).toBe(false);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
