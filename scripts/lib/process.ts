/**
 * Child-process plumbing for the project scripts (test, e2e, dev).
 *
 * Promises: every local tool runs on the project's own Node (the one running this script,
 * Node 24 from the `node` package), never on whatever `node` the machine has; output is
 * streamed as it comes; a child that is stopped gets SIGTERM, then SIGKILL after a grace period.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The repository root (scripts/lib/ is two levels down). */
export const root = path.resolve(import.meta.dirname, '..', '..');

/** PATH with the project's binaries and its Node first, for grandchildren that look `node` up. */
export function projectEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const bin = path.join(root, 'node_modules', '.bin');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [bin, path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter),
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** The JavaScript entry of a local binary (node_modules/.bin/NAME), to be run with our Node. */
export function localBin(name: string): string {
  const link = path.join(root, 'node_modules', '.bin', name);
  if (!existsSync(link)) {
    throw new Error(`node_modules/.bin/${name} is missing: run \`npm install\` first`);
  }
  return realpathSync(link);
}

/** Spawns a local binary (`tsc`, `vitest`...) or a project .ts/.js file on the project's Node. */
export function spawnNode(entry: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [entry, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: projectEnv(),
    ...options,
  });
}

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** Resolves when the child exits (never rejects: a spawn error becomes exit code 127). */
export function waitForExit(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once('error', (error) => {
      console.error(`could not start ${child.spawnfile}: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Stops a child: SIGTERM, then SIGKILL if it is still running after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<Exit> {
  const exited = waitForExit(child);
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const exit = await exited;
  clearTimeout(timer);
  return exit;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Seconds with one decimal, for summaries. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
