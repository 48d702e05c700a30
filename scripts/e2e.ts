/**
 * End-to-end runner (`npm run test:e2e`, and the last step of `npm test`).
 *
 * 1. Finds Chromium (CHROMIUM_PATH, else /usr/bin/chromium); none: fails, naming the
 *    Debian package. A missing browser is never a skipped test.
 * 2. Uses the production build in dist/ (builds it when missing, or with --build).
 * 3. Starts the real server, `node server/main.ts`, on a free port with a fresh embedded
 *    PGlite under a new temporary DATA_DIR (DATABASE_URL is removed, so every run starts
 *    from the demo seed), and waits for GET /api/health to answer 200.
 * 4. Runs test/e2e/**\/*.e2e.ts with Vitest (vitest.e2e.config.ts: one file at a time),
 *    passing E2E_BASE_URL, CHROMIUM_PATH and E2E_ARTIFACTS_DIR.
 * 5. Stops the server, on success, failure and Ctrl-C alike.
 *
 * Usage: `npm run test:e2e [-- --build] [-- <vitest args>]`; the vitest args pass through, so
 * `npm run test:e2e -- test/e2e/time-out.e2e.ts` runs one file and `-- -t "Back"` picks tests.
 * Artifacts: .e2e/server.log, .e2e/screenshots/ (failed tests); results JSON in
 * E2E_RESULTS_FILE (default test-results/e2e.json), which `npm test` reads for its summary,
 * and each file's time in VITEST_FILE_TIMES when set (scripts/lib/file-times-reporter.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { demoAccounts, demoClient, startDemoIdp } from './demo-idp.ts';
import { build } from './lib/build.ts';
import { findChromium } from './lib/chromium.ts';
import { freePort, localBin, projectEnv, root, spawnNode, stopChild, waitForExit } from './lib/process.ts';

const HEALTH_TIMEOUT_MS = 120_000;
const artifactsDir = path.join(root, '.e2e');
const serverLogFile = path.join(artifactsDir, 'server.log');
const resultsFile = path.resolve(root, process.env.E2E_RESULTS_FILE ?? 'test-results/e2e.json');

const args = process.argv.slice(2);
const forceBuild = args.includes('--build');
const vitestArgs = args.filter((a) => a !== '--build');

function fail(message: string): never {
  console.error(`\ne2e: ${message}`);
  process.exit(1);
}

function tailOfServerLog(lines = 40): string {
  if (!existsSync(serverLogFile)) return '(no server log)';
  const all = readFileSync(serverLogFile, 'utf8').trimEnd().split('\n');
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

// --- 3. The real server ---------------------------------------------------------
mkdirSync(artifactsDir, { recursive: true });
rmSync(path.join(artifactsDir, 'screenshots'), { recursive: true, force: true });
rmSync(path.join(artifactsDir, 'taken-pupils.txt'), { force: true });
rmSync(resultsFile, { force: true });
mkdirSync(path.dirname(resultsFile), { recursive: true });

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gradus-e2e-data-'));
const serverLog = createWriteStream(serverLogFile);

const running = new Set<ChildProcess>();
let interrupted = false;
let stoppingServer = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\ne2e: ${signal}, stopping`);
    for (const child of running) child.kill('SIGTERM');
  });
}

console.log(`e2e: ${chromium.version} at ${chromium.path}`);
console.log(`e2e: starting server/main.ts on ${baseUrl} (PGlite in ${dataDir}; log: ${path.relative(root, serverLogFile)})`);
// A local OpenID Connect provider (scripts/demo-idp.ts) for the single sign-on test.
const idp = await startDemoIdp({
  port: 0,
  clients: [{ ...demoClient, redirectUris: [`${baseUrl}/api/sso/oidc/callback`] }],
  accounts: demoAccounts,
});
console.log(`e2e: demo OpenID provider at ${idp.issuer}`);
const server = spawnNode('server/main.ts', [], {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: projectEnv({
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    PUBLIC_ORIGIN: baseUrl,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: demoClient.clientId,
    OIDC_CLIENT_SECRET: demoClient.clientSecret,
    // POST /api/test/clock: the results journey waits a week for the release (server/routes/test-clock.ts).
    GRADUS_CLOCK_CONTROL: '1',
  }),
});
running.add(server);
server.stdout?.pipe(serverLog, { end: false });
server.stderr?.pipe(serverLog, { end: false });
const serverExit = waitForExit(server);

let exitCode = 1;
try {
  await waitForHealth();
  await checkAppShell();

  // --- 4. The tests --------------------------------------------------------------
  const vitest = spawnNode(
    localBin('vitest'),
    ['run', '--config', 'vitest.e2e.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, '--reporter=./scripts/lib/file-times-reporter.ts', ...vitestArgs],
    {
      env: projectEnv({
        E2E_BASE_URL: baseUrl,
        CHROMIUM_PATH: chromium.path,
        E2E_ARTIFACTS_DIR: artifactsDir,
      }),
    },
  );
  running.add(vitest);
  void serverExit.then((early) => {
    if (!stoppingServer && !interrupted) {
      console.error(`\ne2e: the server stopped during the tests (${early.signal ?? `code ${early.code}`}); last lines of its log:\n${tailOfServerLog()}`);
    }
  });
  const exit = await waitForExit(vitest);
  running.delete(vitest);
  exitCode = interrupted ? 130 : (exit.code ?? 1);
} catch (error) {
  console.error(`\ne2e: ${error instanceof Error ? error.message : String(error)}`);
  console.error(`last lines of ${path.relative(root, serverLogFile)}:\n${tailOfServerLog()}`);
  exitCode = interrupted ? 130 : 1;
} finally {
  await idp.close();
  // --- 5. Stop the server ----------------------------------------------------------
  stoppingServer = true;
  const exit = await stopChild(server, 10_000);
  running.delete(server);
  serverLog.end();
  if (exitCode === 0) {
    rmSync(dataDir, { recursive: true, force: true });
  } else {
    console.error(`e2e: kept the server's data for inspection: ${dataDir}`);
    if (exitCode !== 130) console.error(`e2e: server log: ${path.relative(root, serverLogFile)}`);
  }
  console.log(`e2e: server stopped (${exit.signal ?? `exit ${exit.code}`})`);
}
process.exit(exitCode);

/** Polls GET /api/health until it answers 200; fails early when the server process dies. */
async function waitForHealth(): Promise<void> {
  const started = Date.now();
  let last = 'no answer yet';
  while (Date.now() - started < HEALTH_TIMEOUT_MS) {
    if (interrupted) throw new Error('interrupted');
    const exited = await Promise.race([serverExit, sleep(250).then(() => undefined)]);
    if (exited) {
      throw new Error(`the server exited (${exited.signal ?? `code ${exited.code}`}) before /api/health answered`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(3_000) });
      if (response.status === 200) {
        console.log(`e2e: server healthy after ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return;
      }
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    }
  }
  throw new Error(`GET ${baseUrl}/api/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s (last: ${last})`);
}

/** The server must serve the production build's index.html, also on a deep link. */
async function checkAppShell(): Promise<void> {
  const response = await fetch(`${baseUrl}/login-code`, { signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  if (response.status !== 200 || !/<html/i.test(body)) {
    throw new Error(`GET /login-code answered ${response.status} without an HTML page: the server does not serve dist/ (with the SPA fallback)`);
  }
}
