/**
 * The address bar and the browser's buttons for a pupil who is logged in, in real Chromium
 * against the production build and the real server:
 * - a school's login page typed with its code in small letters (`/login?org_code=gradus-results-a`
 *   for GRADUS-RESULTS-A) is that school's page, and the pupil logs in on it;
 * - a reload of the my-page menu stays on the menu, not /examinee-info;
 * - the browser's Back on the score report returns to the short result it was opened from;
 * - an unknown path typed on /login-confirm is judged as on the other screens of a logged-in
 *   pupil: the pupil keeps the screen, and the address is corrected in place, leaving no entry
 *   of the unknown path behind under the screen;
 * - a reload on the short result, the result payment, the score report or the purchased result
 *   comes back to that screen, not /examinee-info, and Back after it still goes where the pupil
 *   came from; on the fee's payment, paid already, the menu stands in;
 * - the browser's Back on the result payment returns to the short result.
 * Both school pages are typed with the school's code in small letters. The results pupils
 * (server/seed/results-accounts.json, "passed_bought", and "passed_unpaid", whose result payment
 * is only opened, never paid) only read; the login-ID pupil
 * (server/seed/demo-accounts.json, "login-id", as test/e2e/login.e2e.ts) only logs in: no exam
 * is started, so neither is taken from the run's pupils.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import { loadResultsAccounts } from '../../server/seed/results-demo.ts';
import { currentPath, expectPath, screens, seeIdentity, seeScreen, useKiosk } from '../helpers/e2e-browser.ts';

const kiosk = useKiosk();

const bought = loadResultsAccounts().find((account) => account.scenario === 'passed_bought')!;

/** The number of entries in the tab's history. */
const historyLength = (page: Page) => page.evaluate(() => window.history.length);

async function seeMenu(page: Page): Promise<void> {
  await seeScreen(page, 'Menu');
  await page.getByRole('button', { name: 'View results', exact: true }).waitFor();
}

/** A results pupil logs in on the school's page and goes on to the menu. */
async function logInToMenu(page: Page, account: { org_code: string; login_id: string; password: string }): Promise<void> {
  await page.goto(`/login?org_code=${encodeURIComponent(account.org_code)}`);
  await page.getByRole('textbox', { name: 'Login ID' }).fill(account.login_id);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await seeScreen(page, 'Your basic information');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await seeMenu(page);
}

/** The short result as a pupil with the result's items still to buy sees it. */
async function seeShortResultToBuy(page: Page): Promise<void> {
  await seeScreen(page, 'Your result');
  await page.getByRole('button', { name: 'Buy the result sheet / certificate', exact: true }).waitFor();
}

/** The result payment, its items loaded. */
async function seeResultPayment(page: Page): Promise<void> {
  await seeScreen(page, 'Buy the result sheet and certificate');
  await page.getByRole('heading', { level: 2, name: 'Choose what to buy' }).waitFor();
}

describe('a logged-in pupil and the address bar', () => {
  test("the school's page in small letters, a reload of the menu, and Back on the score report", async () => {
    const { page } = kiosk;
    // The school's code as typed by hand: small letters.
    const typedCode = bought.org_code.toLowerCase();
    expect(typedCode).not.toBe(bought.org_code);
    await page.goto(`/login?org_code=${encodeURIComponent(typedCode)}`);
    await page.getByRole('textbox', { name: 'Login ID' }).waitFor();
    await page.getByText('Gradus Riverside School').first().waitFor();
    expect(await page.getByText('Venue, organization or schedule URL invalid').count()).toBe(0);
    await page.getByRole('textbox', { name: 'Login ID' }).fill(bought.login_id);
    await page.getByLabel('Password', { exact: true }).fill(bought.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await seeScreen(page, 'Your basic information');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await seeMenu(page);
    await expectPath(page, '/testing-menu');

    // A reload of the menu: the menu again.
    const menuLoaded = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/get-status-choose-page'));
    await page.reload();
    await menuLoaded;
    await seeMenu(page);
    await expectPath(page, '/testing-menu');

    // The results, the score report, and Back.
    await page.getByRole('button', { name: 'View results', exact: true }).click();
    await seeScreen(page, 'Your result');
    await page.getByRole('button', { name: 'Open the score report', exact: true }).click();
    await page.getByRole('button', { name: 'Save as PDF', exact: true }).waitFor();
    await expect.poll(() => currentPath(page), { timeout: 10_000, message: 'the address bar' }).toMatch(/^\/score-report\/[1-9][0-9]*$/);
    await page.goBack();
    await expectPath(page, '/short-result');
    await seeScreen(page, 'Your result');
    await page.getByRole('button', { name: 'Open the score report', exact: true }).waitFor();
  });

  test('an unknown path typed on /login-confirm: the pupil keeps the screen, the address corrected in place', async () => {
    const { page } = kiosk;
    // The school's page in small letters again, for a login-ID pupil who lands on "Is this you?".
    const pupil = loadDemoAccounts().find((account) => account.scenario === 'login-id' && account.login_id && account.password)!;
    await page.goto(`/login?org_code=${encodeURIComponent(pupil.org_code.toLowerCase())}`);
    await page.getByRole('textbox', { name: 'Login ID' }).fill(pupil.login_id!);
    await page.getByLabel('Password', { exact: true }).fill(pupil.password!);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await seeIdentity(page);
    await expectPath(page, '/login-confirm');
    const before = await historyLength(page);

    await page.goto('/no-such-page');
    await seeScreen(page, screens.loginConfirm);
    await expectPath(page, '/login-confirm');
    // The typed address is one entry, now the screen's: nothing of /no-such-page is left to go Back to.
    expect(await historyLength(page)).toBe(before + 1);
  });

  test('a reload on the short result and on the result payment, and Back from the payment', async () => {
    const { page } = kiosk;
    const unpaid = loadResultsAccounts().find((account) => account.scenario === 'passed_unpaid')!;
    await logInToMenu(page, unpaid);
    await page.getByRole('button', { name: 'View results', exact: true }).click();
    await seeShortResultToBuy(page);

    await page.reload();
    await seeShortResultToBuy(page);
    await expectPath(page, '/short-result');

    await page.getByRole('button', { name: 'Buy the result sheet / certificate', exact: true }).click();
    await seeResultPayment(page);
    await expectPath(page, '/pay-exam-result');
    const before = await historyLength(page);
    await page.reload();
    await seeResultPayment(page);
    await expectPath(page, '/pay-exam-result');
    expect(await historyLength(page)).toBe(before);

    // Back: the short result the payment was opened from; Back again: the menu.
    await page.goBack();
    await expectPath(page, '/short-result');
    await seeShortResultToBuy(page);
    await page.goBack();
    await expectPath(page, '/testing-menu');
    await seeMenu(page);
  });

  test('a reload on the score report and on the purchased result; the fee paid already: the menu', async () => {
    const { page } = kiosk;
    await logInToMenu(page, bought);
    await page.getByRole('button', { name: 'View results', exact: true }).click();
    await seeScreen(page, 'Your result');
    await page.getByRole('button', { name: 'Open the score report', exact: true }).click();
    await page.getByRole('button', { name: 'Save as PDF', exact: true }).waitFor();
    // The router follows the machine a moment after the screen shows.
    await expect.poll(() => currentPath(page), { timeout: 10_000, message: 'the address bar' }).toMatch(/^\/score-report\/[1-9][0-9]*$/);
    const report = currentPath(page);

    await page.reload();
    await page.getByRole('button', { name: 'Save as PDF', exact: true }).waitFor();
    // What is owned is known again: the certificate of the passed exam is offered.
    await page.getByRole('button', { name: 'Download the certificate', exact: true }).waitFor();
    await expectPath(page, report);
    // Back after the reload: the short result the report was opened from.
    await page.goBack();
    await expectPath(page, '/short-result');
    await page.getByRole('button', { name: 'Open the score report', exact: true }).waitFor();

    // The purchased result's address loaded afresh (as a reload of it): the purchased result.
    await page.goto('/purchased-result');
    await seeScreen(page, 'Purchased result');
    await page.getByRole('button', { name: 'Download the certificate', exact: true }).waitFor();
    await expectPath(page, '/purchased-result');

    // The fee's payment, paid long ago: the menu stands in, in place of the payment's address.
    const before = await historyLength(page);
    await page.goto('/pay-exam-fee');
    await seeMenu(page);
    await expectPath(page, '/testing-menu');
    expect(await historyLength(page)).toBe(before + 1);
  });
});
