/**
 * Fault matrix: impatient clicks. A pupil double-clicks (or triple-clicks) the
 * big "Start the test" button, and later "Finish the test" and the finish dialog's "Finish".
 *
 * Start: one sitting starts with one deadline (every Start the terminal sent was answered with
 * the same one), the first question and 40:00 on the timer, no error. Finish: the dialog opens
 * once and stays open until the pupil confirms; the confirmation finishes once (one Finish call),
 * and the end screen shows one receipt. Throughout, the answers on the server equal the answers
 * given, and the receipt (on screen and the server's own) counts exactly those.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { StartExamResponse } from '../../contract/exam.ts';
import {
  confirmIdentity,
  loginWithCode,
  openKiosk,
  passTutorial,
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
  type ExamCalls,
  type Sitting,
} from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** The paper's time limit: 40 minutes (seed section 9). */
const FORTY_MINUTES = 40 * 60;

type Clicks = 2 | 3;

function button(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('button', { name, exact: true });
}

/** A rapid double or triple click, as one gesture at one spot (the button may change under it). */
async function clickRapidly(target: Locator, clicks: Clicks): Promise<void> {
  await (clicks === 2 ? target.dblclick() : target.click({ clickCount: 3 }));
}

/** No error on screen: no alert, no retry dialog, no end screen. */
async function seeNoError(page: Page): Promise<void> {
  expect(await page.getByRole('alert').allInnerTexts(), 'alerts on screen').toEqual([]);
  expect(await page.getByRole('alertdialog').count(), 'retry dialogs on screen').toBe(0);
}

/** On "Ready to start": clicks "Start the test" rapidly; resolves on question 1. */
async function startExamWithClicks(page: Page, clicks: Clicks): Promise<void> {
  await seeScreen(page, screens.examStart);
  await clickRapidly(button(page, 'Start the test'), clicks);
  await page.waitForURL((url) => url.pathname === '/start');
  expect((await seeQuestionCounter(page)).current).toBe(1);
}

/** The terminal sent Start once, answered 200 with the sitting's one deadline. */
async function expectOneSittingStarted(calls: ExamCalls, sitting: Sitting): Promise<void> {
  expect(calls.starts.length, 'Start calls sent').toBe(1);
  const deadlines = new Set<string>();
  for (const start of calls.starts) {
    const response = await start.response();
    expect(response?.status(), 'Start answered').toBe(200);
    deadlines.add(((await response!.json()) as StartExamResponse).deadline_at);
  }
  expect([...deadlines], 'the deadlines Start answered').toEqual([new Date(sitting.deadlineAt).toISOString()]);
}

/** Opens the finish dialog with rapid clicks on "Finish the test": one dialog, still open. */
async function openFinishDialogWithClicks(page: Page, clicks: Clicks): Promise<Locator> {
  await clickRapidly(button(page, 'Finish the test'), clicks);
  const dialog = page.getByRole('dialog', { name: 'Finish the test?' });
  await dialog.waitFor();
  expect(await dialog.count(), 'finish dialogs open').toBe(1);
  // The extra clicks neither closed it nor confirmed it: the pupil still decides.
  await button(dialog, 'Finish').waitFor();
  expect(await page.getByRole('heading', { name: screens.examEnd }).count()).toBe(0);
  return dialog;
}

describe('impatient clicks on Start and Finish', () => {
  test.each([
    { gesture: 'double', clicks: 2 as const },
    { gesture: 'triple', clicks: 3 as const },
  ])(
    'a $gesture click on Start starts one sitting; the same on Finish and its confirmation finishes once, with one receipt',
    async ({ gesture, clicks }) => {
      const page = kiosk.page;
      const pupil = takeSparePupil();
      const calls = watchExamCalls(page);
      const sitting = followSitting(page, pupil);

      await openKiosk(page, '/login-code');
      await loginWithCode(page, pupil.login_code);
      await confirmIdentity(page);
      await passTutorial(page);
      await startExamWithClicks(page, clicks);
      const exam = await sitting;

      // One sitting, one deadline, 40:00 on the timer, no error.
      await expectOneSittingStarted(calls, exam);
      const timeLeft = await seeTimeLeft(page);
      expect(timeLeft).toBeLessThanOrEqual(FORTY_MINUTES);
      expect(timeLeft).toBeGreaterThan(FORTY_MINUTES - 30);
      await seeNoError(page);

      for (const number of [1, 2, 3]) await answerQuestion(page, exam, number, 'Saved on the server');
      await seeServerHoldAnswersGiven(exam);
      await expectOneSittingStarted(calls, exam);

      // Finish: the dialog once, then one finish and one receipt.
      const dialog = await openFinishDialogWithClicks(page, clicks);
      await clickRapidly(button(dialog, 'Finish'), clicks);
      await seeScreen(page, screens.examEnd);
      const receipt = await seeReceipt(page);
      expect(await page.locator('dl dt').filter({ hasText: /^\s*Receipt\s*$/ }).count(), 'receipts on the end screen').toBe(1);
      await expectReceiptOfAnswersGiven(exam, receipt);
      expect(calls.finishes.length, `Finish calls sent after a ${gesture} click`).toBe(1);
      expect(calls.refusals, 'exam calls the server refused').toEqual([]);
    },
  );
});
