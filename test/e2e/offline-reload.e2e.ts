/**
 * Fault matrix, offline reload, in real Chromium against the production build and the
 * real server: the network drops mid-exam and the page is reloaded while it is down.
 *
 * The app shell comes from the service worker's precache (vite.config.ts); the exam comes back
 * from what this terminal kept when it was loaded (src/platform/exam-cache.ts) and from the
 * answer outbox: the same question, the time left from the server's deadline (within 2 s), the
 * answers given so far, those not yet sent still "Saved on this terminal". The pupil goes on
 * answering offline; once the network is back, every answer reaches the server: the answers on
 * the server (GET through the API, with the pupil's own credentials) equal the answers given,
 * and the outbox is empty.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  goToQuestion,
  loginAndStartExam,
  openKiosk,
  outboxCount,
  RECONNECT_TIMEOUT_MS,
  seeQuestionCounter,
  seeTimeLeft,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { seeSaveState } from '../helpers/e2e-answers.ts';
import { takeSparePupil } from '../helpers/e2e-demo-accounts.ts';
import { answerQuestion, followSitting, seeServerHoldAnswersGiven, type Sitting } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();


/** The app shell's service worker controls the page and has precached the app (so a reload works offline). */
async function seeAppShellInstalled(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active && navigator.serviceWorker.controller)), {
      timeout: 30_000,
      message: 'the service worker controls the page',
    })
    .toBe(true);
}

/** The timer shows what the server's deadline leaves now, within 2 s. */
async function seeServersTimeLeft(page: Page, sitting: Sitting): Promise<void> {
  const shown = await seeTimeLeft(page);
  const left = (sitting.deadlineAt - Date.now()) / 1000;
  expect(Math.abs(shown - left), `the timer shows ${shown} s; the server's deadline leaves ${left.toFixed(1)} s`).toBeLessThanOrEqual(2);
}

describe('a reload with no network mid-exam', () => {
  test('shows the same question and time left, keeps the outbox, and every answer reaches the server once online', async () => {
    const page = kiosk.page;
    const pupil = takeSparePupil();
    await openKiosk(page, '/login-code');
    await seeAppShellInstalled(page);

    const following = followSitting(page, pupil);
    await loginAndStartExam(page, pupil.login_code);
    const sitting = await following;
    expect(sitting.questions.length).toBeGreaterThanOrEqual(5);

    // Online: questions 1 and 2 reach the server.
    await answerQuestion(page, sitting, 1, 'Saved on the server');
    await answerQuestion(page, sitting, 2, 'Saved on the server');

    // The network drops: questions 3 and 4 are kept on this terminal.
    await kiosk.context.setOffline(true);
    await answerQuestion(page, sitting, 3, 'Saved on this terminal');
    await answerQuestion(page, sitting, 4, 'Saved on this terminal');
    expect(await outboxCount(page)).toBe(2);
    const onScreen = await seeQuestionCounter(page);
    expect(onScreen.current).toBe(4);

    // Reloaded with no network: the app shell loads, and the exam is where it was.
    await page.reload();
    await expect.poll(() => seeQuestionCounter(page), { timeout: 20_000, message: 'the question on screen after the reload' }).toEqual(onScreen);
    await seeServersTimeLeft(page, sitting);
    await seeSaveState(page, 'Saved on this terminal');
    expect(await page.getByRole('alertdialog').count(), 'no dialog: the exam goes on').toBe(0);
    expect(await outboxCount(page)).toBe(2);

    // Still offline, the pupil goes on: question 5, and back to question 2, saved before the reload.
    await answerQuestion(page, sitting, 5, 'Saved on this terminal');
    expect(await outboxCount(page)).toBe(3);
    await seeSavedBeforeTheReload(page, sitting, 2);

    // The network is back: everything reaches the server, and the outbox empties.
    await kiosk.context.setOffline(false);
    await seeSaveState(page, 'Saved on the server', RECONNECT_TIMEOUT_MS);
    await seeServerHoldAnswersGiven(sitting, RECONNECT_TIMEOUT_MS);
    await expect.poll(() => outboxCount(page), { timeout: RECONNECT_TIMEOUT_MS, message: 'the outbox' }).toBe(0);
    await seeServersTimeLeft(page, sitting);
  });
});

/** Goes to question `number`, answered and saved on the server before the reload: it still says so. */
async function seeSavedBeforeTheReload(page: Page, sitting: Sitting, number: number): Promise<void> {
  await goToQuestion(page, number);
  expect(sitting.given.has(sitting.questions[number - 1]!.id)).toBe(true);
  await seeSaveState(page, 'Saved on the server');
}
