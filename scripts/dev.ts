/**
 * `npm run dev`: development with reload.
 *
 *   [api]  node --watch server/main.ts   PORT=3001, DATA_DIR=./data (restarts on server changes)
 *   [web]  vite                          http://localhost:5173, proxies /api to :3001 (vite.config.ts)
 *
 * Output of both is forwarded, each line prefixed. Ctrl-C stops both; when one of them
 * exits, the other is stopped too. DATA_DIR and DATABASE_URL from the environment are passed on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { localBin, projectEnv, root, stopChild, waitForExit } from './lib/process.ts';

const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};

function forward(name: string, child: ChildProcess): void {
  const prefix = process.stdout.isTTY ? `\x1b[2m[${name}]\x1b[0m ` : `[${name}] `;
  const pipe = (from: Readable | null, to: Writable) => {
    if (!from) return;
    readline.createInterface({ input: from }).on('line', (line) => to.write(`${prefix}${line}\n`));
  };
  pipe(child.stdout, process.stdout);
  pipe(child.stderr, process.stderr);
}

const dataDir = process.env.DATA_DIR ?? './data';
const api = spawn(process.execPath, ['--watch', 'server/main.ts'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: projectEnv({ ...color, PORT: '3001', DATA_DIR: dataDir }),
});
const web = spawn(process.execPath, [localBin('vite'), '--port', '5173'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: projectEnv(color),
});
forward('api', api);
forward('web', web);
const database = process.env.DATABASE_URL ? 'PostgreSQL from DATABASE_URL' : `data in ${dataDir}`;
console.log(`Gradus dev: open http://localhost:5173 (API on http://localhost:3001, ${database}). Ctrl-C stops both.`);

let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await Promise.all([stopChild(api), stopChild(web)]);
  }
  process.exit(code);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

const [first, exit] = await Promise.race([
  waitForExit(api).then((e) => ['api', e] as const),
  waitForExit(web).then((e) => ['web', e] as const),
]);
if (!stopping) {
  console.error(`[${first}] exited (${exit.signal ?? `code ${exit.code}`}); stopping the other`);
  await stopAll(exit.code ?? 1);
}
