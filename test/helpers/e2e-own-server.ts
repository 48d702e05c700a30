/**
 * A Gradus server of a test's own, for end-to-end tests that stop and start the server (the
 * harness's server, scripts/e2e.ts, is shared by every test file and must keep running).
 *
 * `useOwnServer()` gives each test a real `node server/main.ts` (the same entry and the same
 * environment scripts/e2e.ts uses: PGlite under a new temporary DATA_DIR, a copy of the run's
 * seeded demo database when E2E_SEEDED_DATA_DIR names one, no DATABASE_URL, the already-built
 * dist/) on a free port, started before the test and waited for (GET /api/health 200). In the
 * test, `stop('SIGTERM' | 'SIGKILL')` stops it the way an operator or a crash would, and
 * `start()` starts it again on the same DATA_DIR and port. After the test, pass or
 * fail, the process is stopped and the data directory removed. Each start's output goes to
 * E2E_ARTIFACTS_DIR/own-server-<test>-<n>.log.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach } from 'vitest';
import { freePort, projectEnv, spawnNode, stopChild, waitForExit, type Exit } from '../../scripts/lib/process.ts';

/** A start on a fresh directory migrates and seeds, which takes a while on a small machine. */
const HEALTH_TIMEOUT_MS = 120_000;
/** A server told to stop closes its database and exits within seconds. */
const STOP_TIMEOUT_MS = 30_000;

export type OwnServer = {
  /** e.g. http://127.0.0.1:41234 (the same after a restart). */
  readonly url: string;
  /** Starts `node server/main.ts` on this server's port and DATA_DIR; resolves once /api/health answers 200. */
  start(): Promise<void>;
  /** Sends the signal and waits until the process has exited. */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<Exit>;
  /** Whether GET /api/health answers 200 right now. */
  isUp(): Promise<boolean>;
};

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3_000) });
    return response.status === 200;
  } catch {
    return false;
  }
}

/** A server of its own for every test of the file (or describe block): see the file header. */
export function useOwnServer(): OwnServer {
  const logDir = path.join(process.env.E2E_ARTIFACTS_DIR ?? '.e2e', 'own-server');
  let url: string | undefined;
  let port = 0;
  let dataDir: string | undefined;
  let child: ChildProcess | undefined;
  let testName = 'test';
  let starts = 0;

  const server: OwnServer = {
    get url() {
      if (!url) throw new Error('no server: use it inside a test');
      return url;
    },
    async start() {
      if (!url || !dataDir) throw new Error('no server: use it inside a test');
      if (child) throw new Error('the server is already running');
      starts += 1;
      mkdirSync(logDir, { recursive: true });
      const logFile = path.join(logDir, `${testName}-${starts}.log`);
      const log = createWriteStream(logFile);
      const started = spawnNode('server/main.ts', [], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: projectEnv({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: undefined, PUBLIC_ORIGIN: url }),
      });
      child = started;
      started.stdout?.pipe(log);
      started.stderr?.pipe(log);
      const exited = waitForExit(started);
      const since = Date.now();
      while (Date.now() - since < HEALTH_TIMEOUT_MS) {
        const early = await Promise.race([exited, sleep(250).then(() => undefined)]);
        if (early) {
          child = undefined;
          const tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-20).join('\n  | ');
          throw new Error(`the server exited (${early.signal ?? `code ${early.code}`}) before /api/health answered; its log:\n  | ${tail}`);
        }
        if (await healthy(url)) return;
      }
      throw new Error(`${url}/api/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s (log: ${logFile})`);
    },
    async stop(signal) {
      const running = child;
      if (!running) throw new Error('the server is not running');
      const exited = waitForExit(running);
      running.kill(signal);
      const exit = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => undefined)]);
      if (!exit) throw new Error(`the server did not exit within ${STOP_TIMEOUT_MS / 1000} s of ${signal}`);
      child = undefined;
      return exit;
    },
    isUp() {
      return healthy(server.url);
    },
  };

  beforeEach(async (ctx) => {
    testName = ctx.task.name.replace(/[^\w-]+/g, '-').slice(0, 60);
    starts = 0;
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'gradus-e2e-own-server-'));
    const seeded = process.env.E2E_SEEDED_DATA_DIR;
    if (seeded) cpSync(seeded, dataDir, { recursive: true });
    await server.start();
  });

  afterEach(async () => {
    try {
      if (child) await stopChild(child, 10_000);
    } finally {
      child = undefined;
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      dataDir = undefined;
      url = undefined;
    }
  });

  return server;
}
