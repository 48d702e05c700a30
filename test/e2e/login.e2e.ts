/**
 * Session and login, every way in and every way out, in real Chromium against the
 * production build served by the real server (scripts/e2e.ts starts it on a fresh PGlite).
 *
 * Each way in a pupil can use without a partner system: a login code, a login ID and
 * password on the school's page, an examinee account on its organisation's page. A refusal
 * (wrong password), the lock after repeated wrong passwords (ACCOUNT_LOCKED), a page that
 * needs a login (/403), and logging out leaving nothing of the pupil in the browser. The demo
 * accounts are read from server/seed/demo-accounts.json at test time.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { loadDemoAccounts, type DemoAccount } from '../../server/seed/demo-accounts.ts';
import {
  expectPath,
  leftovers,
  loginWithCode,
  openKiosk,
  screens,
  screenText,
  seeIdentity,
  seeScreen,
  storageSnapshot,
  useKiosk,
} from '../helpers/e2e-browser.ts';

/** What a shared terminal may keep after a pupil logs out: its own identity and language. */
const TERMINAL_KEYS = ['device_token', 'language'];

const kiosk = useKiosk();

function accountFor(scenario: string): DemoAccount & { login_id: string; password: string; org_code: string } {
  const account = loadDemoAccounts().find((a) => a.scenario === scenario && a.login_id && a.password && a.org_code);
  if (!account) throw new Error(`server/seed/demo-accounts.json has no "${scenario}" account with a login ID`);
  return account as DemoAccount & { login_id: string; password: string; org_code: string };
}

/** The address bar's path and query, e.g. "/login?school=X&logout=1". */
function currentUrl(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** On a login page: types the login ID and password and presses "Log in". */
async function loginWithId(page: Page, loginId: string, password: string) {
  await page.getByRole('textbox', { name: 'Login ID' }).fill(loginId);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** On "Is this you?": presses "No, log out". */
async function sayNotMe(page: Page) {
  await page.getByRole('button', { name: 'No, log out', exact: true }).click();
}

async function seeAlert(page: Page, text: string) {
  await expect.poll(async () => (await page.getByRole('alert').allInnerTexts()).join(' '), { timeout: 10_000 }).toContain(text);
}

async function nothingLeft(page: Page) {
  expect(leftovers(await storageSnapshot(page), TERMINAL_KEYS)).toEqual([]);
}

describe('every way in, every way out', () => {
  test('logs in with a login code, and logging out returns to the code page with logout=1, leaving nothing', async () => {
    const page = kiosk.page;
    // Not a journey pupil: this test only logs in and out, and the exam tests need theirs.
    const pupil = accountFor('login-id');
    await openKiosk(page, '/login-code');
    await loginWithCode(page, pupil.login_code);
    expect(await seeIdentity(page)).toContain(pupil.name);
    await sayNotMe(page);
    await seeScreen(page, screens.loginCode);
    await expect.poll(() => currentUrl(page)).toBe('/login-code?logout=1');
    await nothingLeft(page);
  });

  test('logs in with a login ID and password on the school page, and logs out to that page', async () => {
    const page = kiosk.page;
    const pupil = accountFor('login-id');
    await openKiosk(page, `/login?org_code=${pupil.org_code}`);
    await seeScreen(page, 'Log in');
    await loginWithId(page, pupil.login_id, pupil.password);
    expect(await seeIdentity(page)).toContain(pupil.name);
    await expectPath(page, '/login-confirm');
    await sayNotMe(page);
    await expect.poll(() => currentUrl(page)).toBe(`/login?school=${pupil.org_code}&logout=1`);
    await seeScreen(page, 'Log in');
    await nothingLeft(page);
  });

  test('logs in with an examinee account and lands on the exam list', async () => {
    const page = kiosk.page;
    const pupil = accountFor('examinee');
    await openKiosk(page, `/login?org_code=${pupil.org_code}`);
    await seeScreen(page, 'Log in to your exams');
    await loginWithId(page, pupil.login_id, pupil.password);
    await seeScreen(page, 'Choose an exam');
    await expectPath(page, '/exam');
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await expect.poll(() => currentUrl(page)).toBe(`/login?school=${pupil.org_code}&logout=1`);
    await nothingLeft(page);
  });

  test('an examinee account of a step-mode organisation lands on /exam-step-mode', async () => {
    const page = kiosk.page;
    const pupil = accountFor('examinee-step-mode');
    await openKiosk(page, `/login?org_code=${pupil.org_code}`);
    await seeScreen(page, 'Log in to your exams');
    await loginWithId(page, pupil.login_id, pupil.password);
    await seeScreen(page, 'Choose an exam');
    await expectPath(page, '/exam-step-mode');
  });

  test('a my-page user registers basic information, sees it, then the testing menu', async () => {
    const page = kiosk.page;
    const pupil = accountFor('my-page');
    await openKiosk(page, `/login?org_code=${pupil.org_code}`);
    await seeScreen(page, 'Log in');
    await loginWithId(page, pupil.login_id, pupil.password);
    await seeScreen(page, 'Your basic information');
    await expectPath(page, '/examinee-input-info');
    // "Next" with an empty email: the seed's required-field message, nothing sent.
    await page.getByRole('textbox', { name: 'Name' }).fill(pupil.name);
    await page.getByRole('combobox', { name: 'Grade' }).selectOption('4');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    expect(await screenText(page)).toContain('Email is a required field');
    await page.getByRole('textbox', { name: 'Email' }).fill('pupil@example.com');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await seeScreen(page, 'Check your details');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expectPath(page, '/examinee-info');
    // The address changes as the next screen loads: wait for it to show the details registered.
    await expect.poll(() => screenText(page)).toContain('pupil@example.com');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await seeScreen(page, 'Menu');
    await expectPath(page, '/testing-menu');
  });

  test('refuses a wrong password with the seed\'s message and stores nothing', async () => {
    const page = kiosk.page;
    const pupil = accountFor('login-id');
    await openKiosk(page, `/login?org_code=${pupil.org_code}`);
    await seeScreen(page, 'Log in');
    await loginWithId(page, pupil.login_id, 'not-the-password');
    await seeAlert(page, 'The test ID or password is incorrect.');
    await expectPath(page, '/login');
    await nothingLeft(page);
  });

  test('locks the account after repeated wrong passwords, even for the right one', async () => {
    const page = kiosk.page;
    const pupil = accountFor('lock');
    await openKiosk(page, `/login?org_code=${pupil.org_code}`);
    await seeScreen(page, 'Log in');
    for (let attempt = 0; attempt < 5; attempt++) {
      await loginWithId(page, pupil.login_id, `wrong-${attempt}`);
      await expect.poll(async () => (await page.getByRole('alert').allInnerTexts()).length, { timeout: 10_000 }).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    }
    await loginWithId(page, pupil.login_id, pupil.password);
    await seeAlert(page, 'The account is locked. Please try again in 1 minute.');
    await nothingLeft(page);
  });

  test('/oauth with an SSO error shows it, keeps only the school id, and leads to the login page', async () => {
    const page = kiosk.page;
    const school = accountFor('login-id').org_code;
    await openKiosk(page, `/oauth?error=1&errorCode=invalid_role&schoolId=${school}`);
    await seeScreen(page, 'Could not log in');
    await expectPath(page, '/oauth');
    const stored = (await storageSnapshot(page)).localStorage;
    expect(stored.examinee_school_id).toBe(school);
    expect(stored['Examinee-Token']).toBeUndefined();
    await page.getByRole('button', { name: 'Go to the login page' }).click();
    await seeScreen(page, screens.loginCode);
  });

  test('/app-entry without organization_code is /404; with it, the school login page', async () => {
    const page = kiosk.page;
    await openKiosk(page, '/app-entry');
    await expectPath(page, '/404');
    const school = accountFor('login-id').org_code;
    await openKiosk(page, `/app-entry?organization_code=${school}`);
    await expect.poll(() => currentUrl(page)).toBe(`/login?org_code=${school}&from=app_entry`);
    await seeScreen(page, 'Log in');
  });

  test('a page that needs a login, typed without one, is /403 with the not-logged-in view', async () => {
    const page = kiosk.page;
    await openKiosk(page, '/examinee-info');
    await expectPath(page, '/403');
    await page.getByText('You are not logged in.').waitFor();
    expect(await screenText(page)).toContain('You need to log in to see this page.');
    await page.getByRole('button', { name: 'Go to the login page' }).first().click();
    await seeScreen(page, screens.loginCode);
  });
});
