/**
 * Fault matrix, logout then the old token, in real Chromium against the production
 * build and the real server: logging out ends the session on the server. The token the page
 * held is read from its storage before logging out; afterwards GET /api/me with it must answer
 * 401.
 *
 * - Online: the pupil presses "Log out"; the old token is refused at once, and the terminal
 *   keeps nothing of the pupil (not even a revocation to send).
 * - Offline: the pupil presses "No, log out" with the network gone; the terminal is wiped at
 *   once (only the bare token waits, under its own key), the server still knows the token;
 *   when the network is back the page sends the revocation by itself and the old token is
 *   refused shortly after.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { loadDemoAccounts, type DemoAccount } from '../../server/seed/demo-accounts.ts';
import {
  baseUrl,
  leftovers,
  loginWithCode,
  openKiosk,
  screens,
  seeIdentity,
  seeScreen,
  storageSnapshot,
  useKiosk,
} from '../helpers/e2e-browser.ts';

/** What a shared terminal may keep after a pupil logs out: its own identity and language. */
const TERMINAL_KEYS = ['device_token', 'language'];
/** Where a token whose logout found no network waits (machines/shared/storage.ts). */
const PENDING_REVOCATIONS = 'pending_revocations';
/** How long the page may take to send a waiting revocation once the network is back. */
const REVOCATION_TIMEOUT_MS = 20_000;

const kiosk = useKiosk();

/** A demo account by scenario: these tests only log in and out, so no exam is used up. */
function accountFor(scenario: string): DemoAccount & { login_id: string; password: string; org_code: string } {
  const account = loadDemoAccounts().find((a) => a.scenario === scenario && a.login_id && a.password && a.org_code);
  if (!account) throw new Error(`server/seed/demo-accounts.json has no "${scenario}" account with a login ID`);
  return account as DemoAccount & { login_id: string; password: string; org_code: string };
}

/** The token the page holds (localStorage Examinee-Token, seed section 3). */
async function tokenInPage(page: Page): Promise<string> {
  const token = await page.evaluate(() => window.localStorage.getItem('Examinee-Token'));
  if (!token) throw new Error('the page holds no Examinee-Token');
  return token;
}

/** GET /api/me with this bearer token, straight to the server: its HTTP status. */
async function meStatus(token: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
  await response.body?.cancel();
  return response.status;
}

function currentUrl(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

describe('logout then the old token', () => {
  test('"Log out" ends the session on the server: the old token answers 401', async () => {
    const page = kiosk.page;
    const pupil = accountFor('examinee');
    await openKiosk(page, `/login?org_code=${pupil.org_code}`);
    await seeScreen(page, 'Log in to your exams');
    await page.getByRole('textbox', { name: 'Login ID' }).fill(pupil.login_id);
    await page.getByLabel('Password', { exact: true }).fill(pupil.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await seeScreen(page, 'Choose an exam');
    const token = await tokenInPage(page);
    expect(await meStatus(token)).toBe(200);

    // The logout call goes out with the token.
    const logoutCall = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/logout');
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    expect((await logoutCall).headers()['authorization']).toBe(`Bearer ${token}`);
    await expect.poll(() => currentUrl(page)).toBe(`/login?school=${pupil.org_code}&logout=1`);

    expect(await meStatus(token)).toBe(401);
    expect(leftovers(await storageSnapshot(page), TERMINAL_KEYS)).toEqual([]);
  });

  test('logout with no network wipes the terminal at once; the revocation follows when the network is back', async () => {
    const page = kiosk.page;
    const pupil = accountFor('login-id');
    await openKiosk(page, '/login-code');
    await loginWithCode(page, pupil.login_code);
    expect(await seeIdentity(page)).toContain(pupil.name);
    const token = await tokenInPage(page);
    expect(await meStatus(token)).toBe(200);

    await kiosk.context.setOffline(true);
    await page.getByRole('button', { name: 'No, log out', exact: true }).click();
    await seeScreen(page, screens.loginCode);
    await expect.poll(() => currentUrl(page)).toBe('/login-code?logout=1');

    // Nothing of the pupil the next one could use: only the bare token, waiting to be revoked.
    const offline = await storageSnapshot(page);
    expect(leftovers(offline, [...TERMINAL_KEYS, PENDING_REVOCATIONS])).toEqual([]);
    expect(JSON.parse(offline.localStorage[PENDING_REVOCATIONS] ?? '[]')).toEqual([token]);
    // The server has not heard of the logout yet.
    expect(await meStatus(token)).toBe(200);

    await kiosk.context.setOffline(false);
    await expect
      .poll(() => meStatus(token), { timeout: REVOCATION_TIMEOUT_MS, interval: 250, message: 'GET /api/me with the old token' })
      .toBe(401);
    await expect
      .poll(async () => (await storageSnapshot(page)).localStorage[PENDING_REVOCATIONS] ?? null, { timeout: 5_000 })
      .toBeNull();
    expect(leftovers(await storageSnapshot(page), TERMINAL_KEYS)).toEqual([]);
  });
});
