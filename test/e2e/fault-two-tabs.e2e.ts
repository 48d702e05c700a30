/**
 * In real Chromium against the production build and the real
 * server: one pupil's exam open in two tabs of the same browser (the same stored session, the
 * same terminal), both answering the same questions.
 *
 * - Tab A answers a question, tab B answers it differently a moment later: the server keeps B's
 *   (the newest). Tab A, still in the background, shows B's as "Replaced by an answer from
 *   another window", with B's choice chosen, never as saved: tab B told it once the server
 *   acknowledged (src/platform/terminal.ts), without a reload or a focus. Focused again, tab A
 *   reads the server's answers and still shows it so.
 * - Tab A answers while its answer calls fail (kept on this terminal), tab B answers the same
 *   question later and online; when A's answer finally arrives, the server keeps B's (the later
 *   one) and tells A so: A shows B's answer as replaced.
 * In both cases the answers on the server (GET through the API) are the newest ones given.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { Question } from '../../contract/exam.ts';
import { seeSaveState } from '../helpers/e2e-answers.ts';
import { goToQuestion, loginAndStartExam, openKiosk, seeQuestionCounter, useKiosk } from '../helpers/e2e-browser.ts';
import { takeSparePupil } from '../helpers/e2e-demo-accounts.ts';
import { followSitting, seeServerHoldAnswersGiven, type Sitting } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** Long enough for the background sync's backoff (at most 8 s between tries) to come round a few times. */
const RECONNECT_TIMEOUT_MS = 45_000;
const REPLACED = 'Replaced by an answer from another window. The answer shown is the one the server keeps.';

function replacedIndicator(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: /Replaced by an answer from another window/ }).first();
}

/**
 * On question `number` (a choice question), chooses the choice at `index`: by position, as math
 * choices are named by their KaTeX rendering, not by their TeX.
 */
async function choose(page: Page, number: number, index: number): Promise<void> {
  await goToQuestion(page, number);
  await page.getByRole('radio').nth(index).check();
}

/** The position of the chosen choice on screen, or -1 when none is chosen. */
async function chosenIndex(page: Page): Promise<number> {
  const radios = page.getByRole('radio');
  await radios.first().waitFor();
  const all = await radios.all();
  for (const [index, radio] of all.entries()) if (await radio.isChecked()) return index;
  return -1;
}

/** The choice questions of the sitting with at least two choices: their 1-based numbers. */
function choiceQuestions(sitting: Sitting): { number: number; question: Question }[] {
  return sitting.questions.flatMap((question, i) =>
    question.type === 'single_choice' && question.choices.length >= 2 ? [{ number: i + 1, question }] : [],
  );
}

/** The tab is focused again (the window's focus event, as switching back to it sends). */
async function focusTab(page: Page): Promise<void> {
  await page.bringToFront();
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
}

describe('two tabs of one exam', () => {
  test('the tab whose answer was replaced shows the server value as replaced; the server holds the newest', async () => {
    const tabA = kiosk.page;
    const pupil = takeSparePupil();
    await openKiosk(tabA, '/login-code');
    const following = followSitting(tabA, pupil);
    await loginAndStartExam(tabA, pupil.login_code);
    const sitting = await following;
    const choices = choiceQuestions(sitting);
    expect(choices.length, 'the paper has two choice questions').toBeGreaterThanOrEqual(2);
    const [first, second] = choices as [(typeof choices)[number], (typeof choices)[number]];

    // The same exam in a second tab: the stored session resumes it at the same question.
    const tabB = await kiosk.context.newPage();
    await tabB.goto('/start');
    await expect.poll(() => seeQuestionCounter(tabB), { timeout: 20_000 }).toEqual(await seeQuestionCounter(tabA));

    // 1. A answers, B answers differently a moment later; A learns of it when it is focused again.
    await tabA.bringToFront();
    await choose(tabA, first.number, 0);
    await seeSaveState(tabA, 'Saved on the server');
    await tabB.bringToFront();
    await choose(tabB, first.number, 1);
    await seeSaveState(tabB, 'Saved on the server');
    sitting.given.set(first.question.id, first.question.choices[1]!.id);
    await seeServerHoldAnswersGiven(sitting);

    // Tab A learns of it from tab B at once, still in the background: no reload, no focus, no
    // re-read of the server's answers (12 s of heartbeats never brought it).
    await expect
      .poll(async () => (await replacedIndicator(tabA).textContent())?.trim(), { timeout: 5_000, message: 'tab A, not focused' })
      .toBe(REPLACED);
    expect(await chosenIndex(tabA)).toBe(1);
    expect(await tabA.getByRole('status').filter({ hasText: 'Saved on the server' }).count()).toBe(0);

    // Focused again, it reads the server's answers: still B's, still replaced.
    await focusTab(tabA);
    await expect.poll(async () => (await replacedIndicator(tabA).textContent())?.trim(), { timeout: 15_000 }).toBe(REPLACED);
    expect(await chosenIndex(tabA)).toBe(1);
    expect(await tabA.getByRole('status').filter({ hasText: 'Saved on the server' }).count()).toBe(0);

    // 2. A's answer cannot reach the server for a while; B answers the same question later, online.
    const refuseAnswers = '**/api/exam/answers';
    await tabA.route(refuseAnswers, (route) => route.abort('internetdisconnected'));
    await choose(tabA, second.number, 0);
    await seeSaveState(tabA, 'Saved on this terminal');
    await tabB.bringToFront();
    await choose(tabB, second.number, 1);
    await seeSaveState(tabB, 'Saved on the server');
    sitting.given.set(second.question.id, second.question.choices[1]!.id);

    // A's older answer arrives: the server keeps B's and says so; A shows it as replaced.
    await tabA.unroute(refuseAnswers);
    await expect
      .poll(async () => (await replacedIndicator(tabA).textContent())?.trim(), { timeout: RECONNECT_TIMEOUT_MS, message: "tab A's indicator" })
      .toBe(REPLACED);
    expect(await chosenIndex(tabA)).toBe(1);

    // The server holds the newest answers given, B's in both cases.
    await seeServerHoldAnswersGiven(sitting);
    await tabB.close();
  });
});
