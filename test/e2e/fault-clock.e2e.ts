/**
 * Fault matrix: the terminal's clock is wrong. A lab terminal's clock an hour
 * ahead or an hour behind (Playwright's clock emulation: the page's Date, timers and
 * performance.now run from a shifted start, at the normal pace), the server's clock right.
 *
 * The pupil logs in and starts; the timer shows the server's time left (40:00 at Start, within
 * 3 s of what the server's deadline leaves), not a time an hour off; every answer is accepted and
 * saved (none refused as given outside the exam: the answer time the terminal sends is on the
 * server's clock, from the offset it keeps); the answers on the server equal the answers given;
 * Finish: the receipt counts exactly those answers and carries their digest.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  finishExam,
  loginAndStartExam,
  openKiosk,
  seeReceipt,
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
  type Sitting,
} from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

const HOUR_MS = 3_600_000;
/** The paper's time limit: 40 minutes (seed section 9). */
const FORTY_MINUTES = 40 * 60;

/** Sets the terminal's clock off by `offMs` from now on (before the kiosk is opened). */
async function setTerminalClockOff(page: Page, offMs: number): Promise<void> {
  await page.clock.install({ time: Date.now() + offMs });
}

/** How far the page's clock is from the real time, in ms. */
async function terminalClockOff(page: Page): Promise<number> {
  const before = Date.now();
  const inPage = await page.evaluate(() => Date.now());
  return inPage - (before + Date.now()) / 2;
}

/** The timer shows what the server's deadline leaves now, within 3 s. */
async function seeServersTimeLeft(page: Page, sitting: Sitting): Promise<number> {
  const shown = await seeTimeLeft(page);
  const serverLeft = (sitting.deadlineAt - Date.now()) / 1000;
  expect(Math.abs(shown - serverLeft), `the timer shows ${shown} s; the server's deadline leaves ${serverLeft.toFixed(1)} s`).toBeLessThanOrEqual(3);
  return shown;
}

describe("a terminal whose clock is wrong, the server's right", () => {
  test.each([
    { clock: 'one hour ahead', offMs: HOUR_MS },
    { clock: 'one hour behind', offMs: -HOUR_MS },
  ])("the terminal's clock $clock: the timer shows the server's time left and every answer is saved", async ({ offMs }) => {
    const page = kiosk.page;
    const pupil = takeSparePupil();
    const calls = watchExamCalls(page);

    await setTerminalClockOff(page, offMs);
    await openKiosk(page, '/login-code');
    expect(Math.abs((await terminalClockOff(page)) - offMs), "the terminal's clock is an hour off").toBeLessThan(60_000);

    const sitting = followSitting(page, pupil);
    await loginAndStartExam(page, pupil.login_code);
    const exam = await sitting;

    // 40:00 at Start, on the server's clock, not an hour more or less (nor 00:00).
    const atStart = await seeServersTimeLeft(page, exam);
    expect(atStart).toBeLessThanOrEqual(FORTY_MINUTES);
    expect(atStart).toBeGreaterThan(FORTY_MINUTES - 30);

    // Answers are accepted and saved on the server: none refused as given outside the exam.
    for (const number of [1, 2, 3, 4]) await answerQuestion(page, exam, number, 'Saved on the server');
    expect(calls.refusals, 'exam calls the server refused').toEqual([]);
    await seeServerHoldAnswersGiven(exam);
    await seeServersTimeLeft(page, exam);

    await finishExam(page);
    await expectReceiptOfAnswersGiven(exam, await seeReceipt(page));
    expect(calls.refusals, 'exam calls the server refused').toEqual([]);
  });
});
