/**
 * Vitest configuration of mutation testing of machines/ (`npm run mutation`, stryker.config.mjs):
 * the tests that can kill a mutant of a machine file, and nothing else.
 *
 * - test/machines and the logic-only model tests (test/model/*.model.test.ts). The app-level
 *   model tests (*.model.test.tsx) render the whole app and would make each mutant run several
 *   times slower; they test the views, which are not mutated.
 * - The logic-only tests of the connect files (test/view/*-connect.test.ts: no rendering), and
 *   the proctor's real actors over the admin client (test/view/admin-client.test.ts).
 * Not the API tests: the server imports the schedule history machine, so they are "related" to
 * it, and each would start a database for every mutant of it. The machine's own tests must hold
 * it (the server's rules have their own run, vitest.mutation-server.config.ts).
 *
 * Stryker's Vitest runner narrows each run further: only tests related to the mutated file
 * (`vitest.related`), and per mutant only the tests that reached it (`coverageAnalysis`).
 * The plugins and the rest of the test settings are vite.config.ts's.
 *
 * MUTATION_TESTS=<files or globs, comma separated> runs these instead of the list below (a quick
 * measure of one file on a busy machine: fewer tests can only kill fewer mutants, so its score is
 * a lower bound), e.g.
 *   MUTATION_TESTS='test/machines/session*.test.ts,test/view/session-connect.test.ts' \
 *     npx stryker run stryker.config.mjs --mutate machines/session/session.machine.ts ...
 * The server's run (vitest.mutation-server.config.ts) is built the same way (`mutationConfig`).
 */
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type InlineConfig, type TestSpecification } from 'vitest/node';
import base from './vite.config.ts';

/** The files or globs of MUTATION_TESTS (see the header), or `defaults` when it is unset or empty. */
function mutationTests(defaults: string[]): string[] {
  const only = (process.env.MUTATION_TESTS ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  return only.length > 0 ? only : defaults;
}

/**
 * Quick files first: a mutant is killed by the first failing test (Stryker bails), and the
 * small unit files kill most mutants in milliseconds where a model file takes seconds to load
 * its thousands of paths. Files that failed last time lead (Vitest's own cache), then by their
 * last duration, shortest first; files never run, by size, smallest first.
 */
export class QuickFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { stat } = await import('node:fs/promises');
    const known = new Map(files.map((spec) => [spec, this.ctx.cache.getTestSpecificationResult(spec)]));
    const sizes = new Map(await Promise.all(files.map(async (spec) => [spec, (await stat(spec.moduleId)).size] as const)));
    const rank = (spec: TestSpecification) => {
      const result = known.get(spec);
      return result ? [result.failed ? 0 : 1, result.duration] : [1, Number.MAX_SAFE_INTEGER, sizes.get(spec) ?? 0];
    };
    return [...files].sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
        const diff = (x[i] ?? 0) - (y[i] ?? 0);
        if (diff !== 0) return diff;
      }
      return 0;
    });
  }
}

/**
 * A mutation run's configuration: vite.config.ts's, one list of files (MUTATION_TESTS, else
 * `defaults`) run as listed, quick files first, and the run's own `settings` over the rest.
 */
export function mutationConfig(defaults: string[], settings: InlineConfig = {}) {
  return defineConfig({
    ...base,
    test: {
      ...base.test,
      // One list of files, run as listed (not vite.config.ts's two projects).
      projects: undefined,
      include: mutationTests(defaults),
      sequence: { sequencer: QuickFirstSequencer },
      ...settings,
    },
  });
}

export default mutationConfig([
  'test/machines/**/*.test.ts',
  'test/model/*.model.test.ts',
  'test/view/*-connect.test.ts',
  'test/view/admin-client.test.ts',
]);
