/**
 * Every question type answered in real Chromium, by pointer and by keyboard alone, against the
 * real server and the demo seed's subject exams (one pupil per subject and level):
 * - English: typed text on the on-screen alphabet keyboard (clicked, then arrow keys + Enter);
 * - Calculation: the number keypad (clicked, then typed: "3/" stays on the terminal until it
 *   is "3/4"), and a math prompt set with KaTeX from our own host, with MathML;
 * - Visual Programming: an ordering question, by Space/arrows/Space, by "Move up" and by drag.
 * Each answer counts once the server acknowledged it with exactly the expected value.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page, Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import type { ExamQuestions, Question } from '../../contract/exam.ts';
import { baseUrl, goToNextQuestion, goToQuestion, loginAndStartExam, openKiosk, seeQuestionCounter, useKiosk } from '../helpers/e2e-browser.ts';

const kiosk = useKiosk();

// --- Pupils --------------------------------------------------------------------------

const takenFile = process.env.E2E_ARTIFACTS_DIR ? path.join(process.env.E2E_ARTIFACTS_DIR, 'taken-pupils.txt') : undefined;

/**
 * A "subject" demo pupil of this subject whose exam nobody in this run has started, the highest
 * level first (its exam has every key of the keypad); noted in the run's taken-pupils file like
 * takeJourneyPupil does, so no other test file starts the same exam.
 */
function takeSubjectPupil(subject: number): string {
  const taken = new Set(takenFile && existsSync(takenFile) ? readFileSync(takenFile, 'utf8').split('\n') : []);
  const account = loadDemoAccounts()
    .filter((a) => a.scenario === 'subject' && a.subject === subject && a.login_refused_with === null && !taken.has(a.login_code))
    .sort((a, b) => b.level - a.level)[0];
  if (!account) throw new Error(`server/seed/demo-accounts.json has no subject ${subject} pupil left for this test run`);
  if (takenFile) appendFileSync(takenFile, `${account.login_code}\n`);
  return account.login_code;
}

/** Logs in as the pupil and starts the exam; resolves with the questions the server sent. */
async function startExamOf(page: Page, subject: number): Promise<Question[]> {
  // Waited for across the whole way in (four screens, each with its own time-out): no time-out of its own.
  const questions = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname.endsWith('/exam/questions'), { timeout: 0 });
  await openKiosk(page, '/');
  await loginAndStartExam(page, takeSubjectPupil(subject));
  return ((await (await questions).json()) as ExamQuestions).questions;
}

// --- What the pupil does -------------------------------------------------------------

/** Resolves when the server acknowledged this answer value (set up before answering). */
function answerSaved(page: Page, value: string): Promise<Response> {
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/exam/answers') && r.request().postDataJSON()?.value === value,
    { timeout: 15_000 },
  );
  saved.catch(() => undefined);
  return saved.then((response) => {
    if (!response.ok()) throw new Error(`saving "${value}" failed: HTTP ${response.status()}`);
    return response;
  });
}

/** Presses Next until a question shows `what`; fails after the last question. */
async function goToQuestionWith(page: Page, what: Locator): Promise<void> {
  for (;;) {
    if (await what.first().isVisible()) return;
    const { current, total } = await seeQuestionCounter(page);
    if (current >= total) throw new Error('no question of this kind in the exam');
    await goToNextQuestion(page);
  }
}

const key = (scope: Page | Locator, name: string | RegExp) => scope.getByRole('button', { name, exact: typeof name === 'string' });

describe('every question type, by pointer and by keyboard', () => {
  test('English: a word typed on the alphabet keyboard, by clicking and by the arrow keys', async () => {
    const page = kiosk.page;
    await startExamOf(page, 1);
    const keyboard = page.getByRole('group', { name: 'Alphabet keyboard' });
    await goToQuestionWith(page, keyboard);
    const capitals = (await key(keyboard, 'Capital letters').getAttribute('aria-disabled')) === 'true';
    const word = capitals ? 'CATS' : 'cats';

    // Pointer: c, a, t.
    for (const letter of word.slice(0, 3)) await key(keyboard, letter).click();
    const box = page.getByRole('textbox', { name: 'Your answer' });
    await expect.poll(() => box.inputValue()).toBe(word.slice(0, 3));

    // Keyboard alone: one Tab into the keyboard (on "q"), down to "a", right to "s", Enter.
    const saved = answerSaved(page, word);
    await box.focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => key(keyboard, capitals ? 'Q' : 'q').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => box.inputValue()).toBe(word);
    // Handed over after a pause in typing, and saved by the server.
    await saved;
  });

  test('Calculation: the keypad by clicking and by typing, and a math prompt set with KaTeX', async () => {
    const page = kiosk.page;
    const katexRequests: string[] = [];
    page.on('request', (request) => {
      if (/katex/i.test(request.url())) katexRequests.push(request.url());
    });
    const questions = await startExamOf(page, 2);
    const keypad = page.getByRole('group', { name: 'Number keypad' });
    await goToQuestionWith(page, key(keypad, 'Fraction bar'));
    const display = page.getByRole('textbox', { name: 'Your answer' });

    // Pointer: −, 3.
    let saved = answerSaved(page, '-3');
    await key(keypad, 'Minus').click();
    await key(keypad, '3').click();
    await saved;
    await expect.poll(() => display.inputValue()).toBe('−3');

    // Keyboard: Delete clears; "3/" stays on the terminal; "3/4" is saved.
    saved = answerSaved(page, '3/4');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/exam/answers')) sent.push(String(request.postDataJSON()?.value));
    });
    await page.keyboard.press('Delete');
    await page.keyboard.type('3/');
    await expect.poll(() => display.inputValue()).toBe('3/');
    await page.getByText('Finish the number: it is not saved yet.').waitFor();
    await page.keyboard.type('4');
    await saved;
    expect(sent).not.toContain('3/');
    // A keypad key pressed with the keyboard alone: focus it, Enter.
    saved = answerSaved(page, '3/45');
    await key(keypad, '5').focus();
    await page.keyboard.press('Enter');
    await saved;

    // A math prompt: KaTeX renders MathML, from this server only.
    const mathQuestion = questions.find((q) => q.math === true);
    expect(mathQuestion, 'the Calculation exam has a math question').toBeDefined();
    await goToQuestion(page, questions.indexOf(mathQuestion!) + 1);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.locator('math').first().waitFor({ state: 'attached' });
    await heading.locator('.katex-html').first().waitFor();
    expect(katexRequests.length).toBeGreaterThan(0);
    for (const url of katexRequests) expect(new URL(url).origin).toBe(new URL(baseUrl()).origin);
    // The KaTeX fonts are loaded (from our own host) and used.
    await expect.poll(() => page.evaluate(() => [...document.fonts].some((font) => font.family.includes('KaTeX') && font.status === 'loaded'))).toBe(true);
  });

  test('Visual Programming: blocks ordered by Space and arrows, by Move up and by dragging', async () => {
    const page = kiosk.page;
    const questions = await startExamOf(page, 6);
    const programList = page.getByRole('list', { name: 'Your program' });
    await goToQuestionWith(page, programList);
    const { current } = await seeQuestionCounter(page);
    const question = questions[current - 1]!;
    const blocks = question.blocks ?? [];
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const idOf = (label: string) => blocks.find((b) => b.label === label)!.id;
    const shown = async () => (await programList.locator('[data-part="block"] > span[dir="auto"]').allTextContents()).map(idOf);
    const block = (id: string) => programList.getByRole('button', { name: new RegExp(`^${escape(blocks.find((b) => b.id === id)!.label)}`) });

    // Keyboard alone: the first block, Space, ↓, Space: now second.
    let order = await shown();
    expect(order).toEqual(blocks.map((b) => b.id));
    let expected = [order[1]!, order[0]!, ...order.slice(2)];
    let saved = answerSaved(page, expected.join(','));
    await block(order[0]!).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('[aria-live="assertive"]').textContent()).resolves.toMatch(/position 2 of \d+/);
    await page.keyboard.press('Space');
    await saved;
    expect(await shown()).toEqual(expected);

    // The "Move up" button of the last block.
    order = expected;
    const last = order.at(-1)!;
    expected = [...order.slice(0, -2), last, order.at(-2)!];
    saved = answerSaved(page, expected.join(','));
    await programList.getByRole('button', { name: `Move up: ${blocks.find((b) => b.id === last)!.label}` }).click();
    await saved;
    expect(await shown()).toEqual(expected);

    // Drag with the mouse: the first block to the bottom.
    order = expected;
    expected = [...order.slice(1), order[0]!];
    saved = answerSaved(page, expected.join(','));
    // The whole program on screen first: the pointer stays inside the window.
    await programList.evaluate((list) => list.scrollIntoView({ block: 'center' }));
    const from = (await block(order[0]!).boundingBox())!;
    const to = (await block(order.at(-1)!).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, to.y + to.height * 0.9, { steps: 12 });
    await page.mouse.up();
    await saved;
    expect(await shown()).toEqual(expected);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

