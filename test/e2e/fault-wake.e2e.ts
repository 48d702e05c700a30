/**
 * Fault matrix, wake after the deadline with paused timers, in real Chromium against the
 * production build and the real server. A laptop's lid is closed mid-exam and opened after the
 * deadline: Playwright's clock pauses the page's clock and timers (nothing runs, as on a sleeping
 * laptop) while the deadline passes on the server (its clock moved past it: POST /api/test/clock),
 * then jumps them forward as far (the lid opens; each due timer fires once).
 *
 * A time-out demo pupil (demo-accounts.json, scenario `time-out`) sits EN-1-TIMEOUT, a copy of
 * English level 1 with a one-minute limit. Two answers are saved; the lid closes; the server's
 * deadline passes; the lid opens: the exam finishes by itself (the end screen with the receipt),
 * without the pupil doing anything, and the receipt (the end screen's and the server's own)
 * counts exactly the answers given, with their digest.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { loginAndStartExam, moveServerClock, openKiosk, screens, seeReceipt, seeTimeLeft, useKiosk } from '../helpers/e2e-browser.ts';
import { takeTimeOutPupil } from '../helpers/e2e-demo-accounts.ts';
import { answerQuestion, expectReceiptOfAnswersGiven, followSitting, watchExamCalls } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** After waking, the finish (a flush, then POST /exam/finish) has this long to show the end screen. */
const FINISH_TIMEOUT_MS = 30_000;
/** How far ahead of the page's time the lid closes: more than a call to the browser takes on a quiet machine. */
const LID_AHEAD_MS = 500;

/**
 * Closes the lid: pauses the page's clock and timers a moment ahead of the page's time; resolves
 * to that instant. Playwright only pauses at a time still to come, and on a busy machine the call
 * may arrive after the moment it named: then the page's time is read again and the lid closes a
 * moment after it.
 */
async function closeLid(page: Page): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const at = (await page.evaluate(() => Date.now())) + LID_AHEAD_MS * attempt;
    try {
      await page.clock.pauseAt(at);
      return at;
    } catch (error) {
      if (attempt >= 5 || !/to the past/.test(String(error))) throw error;
    }
  }
}

describe('a terminal that slept past the deadline', () => {
  // The files after this one on the same server expect the real time.
  afterAll(async () => {
    expect((await moveServerClock({ set: new Date().toISOString() })).status).toBe(200);
  });

  test('finishes by itself on waking, with every answer given on the server', async () => {
    const page = kiosk.page;
    const pupil = takeTimeOutPupil();
    const calls = watchExamCalls(page);
    // The page's clock is Playwright's from the start: it runs with the real time until paused.
    await page.clock.install();
    await openKiosk(page, '/login-code');

    const following = followSitting(page, pupil);
    await loginAndStartExam(page, pupil.login_code);
    const sitting = await following;
    expect(sitting.deadlineAt - Date.now(), 'a one-minute sitting').toBeLessThanOrEqual(60_000);

    await answerQuestion(page, sitting, 1, 'Saved on the server');
    await answerQuestion(page, sitting, 2, 'Saved on the server');
    const beforeSleep = await seeTimeLeft(page);
    expect(beforeSleep).toBeGreaterThan(0);

    // The lid closes: the page's clock and timers stop where they are.
    const closedAt = await closeLid(page);
    // The deadline passes on the server (plus a margin), while nothing runs in the page.
    const asleepMs = Math.max(0, sitting.deadlineAt - Date.now()) + 3_000;
    const moved = await moveServerClock({ advance_ms: asleepMs });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.server_time), 'the server is past the deadline').toBeGreaterThan(sitting.deadlineAt);
    expect(await seeTimeLeft(page), 'the frozen page still shows the time it had').toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: screens.examEnd }).count()).toBe(0);

    // The lid opens: the page's clock jumps to the server's time, each due timer fires once, then time runs on.
    await page.clock.fastForward(Date.now() + asleepMs - closedAt);
    await page.clock.resume();

    // Nobody touches anything: the exam finishes by itself.
    await page.getByRole('heading', { name: screens.examEnd }).waitFor({ timeout: FINISH_TIMEOUT_MS });
    await expectReceiptOfAnswersGiven(sitting, await seeReceipt(page));
    expect(calls.finishes.length, 'Finish went out').toBeGreaterThanOrEqual(1);
    expect(calls.starts).toHaveLength(1);
  });
});
