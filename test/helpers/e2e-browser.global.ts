/**
 * Vitest global setup of the end-to-end run (vitest.e2e.config.ts): one Chromium for the whole
 * run, started here as a Playwright browser server; `useKiosk()` (test/helpers/e2e-browser.ts)
 * connects each test file to it instead of starting a browser per file. Every test still gets
 * a fresh browser context (no storage, no cookies shared); a file's contexts close when it
 * disconnects. The browser stops when the run ends.
 */
import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { chromiumFlags } from './e2e-browser.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumFlags,
  });
  project.provide('gradusChromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
