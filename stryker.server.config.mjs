// Mutation testing of the server's save and login rules: the second half of `npm run mutation`
// (stryker.config.mjs says how it works). The rules live in server/domain/: saving an answer
// (answers/), the ways in and their refusals (login.ts), whose sitting it is, the device
// binding, step mode and suspensions (sitting.ts), passwords (credentials.ts), bearer tokens
// (tokens.ts), which status refuses login, start, answers and finish (schedule-history.ts), the
// login page's organisation and schedule (lookups.ts), password hashes (passwords.ts) and the
// domain error with its unique-violation test (errors.ts), and the batching of saves on
// PostgreSQL (server/db/batching.ts).

import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'vitest.mutation-server.config.ts', related: true, pool: 'forks' },
  mutate: [
    'server/domain/answers/*.ts',
    'server/domain/login.ts',
    'server/domain/sitting.ts',
    'server/domain/credentials.ts',
    'server/domain/tokens.ts',
    'server/domain/schedule-history.ts',
    'server/domain/lookups.ts',
    'server/domain/passwords.ts',
    'server/domain/errors.ts',
    'server/db/batching.ts',
  ],
  // Other runs' sandboxes (`--tempDirName .stryker-tmp-<name>`) are no part of this one's copy.
  ignorePatterns: [...base.ignorePatterns, '.stryker-tmp-*'],
  incrementalFile: 'reports/mutation/server-incremental.json',
  htmlReporter: { fileName: 'reports/mutation/server.html' },
  jsonReporter: { fileName: 'reports/mutation/server.json' },
};
