/**
 * `npm start` stops when it is told to. npm runs a script through `sh -c`; a process manager
 * (systemd, `docker stop`, a lab's kiosk supervisor) stops it with SIGTERM to npm, which passes
 * it to that shell, not to the shell's children. With `a && node server/main.ts` the shell dies
 * and the server keeps running, holding the port and PGlite's data unflushed (PGlite persists
 * only when closed). The script `exec`s the server, so the signal reaches it.
 *
 * Here: package.json's own start script, with the build step replaced by `true` (the build is
 * not what is tested), run as npm runs it (`sh -c`, node_modules/.bin first on PATH, so Node 24),
 * on a fresh PGlite; SIGTERM to the shell's pid must end the server cleanly (the port closes,
 * its "closing the database" line is logged, exit 0).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '../../scripts/lib/process.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'gradus-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));


async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false;
  }
}

test('SIGTERM to the shell npm start runs stops the server cleanly', { timeout: 180_000 }, async () => {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const start = scripts.start!;
  expect(start.startsWith('npm run build && ')).toBe(true);
  const command = start.replace('npm run build', 'true');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    NODE_ENV: 'production',
  };
  const shell = spawn('sh', ['-c', command], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => shell.once('exit', (code) => resolve(code)));

  const started = Date.now();
  while (!(await healthy(url))) {
    if (shell.exitCode !== null) throw new Error(`the server ended before answering:\n${output}`);
    if (Date.now() - started > 150_000) throw new Error(`no health answer after 150 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  shell.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(output).toContain('SIGTERM: closing the database and stopping.');
  expect(await healthy(url)).toBe(false);
});
