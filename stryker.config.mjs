// Mutation testing (`npm run mutation`; README.md, "Mutation testing"): Stryker changes one
// thing at a time in the application's rules (a guard replaced by `true`, `<=` by `<`, a
// string emptied...) and runs the tests that reach it; a mutant no test notices is a rule
// no test holds. Not part of `npm test`.
//
// Two runs, each with its own tests: this file mutates machines/ against the machine and model
// tests (vitest.mutation.config.ts); stryker.server.config.mjs mutates the server's save and
// login rules against the API tests (vitest.mutation-server.config.ts). One run for both would
// start a database for every mutant of the schedule history machine (the server imports it).
//
// Incremental: the result of every mutant is kept in reports/ (git-ignored, one per machine)
// and reused while neither the mutant's code nor the tests that covered it changed, so a run
// after a small change only re-runs what it touched. `-- --force` runs everything again.
//
// Concurrency 2 fits a 2-core machine of one's own (each Stryker worker runs one Vitest worker
// at a time); on a shared machine run `npm run mutation -- --concurrency 1`.
//
// Static mutants (machine definitions, module-level constants) run every related test: the
// model tests build their paths from the machine itself, so only tests that state the expected
// behaviour outright (test/machines/*.test.ts) kill them.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true, pool: 'threads' },
  mutate: ['machines/**/*.ts', '!machines/**/*.types.ts'],
  incremental: true,
  incrementalFile: 'reports/mutation/machines-incremental.json',
  concurrency: 2,
  // Type-invalid mutants still run (no TypeScript checker): the tests judge every one.
  checkers: [],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/machines.html' },
  jsonReporter: { fileName: 'reports/mutation/machines.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  thresholds: { high: 90, low: 85, break: null },
  // The sandbox copy: what the tests above need, not the build, the data or the browser tests.
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'data', '.e2e', 'test-results', 'reports', 'test/e2e', 'public', '.ci', '.stryker-tmp'],
  timeoutMS: 10_000,
};
