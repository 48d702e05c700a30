/**
 * Finds the Chromium the end-to-end tests drive, where the PDF renderer finds its own
 * (server/documents/chromium.ts: CHROMIUM_PATH if set, else Debian's /usr/bin/chromium, else
 * `chromium` or `chromium-browser` on PATH). Never downloads one (`playwright install` fails on
 * these machines), and never lets a missing browser pass as a skipped test: the caller gets a
 * message naming the package to install.
 */
import { spawnSync } from 'node:child_process';
import { findChromiumExecutable } from '../../server/documents/chromium.ts';

export const INSTALL_HINT =
  'Install Debian\'s Chromium package: `apt-get install chromium` (as root, or with sudo), ' +
  'or set CHROMIUM_PATH to a Chromium or Chrome binary.';

export type ChromiumFound = { path: string; version: string };

/** Returns the browser and its version, or an error message that says what to install. */
export function findChromium(): ChromiumFound | { error: string } {
  const candidate = findChromiumExecutable();
  if (!candidate) {
    const configured = process.env.CHROMIUM_PATH;
    if (configured) return { error: `CHROMIUM_PATH=${configured} is not an executable file. ${INSTALL_HINT}` };
    return { error: `Chromium not found. The end-to-end tests need it. ${INSTALL_HINT}` };
  }

  // Debian's /usr/bin/chromium is a shell wrapper; asking for the version proves it runs.
  const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  const version = /Chrom(?:e|ium)[^\n]*/.exec(probe.stdout ?? '')?.[0]?.trim();
  if (probe.status !== 0 || !version) {
    const output = `${probe.stdout ?? ''}${probe.stderr ?? ''}${probe.error ? String(probe.error) : ''}`.trim();
    return { error: `${candidate} does not run (${output || `exit ${probe.status}`}). ${INSTALL_HINT}` };
  }
  return { path: candidate, version };
}
