/**
 * A Vitest reporter that writes how long each test file took, whole: the environment, Vitest's
 * preparation, the setup files, importing the file, and its tests with their hooks (a
 * `beforeAll` that migrates a database is in the file's time here; Vitest's JSON report counts
 * only from the first test's start to the last test's end).
 *
 * Written to the file named by VITEST_FILE_TIMES (nothing when it is unset), as
 * `{ files: [{ file, ms, environment, prepare, setup, collect, tests }] }`, paths relative to the
 * repository, milliseconds. `npm test` (scripts/test.ts) prints the slowest from it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export type FileTime = {
  file: string;
  ms: number;
  environment: number;
  prepare: number;
  setup: number;
  collect: number;
  tests: number;
};

const root = path.resolve(import.meta.dirname, '..', '..');

export default class FileTimesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const output = process.env.VITEST_FILE_TIMES;
    if (!output) return;
    const files: FileTime[] = testModules.map((module) => {
      const d = module.diagnostic();
      const part = { environment: d.environmentSetupDuration, prepare: d.prepareDuration, setup: d.setupDuration, collect: d.collectDuration, tests: d.duration };
      const rounded = Object.fromEntries(Object.entries(part).map(([k, v]) => [k, Math.round(Math.max(0, v))])) as typeof part;
      const ms = Object.values(rounded).reduce((a, b) => a + b, 0);
      return { file: path.relative(root, module.moduleId), ms, ...rounded };
    });
    files.sort((a, b) => b.ms - a.ms);
    const target = path.resolve(root, output);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify({ files }, null, 1)}\n`);
  }
}
