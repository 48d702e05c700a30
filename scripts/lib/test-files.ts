/**
 * Which Vitest files may share a worker process (vite.config.ts, `test.projects`).
 *
 * A worker that runs file after file in one process (`isolate: false`) keeps what they all
 * import: the server, the contract's schemas and, above all, PGlite's compiled WebAssembly,
 * which every API file otherwise compiles again in a fresh process. A file runs in a process of
 * its own (`isolated`) when it renders into a DOM (`@vitest-environment jsdom`: a document and
 * its globals would carry over) or replaces modules (`vi.mock`, `vi.doMock`: the replacement
 * would be what the next file imports). Everything else is `shared`. Both lists are worked out
 * from the files' text, so a new test file lands in the right one without being named here.
 */
import { readFileSync } from 'node:fs';
import { globSync } from 'tinyglobby';

const needsOwnProcess = /@vitest-environment\s+jsdom|\bvi\.(?:mock|doMock|unmock|doUnmock)\(/;

export function splitTestFiles(pattern: string): { shared: string[]; isolated: string[] } {
  const shared: string[] = [];
  const isolated: string[] = [];
  for (const file of globSync(pattern, { ignore: ['test/e2e/**', 'node_modules/**'] }).sort()) {
    (needsOwnProcess.test(readFileSync(file, 'utf8')) ? isolated : shared).push(file);
  }
  return { shared, isolated };
}
