/**
 * Finish pressed while offline, then the page reloaded while still offline, in real Chromium
 * against the production build and the real server. The confirmed Finish is kept in the stored
 * session (finish_pending, machines/exam/README.md), so the pupil is never back on
 * the question with the clock running and "Finish the test": the reloaded page shows the exam
 * finishing with the retry dialog, never the Finish button, and once the network is back the
 * exam finishes by itself: "Test complete", with every answer given in the server's receipt.
 */
import { describe, expect, test } from 'vitest';
import {
  loginAndStartExam,
  openFinishDialog,
  openKiosk,
  screens,
  seeReceipt,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeSparePupil } from '../helpers/e2e-demo-accounts.ts';
import { answerQuestion, answersGiven, followSitting, receiptFromServer } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** Long enough for the retry machine's backoff to come round after the network is back. */
const RECONNECT_TIMEOUT_MS = 45_000;

describe('Finish pressed offline, then a reload while still offline', () => {
  test('the reloaded page goes on finishing, and the exam finishes by itself once online with every answer', async () => {
    const page = kiosk.page;
    const pupil = takeSparePupil();
    await openKiosk(page, '/login-code');
    await expect
      .poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active && navigator.serviceWorker.controller)), {
        timeout: 30_000,
        message: 'the service worker controls the page',
      })
      .toBe(true);

    const following = followSitting(page, pupil);
    await loginAndStartExam(page, pupil.login_code);
    const sitting = await following;

    await answerQuestion(page, sitting, 1, 'Saved on the server');
    await kiosk.context.setOffline(true);
    await answerQuestion(page, sitting, 2, 'Saved on this terminal');

    // Finish, confirmed offline: the retry dialog.
    const dialog = await openFinishDialog(page);
    await dialog.getByRole('button', { name: 'Finish', exact: true }).click();
    await page.getByRole('alertdialog').waitFor({ timeout: 20_000 });

    // Reloaded, still offline: finishing again (the retry dialog), never the question with "Finish the test".
    await page.reload();
    await page.getByRole('alertdialog').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Finish the test' }).count(), 'no Finish button: the exam is finishing').toBe(0);

    // Back online: the exam finishes by itself, no button pressed.
    await kiosk.context.setOffline(false);
    await page.getByRole('heading', { name: screens.examEnd }).waitFor({ timeout: RECONNECT_TIMEOUT_MS });
    const receipt = await seeReceipt(page);
    expect(answersGiven(sitting)).toHaveLength(2);
    expect(receipt.answers).toBe(2);
    // The server's own receipt (POST /exam/finish again, idempotent) counts both answers too.
    expect((await receiptFromServer(sitting)).answer_count).toBe(2);
  });
});
