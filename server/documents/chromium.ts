/**
 * Where Chromium is (ARCHITECTURE.md, toolchain): CHROMIUM_PATH if set (and executable), else
 * Debian's /usr/bin/chromium, else `chromium` or `chromium-browser` on PATH. Never downloads one.
 * The PDF renderer (renderer.ts) and the end-to-end runner (scripts/lib/chromium.ts) look here;
 * they, the end-to-end tests and the benches launch it with `chromiumFlags`.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Flags that work on these machines (ARCHITECTURE.md, toolchain); playwright adds --headless. */
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findChromiumExecutable(): string | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return isExecutable(configured) ? configured : undefined;
  if (isExecutable('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
    }
  }
  return undefined;
}
