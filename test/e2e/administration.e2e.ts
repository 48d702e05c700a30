/**
 * The administrator's console in real Chromium: a server of this file's own (server/main.ts
 * `startServer`, PGlite in memory, the production build) and an administrator made with the
 * domain function `npm run admin -- create-staff` uses. The administrator signs in on /proctor
 * with the organisation code left empty, opens Imports, checks examples/schools.csv (a dry run:
 * nothing is refused), applies it, and finds the schools of the file under Schools and pupils.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createStaff } from '../../server/domain/staff-admin.ts';
import type { Logger } from '../../server/logger.ts';
import { defaultDistDir, startServer, type RunningServer } from '../../server/main.ts';
import { launchChromium } from '../helpers/e2e-browser.ts';

const distDir = process.env.E2E_DIST_DIR ?? defaultDistDir;
const quiet: Logger = { info: () => undefined, error: (line, error) => console.error(line, error) };
const SCREEN_MS = 30_000;
const ADMIN = { loginId: 'e2e.admin', password: 'a long admin password' };

async function signInAsAdministrator(page: Page) {
  await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor({ timeout: SCREEN_MS });
  // The organisation code stays empty: an administrator belongs to no organisation.
  await page.getByRole('textbox', { name: 'Login ID' }).fill(ADMIN.loginId);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function openSection(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('button', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: SCREEN_MS });
}

describe('the administrator console', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ port: 0, hostname: '127.0.0.1', memory: true, distDir, runJobs: false, logger: quiet });
    await createStaff(
      server.database.db,
      { staffId: null, reason: 'command line' },
      { loginId: ADMIN.loginId, name: 'Ada Admin', role: 'admin', orgCode: null, password: ADMIN.password },
      new Date(),
    );
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('an administrator signs in without an organisation code, imports the schools file and sees its schools', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(`http://127.0.0.1:${server.port}/proctor`);
    await signInAsAdministrator(page);
    await page.getByText('Signed in as Ada Admin · administrator').waitFor({ timeout: SCREEN_MS });

    await openSection(page, 'Imports');
    await page.getByLabel('File', { exact: true }).setInputFiles(path.resolve('examples/schools.csv'));
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByRole('heading', { name: 'What this file would change' }).or(page.getByRole('alert')).first().waitFor({ timeout: SCREEN_MS });
    await page.getByText('Nothing is refused. Nothing has changed yet: apply the file to import it.').waitFor({ timeout: SCREEN_MS });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('The file was imported. Importing it again changes nothing.').waitFor({ timeout: SCREEN_MS });

    await openSection(page, 'Schools and pupils');
    const school = page.getByRole('heading', { level: 3, name: /Riverside International School/ });
    await school.waitFor({ timeout: SCREEN_MS });
    expect(await school.textContent()).toContain('RIVERSIDE-INTL');
    await page.close();
  }, 120_000);
});
