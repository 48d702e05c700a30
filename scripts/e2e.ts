/**
 * End-to-end runner (`npm run test:e2e`, and the last step of `npm test`).
 *
 * 1. Finds Chromium (CHROMIUM_PATH, else /usr/bin/chromium); none: fails, naming the
 *    Debian package. A missing browser is never a skipped test.
 * 2. Uses the production build in dist/ (builds it when missing, or with --build).
 * 3. Migrates and seeds one embedded PGlite with the demo, once, in a temporary directory; then
 *    starts the real server, `node server/main.ts`, once per worker (`--servers=N`, default 2),
 *    each on a free port with a copy of that directory as its DATA_DIR (DATABASE_URL is removed,
 *    so every server starts from the demo seed; its own start migrates and seeds again, which
 *    changes nothing), and waits for GET /api/health to answer 200 on each. Tests that start a
 *    server of their own copy the same directory (E2E_SEEDED_DATA_DIR,
 *    test/helpers/e2e-own-server.ts).
 * 4. Runs test/e2e/**\/*.e2e.ts with Vitest (vitest.e2e.config.ts), N files at a time: the files
 *    of worker n run one after another against server n only (test/helpers/e2e-server.setup.ts
 *    picks it by VITEST_POOL_ID), so no two files ever share a server at the same time and a
 *    test that moves a server's clock or acts on a whole class meets no other file's pupils.
 *    Passes E2E_SERVERS, CHROMIUM_PATH, and E2E_BASE_URL and E2E_ARTIFACTS_DIR of server 1.
 * 5. Stops the servers, on success, failure and Ctrl-C alike.
 *
 * Usage: `npm run test:e2e [-- --build] [-- --servers=1] [-- <vitest args>]`; the vitest args
 * pass through, so `npm run test:e2e -- test/e2e/time-out.e2e.ts` runs one file and
 * `-- -t "Back"` picks tests. Artifacts per server n in .e2e/server-<n>/: server.log,
 * screenshots/ (failed tests), the pupils its files took; results JSON in E2E_RESULTS_FILE
 * (default test-results/e2e.json), which `npm test` reads for its summary, and each file's time
 * in VITEST_FILE_TIMES when set (scripts/lib/file-times-reporter.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, mkdtempSync, type WriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../server/db/client.ts';
import { seedDemoData } from '../server/seed/seed.ts';
import { demoAccounts, demoClient, startDemoIdp } from './demo-idp.ts';
import { build } from './lib/build.ts';
import { findChromium } from './lib/chromium.ts';
import { freePort, localBin, projectEnv, root, spawnNode, stopChild, waitForExit, type Exit } from './lib/process.ts';

/** A server's start (migrations and the demo seed, a no-op on the seeded copy) on a loaded 2-core machine. */
const HEALTH_TIMEOUT_MS = 300_000;
/**
 * Two files at a time. Three took longer on the 2-core machine (945 s against 719 s for the
 * step: Chromium's renderers and three servers kept the load average near 12).
 */
const DEFAULT_SERVERS = 2;
const artifactsDir = path.join(root, '.e2e');
const resultsFile = path.resolve(root, process.env.E2E_RESULTS_FILE ?? 'test-results/e2e.json');

const args = process.argv.slice(2);
const forceBuild = args.includes('--build');
const serversArg = args.find((a) => a.startsWith('--servers='));
const serverCount = serversArg ? Number(serversArg.slice('--servers='.length)) : DEFAULT_SERVERS;
const vitestArgs = args.filter((a) => a !== '--build' && a !== serversArg);

function fail(message: string): never {
  console.error(`\ne2e: ${message}`);
  process.exit(1);
}

if (!Number.isInteger(serverCount) || serverCount < 1 || serverCount > 8) fail(`--servers takes a whole number from 1 to 8, not ${serversArg}`);

type Server = {
  n: number;
  url: string;
  dataDir: string;
  artifacts: string;
  logFile: string;
  log: WriteStream;
  child: ChildProcess;
  exit: Promise<Exit>;
};

function tailOfLog(logFile: string, lines = 40): string {
  if (!existsSync(logFile)) return '(no server log)';
  const all = readFileSync(logFile, 'utf8').trimEnd().split('\n');
  return all.slice(-lines).map((l) => `  | ${l}`).join('\n');
}

// --- 1. Chromium ---------------------------------------------------------------
const chromium = findChromium();
if ('error' in chromium) fail(chromium.error);

// --- 2. Production build -------------------------------------------------------
if (!existsSync(path.join(root, 'server', 'main.ts'))) {
  fail('server/main.ts does not exist yet: the end-to-end tests need the real server.');
}
if (forceBuild || !existsSync(path.join(root, 'dist', 'index.html'))) {
  console.log(forceBuild ? 'e2e: building (--build)' : 'e2e: dist/ has no build yet, building it');
  if ((await build()) !== 0) fail('the production build failed');
}

// --- 3. The real servers ----------------------------------------------------------
rmSync(resultsFile, { force: true });
mkdirSync(path.dirname(resultsFile), { recursive: true });

const ports = await Promise.all(Array.from({ length: serverCount }, () => freePort()));
if (new Set(ports).size !== ports.length) fail('could not find distinct free ports');
const urls = ports.map((port) => `http://127.0.0.1:${port}`);

const running = new Set<ChildProcess>();
let interrupted = false;
let stoppingServers = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\ne2e: ${signal}, stopping`);
    for (const child of running) child.kill('SIGTERM');
  });
}

console.log(`e2e: ${chromium.version} at ${chromium.path}`);
// The demo, migrated and seeded once; each server (and each test's own server) starts on a copy.
const seededDataDir = mkdtempSync(path.join(os.tmpdir(), 'gradus-e2e-seeded-'));
const seedingStarted = Date.now();
try {
  const seeded = await openDatabase({ dataDir: seededDataDir, prepare: async (db) => void (await seedDemoData(db)) });
  await seeded.close();
} catch (error) {
  rmSync(seededDataDir, { recursive: true, force: true });
  fail(`migrating and seeding the demo database failed: ${error instanceof Error ? error.message : String(error)}`);
}
console.log(`e2e: the demo database, migrated and seeded in ${((Date.now() - seedingStarted) / 1000).toFixed(1)} s, is copied for every server`);

// A local OpenID Connect provider (scripts/demo-idp.ts) for the single sign-on test, one client for every server.
const idp = await startDemoIdp({
  port: 0,
  clients: [{ ...demoClient, redirectUris: urls.map((url) => `${url}/api/sso/oidc/callback`) }],
  accounts: demoAccounts,
});
console.log(`e2e: demo OpenID provider at ${idp.issuer}`);

const servers: Server[] = urls.map((url, i) => {
  const n = i + 1;
  const artifacts = path.join(artifactsDir, `server-${n}`);
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gradus-e2e-data-'));
  cpSync(seededDataDir, dataDir, { recursive: true });
  const logFile = path.join(artifacts, 'server.log');
  const log = createWriteStream(logFile);
  console.log(`e2e: server ${n}: server/main.ts on ${url} (PGlite in ${dataDir}; log: ${path.relative(root, logFile)})`);
  const child = spawnNode('server/main.ts', [], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: projectEnv({
      PORT: String(ports[i]),
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      PUBLIC_ORIGIN: url,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: demoClient.clientId,
      OIDC_CLIENT_SECRET: demoClient.clientSecret,
      // POST /api/test/clock: the results journey waits a week for the release (server/routes/test-clock.ts).
      GRADUS_CLOCK_CONTROL: '1',
    }),
  });
  running.add(child);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  return { n, url, dataDir, artifacts, logFile, log, child, exit: waitForExit(child) };
});

let exitCode = 1;
let failedServer: Server | undefined;
try {
  await Promise.all(
    servers.map(async (server) => {
      try {
        await waitForHealth(server);
        await checkAppShell(server);
      } catch (error) {
        failedServer ??= server;
        throw error;
      }
    }),
  );

  // --- 4. The tests --------------------------------------------------------------
  const vitest = spawnNode(
    localBin('vitest'),
    [
      'run',
      '--config',
      'vitest.e2e.config.ts',
      `--maxWorkers=${serverCount}`,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${resultsFile}`,
      '--reporter=./scripts/lib/file-times-reporter.ts',
      ...vitestArgs,
    ],
    {
      env: projectEnv({
        E2E_SERVERS: JSON.stringify(servers.map((s) => ({ url: s.url, artifacts: s.artifacts }))),
        E2E_BASE_URL: servers[0]!.url,
        E2E_ARTIFACTS_DIR: servers[0]!.artifacts,
        E2E_SEEDED_DATA_DIR: seededDataDir,
        CHROMIUM_PATH: chromium.path,
      }),
    },
  );
  running.add(vitest);
  for (const server of servers) {
    void server.exit.then((early) => {
      if (!stoppingServers && !interrupted) {
        console.error(`\ne2e: server ${server.n} stopped during the tests (${early.signal ?? `code ${early.code}`}); last lines of its log:\n${tailOfLog(server.logFile)}`);
      }
    });
  }
  const exit = await waitForExit(vitest);
  running.delete(vitest);
  exitCode = interrupted ? 130 : (exit.code ?? 1);
} catch (error) {
  console.error(`\ne2e: ${error instanceof Error ? error.message : String(error)}`);
  const server = failedServer ?? servers[0]!;
  console.error(`last lines of ${path.relative(root, server.logFile)}:\n${tailOfLog(server.logFile)}`);
  exitCode = interrupted ? 130 : 1;
} finally {
  await idp.close();
  rmSync(seededDataDir, { recursive: true, force: true });
  // --- 5. Stop the servers ---------------------------------------------------------
  stoppingServers = true;
  await Promise.all(
    servers.map(async (server) => {
      const exit = await stopChild(server.child, 10_000);
      running.delete(server.child);
      server.log.end();
      if (exitCode === 0) {
        rmSync(server.dataDir, { recursive: true, force: true });
      } else {
        console.error(`e2e: kept server ${server.n}'s data for inspection: ${server.dataDir}`);
        if (exitCode !== 130) console.error(`e2e: server ${server.n}'s log: ${path.relative(root, server.logFile)}`);
      }
      console.log(`e2e: server ${server.n} stopped (${exit.signal ?? `exit ${exit.code}`})`);
    }),
  );
}
process.exit(exitCode);

/** Polls GET /api/health until it answers 200; fails early when the server process dies. */
async function waitForHealth(server: Server): Promise<void> {
  const started = Date.now();
  let last = 'no answer yet';
  while (Date.now() - started < HEALTH_TIMEOUT_MS) {
    if (interrupted) throw new Error('interrupted');
    const exited = await Promise.race([server.exit, sleep(250).then(() => undefined)]);
    if (exited) {
      throw new Error(`server ${server.n} exited (${exited.signal ?? `code ${exited.code}`}) before /api/health answered`);
    }
    try {
      const response = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(3_000) });
      if (response.status === 200) {
        console.log(`e2e: server ${server.n} healthy after ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return;
      }
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    }
  }
  throw new Error(`GET ${server.url}/api/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s (last: ${last})`);
}

/** The server must serve the production build's index.html, also on a deep link. */
async function checkAppShell(server: Server): Promise<void> {
  const response = await fetch(`${server.url}/login-code`, { signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  if (response.status !== 200 || !/<html/i.test(body)) {
    throw new Error(`GET ${server.url}/login-code answered ${response.status} without an HTML page: the server does not serve dist/ (with the SPA fallback)`);
  }
}
