/**
 * Forty minutes that never lose an answer, in real Chromium against the production
 * build and the real server: the network cut mid-exam (Playwright's offline mode, or only the
 * answer calls refused), a reload while answers wait on this terminal, and finishing offline.
 *
 * What the pupil must see: an answer given while offline says "Saved on this terminal" and
 * later "Saved on the server"; finishing offline opens the retry dialog, never a dead end; and
 * once the network is back the server holds every answer (the end screen's receipt counts them).
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  goToNextQuestion,
  loginAndStartExam,
  openFinishDialog,
  openKiosk,
  outboxCount,
  RECONNECT_TIMEOUT_MS,
  screens,
  seeChoices,
  seeChosenAnswer,
  seeQuestionCounter,
  seeQuestionKind,
  seeScreen,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeJourneyPupil } from '../helpers/e2e-demo-accounts.ts';

const kiosk = useKiosk();

/** The saved indicator of the question on screen: "Saved on the server", "Saved on this terminal"... */
function saveState(page: Page) {
  return page.getByRole('status').filter({ hasText: /^(Saved on|Saving|Not saved|Not answered)/ }).first();
}

async function seeSaveState(page: Page, words: string, timeout = 20_000): Promise<void> {
  await expect.poll(async () => (await saveState(page).textContent())?.trim(), { timeout, message: 'the saved indicator' }).toBe(words);
}

/** Answers the question on screen (its second choice, or a typed word) without waiting for the server. */
async function answerWithoutWaiting(page: Page): Promise<void> {
  if ((await seeQuestionKind(page)) === 'choice') {
    const labels = await seeChoices(page);
    await page.getByRole('radio', { name: labels[1] ?? labels[0], exact: true }).check();
  } else {
    const box = page.getByRole('textbox', { name: 'Your answer' });
    await box.fill('offline');
    await box.blur();
  }
}

/** On the end screen: the number of answers the server's receipt counts. */
async function seeAnswersReceived(page: Page): Promise<number> {
  await seeScreen(page, screens.examEnd);
  const text = await page.locator('dt:has-text("Answers received") + dd').textContent();
  return Number((text ?? '').replace(/\D/g, ''));
}

async function finishAndSeeReceipt(page: Page): Promise<number> {
  const dialog = await openFinishDialog(page);
  await dialog.getByRole('button', { name: 'Finish', exact: true }).click();
  return seeAnswersReceived(page);
}

describe('the network cut mid-exam', () => {
  test('answers given offline are kept on this terminal and reach the server after reconnection', async () => {
    const page = kiosk.page;
    await openKiosk(page, '/login-code');
    await loginAndStartExam(page, takeJourneyPupil().login_code);

    await kiosk.context.setOffline(true);
    await answerWithoutWaiting(page);
    await seeSaveState(page, 'Saved on this terminal');
    await goToNextQuestion(page);
    await answerWithoutWaiting(page);
    await seeSaveState(page, 'Saved on this terminal');
    // The pupil keeps working: no dialog blocks the exam while answers wait.
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await outboxCount(page)).toBe(2);

    await kiosk.context.setOffline(false);
    await seeSaveState(page, 'Saved on the server', RECONNECT_TIMEOUT_MS);
    await page.getByRole('button', { name: 'Previous', exact: true }).click();
    await seeSaveState(page, 'Saved on the server', RECONNECT_TIMEOUT_MS);
    // Acknowledged answers leave the outbox.
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);

    expect(await finishAndSeeReceipt(page)).toBe(2);
  });

  test('a reload while answers wait on this terminal keeps them and sends them later', async () => {
    const page = kiosk.page;
    await openKiosk(page, '/login-code');
    await loginAndStartExam(page, takeJourneyPupil().login_code);

    // Only the answer calls fail, so the page itself can still be reloaded.
    const refuseAnswers = '**/api/exam/answers';
    await page.route(refuseAnswers, (route) => route.abort('internetdisconnected'));
    await goToNextQuestion(page);
    await goToNextQuestion(page);
    const question = await seeQuestionCounter(page);
    // A choice question is easiest to read back after the reload.
    expect(await seeQuestionKind(page)).toBe('choice');
    const label = (await seeChoices(page))[1]!;
    await page.getByRole('radio', { name: label, exact: true }).check();
    await seeSaveState(page, 'Saved on this terminal');

    await page.reload();
    await expect.poll(() => seeQuestionCounter(page), { timeout: 15_000 }).toEqual(question);
    expect(await seeChosenAnswer(page)).toBe(label);
    await seeSaveState(page, 'Saved on this terminal');
    expect(await outboxCount(page)).toBe(1);

    await page.unroute(refuseAnswers);
    await seeSaveState(page, 'Saved on the server', RECONNECT_TIMEOUT_MS);
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
    expect(await finishAndSeeReceipt(page)).toBe(1);
  });
});

describe('finishing offline', () => {
  test('opens the retry dialog and completes once the network is back', async () => {
    const page = kiosk.page;
    await openKiosk(page, '/login-code');
    await loginAndStartExam(page, takeJourneyPupil().login_code);
    await answerWithoutWaiting(page);
    await seeSaveState(page, 'Saved on the server');

    await kiosk.context.setOffline(true);
    await goToNextQuestion(page);
    await answerWithoutWaiting(page);
    await seeSaveState(page, 'Saved on this terminal');
    const dialog = await openFinishDialog(page);
    await dialog.getByRole('button', { name: 'Finish', exact: true }).click();

    // Not a dead end: the retry dialog says what is going on, over the exam.
    const retry = page.getByRole('alertdialog');
    await retry.waitFor();
    expect(await retry.textContent()).toMatch(/Connecting again…|Check your internet connection/);
    expect(await retry.textContent()).toContain('Your answers are kept on this terminal.');
    expect(await page.getByText(/Question \d+ of \d+/).count()).toBeGreaterThan(0);

    await kiosk.context.setOffline(false);
    await seeScreen(page, screens.examEnd);
    expect(await retry.count()).toBe(0);
    expect(await seeAnswersReceived(page)).toBe(2);
    expect(await outboxCount(page)).toBe(0);
  });
});
