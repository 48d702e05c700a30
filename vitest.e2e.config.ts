/**
 * Vitest configuration of the end-to-end tests (test/e2e/**\/*.e2e.ts), used by
 * scripts/e2e.ts, which starts the real server and passes E2E_BASE_URL and CHROMIUM_PATH.
 * Node environment (the browser is real Chromium, driven by playwright-core, one for the whole
 * run: test/helpers/e2e-browser.global.ts); one file at a time and one worker; long time-outs,
 * because a whole exam journey in a real browser takes tens of seconds.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/helpers/e2e-browser.global.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    retry: 0,
  },
});
