/**
 * Fault matrix: a second terminal. While a pupil is in the exam on one terminal,
 * someone types the same login code on another (another browser context: another device
 * token, the terminal's identity). The server ties a started sitting to the terminal that pressed
 * Start, so the second is refused with INCORRECT_DEVICE and the seed's message and stays on the
 * login page, and the teacher's roster lists the pupil among those who need attention: "Tried to
 * log in at another terminal". The first terminal notices nothing: it keeps answering, every
 * answer saved, and the answers on the server equal the answers given; its receipt counts
 * exactly those.
 *
 * (Letting the pupil continue on the second terminal is the proctor's "move to another
 * terminal", tested in test/e2e/proctor.e2e.ts.)
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  baseUrl,
  expectPath,
  finishExam,
  loginAndStartExam,
  loginWithCode,
  openKiosk,
  screens,
  seeQuestionCounter,
  seeReceipt,
  seeScreen,
  seeTimeLeft,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeSparePupil } from '../helpers/e2e-demo-accounts.ts';
import {
  answerQuestion,
  expectReceiptOfAnswersGiven,
  followSitting,
  seeServerHoldAnswersGiven,
  watchExamCalls,
} from '../helpers/e2e-sitting.ts';
import { openRoster, rowOf, signInAsProctor } from '../helpers/e2e-proctor.ts';

const kiosk = useKiosk();

/** The seed's message for INCORRECT_DEVICE, as the login page shows it. */
const ALREADY_STARTED = 'An exam was already started for this account on another terminal.';

/** Another terminal in the lab: its own browser context, so its own device token and storage. */
async function openSecondTerminal(first: BrowserContext): Promise<{ terminal: BrowserContext; page: Page }> {
  const browser = first.browser();
  if (!browser) throw new Error('no browser');
  const terminal = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1024, height: 768 }, locale: 'en-US' });
  const page = await terminal.newPage();
  page.setDefaultTimeout(20_000);
  return { terminal, page };
}

async function deviceTokenOf(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('device_token'));
}

describe('a second terminal logs in while the pupil is in the exam', () => {
  test('the second is refused with INCORRECT_DEVICE and the roster says so; the first keeps answering undisturbed, and the server holds its answers', async () => {
    const page = kiosk.page;
    const pupil = takeSparePupil();
    const calls = watchExamCalls(page);
    const sitting = followSitting(page, pupil);

    await openKiosk(page, '/login-code');
    await loginAndStartExam(page, pupil.login_code);
    const exam = await sitting;
    await answerQuestion(page, exam, 1, 'Saved on the server');
    await answerQuestion(page, exam, 2, 'Saved on the server');
    const where = await seeQuestionCounter(page);

    const { terminal, page: second } = await openSecondTerminal(kiosk.context);
    try {
      await openKiosk(second, '/login-code');
      const login = second.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/login');
      await loginWithCode(second, pupil.login_code);
      const refused = await login;
      expect(refused.status()).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('INCORRECT_DEVICE');
      expect(await deviceTokenOf(second), 'the second terminal has a device token of its own').not.toBe(await deviceTokenOf(page));
      await expect
        .poll(async () => (await second.getByRole('alert').allInnerTexts()).join(' '), { timeout: 10_000 })
        .toContain(ALREADY_STARTED);
      await seeScreen(second, screens.loginCode);
      await expectPath(second, '/login-code');
      expect(await second.evaluate(() => localStorage.getItem('Examinee-Token')), 'no token on the second terminal').toBeNull();
    } finally {
      await terminal.close();
    }

    // The teacher's roster says so: the pupil needs attention, tried to log in at another terminal.
    const { terminal: desk, page: proctor } = await openSecondTerminal(kiosk.context);
    try {
      await signInAsProctor(proctor);
      await openRoster(proctor, 'DEMO-2026');
      await proctor.getByRole('group', { name: 'Show pupils' }).getByRole('button', { name: /^Needs attention \d+$/ }).click();
      await expect
        .poll(async () => rowOf(proctor, pupil).innerText(), { timeout: 20_000, message: `${pupil.name}'s row` })
        .toContain('Tried to log in at another terminal');
    } finally {
      await desk.close();
    }

    // The first terminal: the same question, the clock running, no alert, and it keeps answering.
    expect(await seeQuestionCounter(page)).toEqual(where);
    expect(await seeTimeLeft(page)).toBeGreaterThan(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await answerQuestion(page, exam, 3, 'Saved on the server');
    await answerQuestion(page, exam, 4, 'Saved on the server');
    expect(calls.refusals, "the first terminal's exam calls the server refused").toEqual([]);
    await seeServerHoldAnswersGiven(exam);

    await finishExam(page);
    await expectReceiptOfAnswersGiven(exam, await seeReceipt(page));
  });
});
