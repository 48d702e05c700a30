/**
 * Exam integrity in real Chromium against the production build and the real server:
 * - a second terminal (a second browser context: another device token) is refused with
 *   INCORRECT_DEVICE, while the terminal that pressed Start keeps saving answers;
 * - what the pupil sees when a call answers 403 INCORRECT_DEVICE mid-exam (the end screen
 *   says why) and 401 ER_SCHEDULE_HISTORY_RETAKE (logged out to the login page with the
 *   retake message). These two are boundary-level checks of the client: the server's answer is
 *   simulated with Playwright's page.route, because the runner's server holds its PGlite
 *   database alone (one process), so the admin CLI cannot reset an account beside it; the
 *   reset itself is tested end to end at the API level (test/api/admin.test.ts);
 * - the question list overview and "Flag for review", with the keyboard alone, surviving a reload.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  expectPath,
  loginAndStartExam,
  loginWithCode,
  openKiosk,
  screenText,
  seeChoices,
  seeQuestionCounter,
  seeQuestionKind,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeJourneyPupil } from '../helpers/e2e-demo-accounts.ts';

const kiosk = useKiosk();

/** Answers the question on screen: the choice at `choice`, or a typed word that differs by it. */
async function answerSomething(page: Page, choice = 0): Promise<void> {
  if ((await seeQuestionKind(page)) === 'choice') {
    const labels = await seeChoices(page);
    // Not answerChoice: that helper insists the save succeeds, and here some are refused on purpose.
    // A click, not check(): check() insists the radio is still checked afterwards, and a refused
    // answer rightly takes the pupil off this screen. The caller waits for what the app does.
    await page.getByRole('radio', { name: labels[choice % labels.length]!, exact: true }).click();
  } else {
    const box = page.getByRole('textbox', { name: 'Your answer' });
    await box.fill(`word${choice}`);
    await box.blur();
  }
}

function savedOnServer(page: Page) {
  return page.getByRole('status').filter({ hasText: /^Saved on the server/ }).first();
}

describe('device binding', () => {
  test('a second terminal is refused with INCORRECT_DEVICE; the first keeps working', async () => {
    const page = kiosk.page;
    const pupil = takeJourneyPupil();
    await openKiosk(page, '/login-code');
    await loginAndStartExam(page, pupil.login_code);

    const browser = kiosk.context.browser();
    if (!browser) throw new Error('no browser');
    const other = await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: { width: 1024, height: 768 } });
    try {
      const second = await other.newPage();
      await openKiosk(second, '/login-code');
      const refused = second.waitForResponse((r) => r.url().endsWith('/api/login'));
      await loginWithCode(second, pupil.login_code);
      const response = await refused;
      expect(response.status()).toBe(403);
      expect(((await response.json()) as { code: string }).code).toBe('INCORRECT_DEVICE');
      await expect.poll(() => screenText(second), { timeout: 10_000 }).toContain('An exam was already started for this account');
      await expectPath(second, '/login-code');
    } finally {
      await other.close();
    }

    // The terminal that pressed Start is unaffected.
    await answerSomething(page);
    await savedOnServer(page).waitFor({ timeout: 20_000 });
  });
});

function answerRefusedWith(page: Page, status: number, code: string) {
  return page.route('**/api/exam/answers', (route) =>
    route.fulfill({
      status,
      contentType: 'application/json',
      body: JSON.stringify({ code, message: code, server_time: new Date().toISOString() }),
    }),
  );
}

// One pupil for the whole chain (the run has few demo pupils, and an exam cannot be restarted).
describe('one pupil: flags and the list by keyboard, a reset, another terminal', () => {
  test('flags survive a reload; RETAKE logs out with its message; INCORRECT_DEVICE ends at another terminal', async () => {
    const page = kiosk.page;
    const pupil = takeJourneyPupil();
    await openKiosk(page, '/login-code');
    await loginAndStartExam(page, pupil.login_code);

    // Flag for review, by keyboard.
    const flag = page.getByRole('button', { name: 'Flag for review', exact: true });
    await flag.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Remove flag', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    expect((await seeQuestionCounter(page)).current).toBe(2);

    // After a reload: the same question, the flag still there; the list jumps back, by keyboard.
    await page.reload();
    expect((await seeQuestionCounter(page)).current).toBe(2);
    const toggle = page.getByRole('button', { name: 'Question list', exact: true });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const list = page.getByRole('navigation', { name: 'Question list' });
    await list.waitFor();
    const first = list.getByRole('button').first();
    await expect.poll(async () => (await first.textContent()) ?? '').toMatch(/Flagged for review/);
    await first.focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await seeQuestionCounter(page)).current).toBe(1);
    await page.getByRole('button', { name: 'Remove flag', exact: true }).waitFor();

    // An administrator's reset, as the client sees it: 401 ER_SCHEDULE_HISTORY_RETAKE (simulated).
    await answerRefusedWith(page, 401, 'ER_SCHEDULE_HISTORY_RETAKE');
    await answerSomething(page);
    await page.waitForURL((url) => url.pathname === '/login-code' && url.searchParams.get('error_code') === 'ER_SCHEDULE_HISTORY_RETAKE');
    await expect.poll(() => screenText(page), { timeout: 10_000 }).toContain('An administrator has reset this account. Please log in again.');
    expect(await page.evaluate(() => localStorage.getItem('Examinee-Token'))).toBeNull();
    await page.unroute('**/api/exam/answers');

    // The same terminal logs in again (the server's exam is still running here) and resumes.
    await loginWithCode(page, pupil.login_code);
    await page.waitForURL((url) => url.pathname === '/start');
    await seeQuestionCounter(page);

    // Another terminal took over, as the client sees it: 403 INCORRECT_DEVICE (simulated). The
    // terminal moved away from takes no more answers and, with nothing left to send, says the
    // test goes on at another terminal and only then offers Log out.
    await answerRefusedWith(page, 403, 'INCORRECT_DEVICE');
    await answerSomething(page, 1);
    await page.waitForURL((url) => url.pathname === '/exam-end');
    await page.getByRole('button', { name: 'Log out', exact: true }).waitFor();
    expect(await screenText(page)).toContain('Your test goes on at another terminal');
    expect(await screenText(page)).not.toContain('The test was cancelled');
  });
});
