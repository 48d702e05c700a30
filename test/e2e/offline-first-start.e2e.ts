/**
 * The first login on a fresh browser profile (a kiosk that wipes its own at every boot), in real
 * Chromium against the production build and the real server: the app shell's service worker is
 * still installing when the pupil reaches Start. Start waits, with its step on screen ("Preparing
 * this terminal to work offline…"), until the shell is installed and controls the page, so that
 * the moment the first question shows, the network may drop and the page be reloaded: the exam
 * comes back (not Chromium's "No internet" page), with the answer given offline still kept on
 * this terminal, and it reaches the server once the network is back.
 *
 * The first install is held back until Start was pressed (the KaTeX fonts, precached and never
 * asked for by the screens before the exam, answer only then), as on a slow first boot, so the
 * race is the same on a fast machine and on a loaded one.
 */
import { expect, test } from 'vitest';
import { confirmIdentity, loginWithCode, openKiosk, passTutorial, screens, seeQuestionCounter, seeScreen, useKiosk } from '../helpers/e2e-browser.ts';
import { seeSaveState } from '../helpers/e2e-answers.ts';
import { takeSparePupil } from '../helpers/e2e-demo-accounts.ts';
import { answerQuestion, followSitting, seeServerHoldAnswersGiven } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** Long enough for the background sync's backoff (at most 8 s between tries) to come round a few times. */
const RECONNECT_TIMEOUT_MS = 45_000;

test('on a fresh profile Start waits for the offline shell; an offline reload at the first question brings the exam back with its answer', async () => {
  const page = kiosk.page;
  const pupil = takeSparePupil();

  // The first install cannot finish before Start is pressed: the precached fonts wait for it.
  let releaseFonts = () => {};
  const fontsReleased = new Promise<void>((resolve) => (releaseFonts = resolve));
  await kiosk.context.route(/\/assets\/KaTeX_[\w-]+\.woff2$/, async (route) => {
    await fontsReleased;
    await route.continue().catch(() => undefined);
  });

  try {
    await openKiosk(page, '/login-code');
    const following = followSitting(page, pupil);
    await loginWithCode(page, pupil.login_code);
    await confirmIdentity(page);
    await passTutorial(page);
    await seeScreen(page, screens.examStart);
    expect(await page.evaluate(() => navigator.serviceWorker.controller), 'no worker controls a fresh profile yet').toBeNull();

    await page.getByRole('button', { name: 'Start the test' }).click();
    // Start waits with its step on screen; without the wait the first question would show at once.
    const step = page.getByRole('button', { name: 'Preparing this terminal to work offline…' });
    const firstQuestion = page.getByText(/\bQuestion \d+ of \d+\b/).first();
    await step.or(firstQuestion).first().waitFor();
    const stepShown = await step.isVisible();
    if (stepShown) releaseFonts();

    const sitting = await following;
    expect(await seeQuestionCounter(page)).toEqual({ current: 1, total: sitting.questions.length });

    // At once: the network drops, the pupil answers, the page is reloaded.
    await kiosk.context.setOffline(true);
    await answerQuestion(page, sitting, 1, 'Saved on this terminal');
    const reloaded = await page.reload().catch((error: Error) => error);
    if (reloaded instanceof Error) throw new Error(`the offline reload showed the browser's error page, not the exam: ${reloaded.message}`);
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await expect
      .poll(() => seeQuestionCounter(page), { timeout: 20_000, message: 'the question on screen after the reload' })
      .toEqual({ current: 1, total: sitting.questions.length });
    await seeSaveState(page, 'Saved on this terminal');
    expect(await page.getByRole('alertdialog').count(), 'no dialog: the exam goes on').toBe(0);

    // The network is back: the answer given offline reaches the server.
    await kiosk.context.setOffline(false);
    await seeSaveState(page, 'Saved on the server', RECONNECT_TIMEOUT_MS);
    await seeServerHoldAnswersGiven(sitting, RECONNECT_TIMEOUT_MS);
    expect(stepShown, 'Start showed its step while the shell was installing').toBe(true);
  } finally {
    releaseFonts();
  }
});
