/**
 * Two ways to start. `npm start` with no configuration is the demo (PGlite, the demo data); a
 * deployment (DATABASE_URL set, or GRADUS_DEMO=off) starts empty: every demo login of docs/demo.md
 * (server/seed/demo-accounts.json, results-accounts.json, staff-accounts.json) fails, and the
 * start says how to make the first administrator, who then signs in. GRADUS_DEMO=on loads the
 * demo into PostgreSQL too, and says so in the log. Real processes (`node server/main.ts`, what
 * `npm start` runs), the cluster path (WEB_CONCURRENCY=2) included.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterEach, describe, expect, test } from 'vitest';
import { ErrorBodySchema } from '../../contract/errors.ts';
import { configFromEnv, demoWanted } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { examinees, organizations, staff } from '../../server/db/schema.ts';
import { silentLogger } from '../../server/logger.ts';
import { startServer } from '../../server/main.ts';
import { loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import { loadResultsAccounts } from '../../server/seed/results-demo.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';

const kinds = await testDatabaseKinds();
const root = path.resolve(import.meta.dirname, '..', '..');
const POSTGRES = 'postgres://gradus@db:5432/gradus';

/** The refusals that mean "no such account" (or no such organisation or test period). */
const NO_SUCH_ACCOUNT = ['LOGIN_CODE_INCORRECT', 'INCORRECT_ID_PASSWORD', 'INVALID_SCHEDULE'];

type Attempt = { who: string; status: number; code: string | undefined };

/**
 * Every demo login docs/demo.md lists, over HTTP: each pupil's login code and password way, the
 * results pupils, the proctors. Each from a terminal of its own (X-Device-Token), as in a lab, so
 * the login throttle's per-terminal limit never answers for the account.
 */
async function tryEveryDemoLogin(url: string): Promise<{ pupils: Attempt[]; results: Attempt[]; proctors: Attempt[] }> {
  let terminal = 0;
  const post = async (who: string, pathname: string, body: unknown): Promise<Attempt> => {
    const headers = { 'Content-Type': 'application/json', 'X-Device-Token': `demo-check-terminal-${++terminal}` };
    const response = await fetch(`${url}${pathname}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json: unknown = await response.json();
    const error = v.safeParse(ErrorBodySchema, json);
    return { who, status: response.status, code: response.ok ? undefined : error.success ? error.output.code : 'unparsed' };
  };
  const pupils: Attempt[] = [];
  for (const account of loadDemoAccounts()) {
    pupils.push(await post(account.login_code, '/api/login', { login_type: 0, login_code: account.login_code }));
    if (account.login_type === 1) {
      pupils.push(
        await post(account.login_id!, '/api/login', { login_type: 1, login_id: account.login_id, password: account.password, org_code: account.org_code }),
      );
    }
    if (account.login_type === 5) {
      pupils.push(await post(account.login_id!, '/api/login-examinee', { login_id: account.login_id, password: account.password, org_code: account.org_code }));
    }
  }
  const results: Attempt[] = [];
  for (const account of loadResultsAccounts()) {
    results.push(await post(account.login_id, '/api/login', { login_type: 1, login_id: account.login_id, password: account.password }));
  }
  const proctors: Attempt[] = [];
  for (const account of loadStaffAccounts()) {
    proctors.push(await post(account.login_id, '/api/admin/login', { org_code: account.org_code, login_id: account.login_id, password: account.password }));
  }
  return { pupils, results, proctors };
}

type Started = { process: ChildProcess; url: string; output: () => string; lines: Record<string, unknown>[]; stop: () => Promise<number | null> };

/** `node server/main.ts` with `env`; resolves once it (or, in a cluster, every worker) is ready. */
async function startProcess(env: Record<string, string | undefined>, workers = 1): Promise<Started> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', TRUST_PROXY: '', METRICS_PORT: '', WEB_CONCURRENCY: String(workers), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const lines: Record<string, unknown>[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`the server exited (${code}) before it was ready:\n${text}`)));
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      buffered += chunk.toString();
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (!line.startsWith('{')) continue;
        const parsed = JSON.parse(line) as Record<string, unknown>;
        lines.push(parsed);
        const ready = workers > 1 ? parsed.msg === `all ${workers} workers ready` : parsed.msg === 'started';
        if (ready) resolve(String(parsed.url).replace('localhost', '127.0.0.1'));
      }
    });
  });
  // The banner follows the ready line: wait for its last line (server/main.ts printBanner): the
  // last demo staff account with the demo, how to make the first administrator without it.
  const lastStaff = loadStaffAccounts().at(-1)!;
  const bannerEnds = [`${lastStaff.login_id} / ${lastStaff.password}`, 'npm run admin -- create-staff'];
  const until = Date.now() + 20_000;
  while (!bannerEnds.some((end) => text.includes(end)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    process: child,
    url,
    output: () => text,
    lines,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** `npm run admin -- <args>` with `stdin` piped in. */
function runAdminProcess(args: string[], env: Record<string, string | undefined>, stdin: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['server/admin.ts', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('GRADUS_DEMO: which start loads the demo', () => {
  test('the demo by default only without DATABASE_URL; GRADUS_DEMO=on or off decides either way', () => {
    expect(configFromEnv({}).demo).toBe(true);
    expect(configFromEnv({ DATABASE_URL: POSTGRES }).demo).toBe(false);
    expect(configFromEnv({ DATABASE_URL: POSTGRES, GRADUS_DEMO: 'on' }).demo).toBe(true);
    expect(configFromEnv({ GRADUS_DEMO: 'off' }).demo).toBe(false);
    expect(configFromEnv({ GRADUS_DEMO: 'on' }).demo).toBe(true);
    // Empty is unset, as for every variable.
    expect(configFromEnv({ DATABASE_URL: POSTGRES, GRADUS_DEMO: '' }).demo).toBe(false);
    expect(demoWanted({ databaseUrl: undefined, gradusDemo: undefined })).toBe(true);
  });

  test.each(['yes', '1', 'ON', 'true'])('GRADUS_DEMO=%s stops the start, naming the variable', (value) => {
    expect(() => configFromEnv({ GRADUS_DEMO: value })).toThrow(/GRADUS_DEMO must be on or off/);
  });
});

describe.runIf(kinds.includes('postgres'))('a deployment on PostgreSQL', () => {
  let database: TestDatabase | undefined;
  let server: Started | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await database?.close();
    database = undefined;
  });

  test('startServer on PostgreSQL seeds nothing unless asked', async () => {
    database = await createTestDatabase('postgres', { seed: false });
    const running = await startServer({ port: 0, databaseUrl: database.url, logger: silentLogger, distDir: tmpdir(), runJobs: false });
    try {
      expect(await running.database.db.select().from(organizations)).toEqual([]);
    } finally {
      await running.close();
    }
  });

  test(
    'without GRADUS_DEMO starts empty (two API processes): no demo login works, no password is printed; the first administrator comes from create-staff and signs in',
    { timeout: 240_000 },
    async () => {
      database = await createTestDatabase('postgres', { seed: false });
      server = await startProcess({ DATABASE_URL: database.url }, 2);
      expect(server.lines.filter((l) => l.msg === 'started').map((l) => l.demo)).toEqual(['off', 'off']);
      expect(server.output()).not.toContain('GRADUS_DEMO=on');
      expect(server.output()).toContain('npm run admin -- create-staff <login id> --role admin');
      for (const secret of [...loadStaffAccounts(), ...loadResultsAccounts()].map((a) => a.password)) expect(server.output()).not.toContain(secret);

      const { pupils, results, proctors } = await tryEveryDemoLogin(server.url);
      for (const attempt of [...pupils, ...results, ...proctors]) {
        expect(NO_SUCH_ACCOUNT, `${attempt.who}: ${attempt.status} ${attempt.code}`).toContain(attempt.code);
      }
      const counts = await countRows(database.url!);
      expect(counts).toEqual({ organizations: 0, examinees: 0, staff: 0 });

      const created = await runAdminProcess(['create-staff', 'first.admin', '--role', 'admin'], { DATABASE_URL: database.url }, 'a-long-admin-password\n');
      expect(created.output).toContain('Created administrator "first.admin"');
      expect(created.code).toBe(0);
      const login = await fetch(`${server.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ login_id: 'first.admin', password: 'a-long-admin-password' }),
      });
      expect(login.status).toBe(200);
      expect(await server.stop()).toBe(0);
    },
  );

  test('GRADUS_DEMO=on loads the demo into PostgreSQL and says so: every demo account is there', { timeout: 240_000 }, async () => {
    database = await createTestDatabase('postgres', { seed: false });
    server = await startProcess({ DATABASE_URL: database.url, GRADUS_DEMO: 'on' });
    expect(server.lines.some((l) => String(l.msg).startsWith('GRADUS_DEMO=on'))).toBe(true);
    expect(server.lines.find((l) => l.msg === 'started')?.demo).toBe('on');
    expect(server.output()).toContain('proctor.demo / gradus-demo');

    const { pupils, results, proctors } = await tryEveryDemoLogin(server.url);
    for (const attempt of pupils) expect(NO_SUCH_ACCOUNT, `${attempt.who}: ${attempt.code}`).not.toContain(attempt.code);
    for (const attempt of results) expect(attempt.status, attempt.who).toBe(200);
    for (const [i, account] of loadStaffAccounts().entries()) {
      expect(proctors[i]!.code, account.login_id).toBe(account.login_refused_with ?? undefined);
    }
  });
});

describe('GRADUS_DEMO=off on PGlite', () => {
  let server: Started | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gradus-empty-'));
  afterEach(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('starts empty: no demo login works, no demo password is printed', { timeout: 240_000 }, async () => {
    server = await startProcess({ DATABASE_URL: '', DATA_DIR: dataDir, GRADUS_DEMO: 'off' });
    expect(server.lines.find((l) => l.msg === 'started')).toMatchObject({ database: 'pglite', demo: 'off' });
    expect(server.output()).not.toContain('gradus-demo');
    const { pupils, results, proctors } = await tryEveryDemoLogin(server.url);
    for (const attempt of [...pupils, ...results, ...proctors]) {
      expect(NO_SUCH_ACCOUNT, `${attempt.who}: ${attempt.status} ${attempt.code}`).toContain(attempt.code);
    }
    expect(await server.stop()).toBe(0);
    server = undefined;
    const database = await openDatabase({ dataDir });
    try {
      expect(await database.db.$count(organizations)).toBe(0);
      expect(await database.db.$count(examinees)).toBe(0);
    } finally {
      await database.close();
    }
  });
});

async function countRows(url: string): Promise<{ organizations: number; examinees: number; staff: number }> {
  const database = await openDatabase({ databaseUrl: url });
  try {
    return {
      organizations: await database.db.$count(organizations),
      examinees: await database.db.$count(examinees),
      staff: await database.db.$count(staff),
    };
  } finally {
    await database.close();
  }
}
