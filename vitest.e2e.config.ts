/**
 * Vitest configuration of the end-to-end tests (test/e2e/**\/*.e2e.ts), used by
 * scripts/e2e.ts, which starts one real server per worker and passes E2E_SERVERS and
 * CHROMIUM_PATH (and `--maxWorkers`, the number of servers). Node environment (the browser is
 * real Chromium, driven by playwright-core, one for the whole run:
 * test/helpers/e2e-browser.global.ts); files side by side, one per worker, each worker against
 * its own server (test/helpers/e2e-server.setup.ts); long time-outs, because a whole exam
 * journey in a real browser takes tens of seconds, and expect.poll waits as long as a locator.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/helpers/e2e-browser.global.ts'],
    setupFiles: ['test/helpers/e2e-server.setup.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    retry: 0,
    // expect.poll waits on the app as a locator does: a page under load may take seconds to get
    // there (1 s, Vitest's default, raced the app on a busy machine). A poll that names its own
    // time-out keeps it.
    expect: { poll: { timeout: 20_000, interval: 100 } },
  },
});
