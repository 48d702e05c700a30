/**
 * Vitest configuration of mutation testing of the server's save and login rules
 * (`npm run mutation`, stryker.server.config.mjs): the API tests that exercise
 * server/domain/answers/, login.ts, sitting.ts, credentials.ts, tokens.ts,
 * schedule-history.ts, lookups.ts, passwords.ts and errors.ts, and server/db/batching.ts, and nothing else.
 *
 * PGlite only: TEST_DATABASE_URL names a port nothing listens on, so test/helpers/db.ts leaves the
 * PostgreSQL variant out. It runs the same domain code a second time and would double every
 * mutant's run; `npm test` keeps running it. Each file's seeded database is loaded from a copy
 * (test/helpers/mutation-db.ts) instead of being migrated and seeded again.
 *
 * MUTATION_TESTS=<files or globs, comma separated> runs these instead of the list below
 * (`mutationConfig` in vitest.mutation.config.ts: a quick measure, its score a lower bound).
 */
import base from './vite.config.ts';
import { mutationConfig } from './vitest.mutation.config.ts';

export default mutationConfig(
  [
    'test/api/login.test.ts',
    'test/api/login-id.test.ts',
    'test/api/examinee.test.ts',
    'test/api/logout.test.ts',
    'test/api/device.test.ts',
    'test/api/exam.test.ts',
    'test/api/answer-outcome.test.ts',
    'test/api/offline-answers.test.ts',
    'test/api/tokens.test.ts',
    'test/api/sitting.test.ts',
    'test/api/status-refusals.test.ts',
    'test/api/login-rules.test.ts',
    'test/api/answer-save.test.ts',
    'test/api/answers-rules.test.ts',
    'test/api/pages.test.ts',
    'test/api/lookups-mutation.test.ts',
    'test/api/passwords-mutation.test.ts',
    'test/api/batching.test.ts',
    'test/api/errors-mutation.test.ts',
    'test/api/login-mutation.test.ts',
    'test/api/tokens-mutation.test.ts',
  ],
  {
    setupFiles: [...(base.test?.setupFiles ?? []), 'test/helpers/mutation-db.ts'],
    env: { TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/mutation' },
  },
);
