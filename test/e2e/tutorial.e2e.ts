/**
 * The tutorial with practice questions, in real Chromium against the
 * production build and the real server: a pupil passes login-confirm and reaches the tutorial,
 * which names the exam's kinds of questions; tries one practice question of each kind the exam
 * uses with the exam's own inputs (the choice tiles, the on-screen alphabet keyboard, the number
 * keypad, the program blocks' "Move up" buttons), checks each answer (one wrong first, then
 * right), sees the summary, continues and starts the exam. Nothing of the practice went to the
 * server: the only call the tutorial made is GET /api/tutorial-setting, no answer was sent
 * before Start, and the server holds no answer for the sitting afterwards (read through the API
 * with the pupil's own credentials, as the fault tests do).
 *
 * English level 1 (choices, text on the alphabet keyboard), Calculation level 1 (the keypad, a
 * prompt set with KaTeX, choices) and Visual Programming level 1 (choices, blocks): every
 * question type the product has.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { PracticeQuestion, TutorialSetting } from '../../contract/tutorial.ts';
import { confirmIdentity, loginWithCode, openKiosk, screens, seeScreen, startExam, useKiosk } from '../helpers/e2e-browser.ts';
import { takeExamPupil } from '../helpers/e2e-demo-accounts.ts';
import { answersOnServer, followSitting, paperOf } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

const isApiCall = (request: Request) => new URL(request.url()).pathname.startsWith('/api/');

/** Every API call the page makes from now on, as "METHOD /path". */
function watchApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (isApiCall(request)) calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  return calls;
}

function practiceArea(page: Page) {
  return page.getByRole('region', { name: 'Try each kind of question' });
}

function button(page: Page, name: string | RegExp) {
  return practiceArea(page).getByRole('button', { name, exact: typeof name === 'string' });
}

/** The practice question on screen has this prompt (its heading). */
async function seePracticeQuestion(page: Page, practice: PracticeQuestion, position: number, total: number): Promise<void> {
  await practiceArea(page).getByText(`Practice question ${position} of ${total}`).waitFor();
  if (!practice.question.math) {
    await practiceArea(page).getByRole('heading', { level: 3, name: practice.question.prompt }).waitFor();
  } else {
    // Set with KaTeX, from our own host: the MathML is there for screen readers.
    await expect.poll(() => practiceArea(page).getByRole('heading', { level: 3 }).locator('.katex').count()).toBeGreaterThan(0);
  }
}

/** Gives `value` with the practice question's own input, the way a pupil would. */
async function answerPractice(page: Page, practice: PracticeQuestion, value: string): Promise<void> {
  const { question } = practice;
  const area = practiceArea(page);
  switch (question.type) {
    case 'single_choice': {
      // By position: math choices are named by their KaTeX rendering, not by their TeX.
      const radios = area.getByRole('radio');
      expect(await radios.count()).toBe(question.choices.length);
      await radios.nth(question.choices.findIndex((choice) => choice.id === value)).check();
      return;
    }
    case 'text': {
      expect(question.input?.kind, 'the practice text uses the on-screen keyboard, as the exam does').toBe('alphabet');
      const keyboard = area.getByRole('group', { name: 'Alphabet keyboard' });
      const box = area.getByRole('textbox', { name: 'Your answer' });
      // Clear what is there with Backspace, then type on the screen's keys.
      while ((await box.inputValue()) !== '') await keyboard.getByRole('button', { name: 'Backspace' }).click();
      for (const letter of value) await keyboard.getByRole('button', { name: letter, exact: true }).click();
      await expect.poll(() => box.inputValue()).toBe(value);
      return;
    }
    case 'number': {
      const keypad = area.getByRole('group', { name: 'Number keypad' });
      await keypad.getByRole('button', { name: 'Clear', exact: true }).click();
      const names: Record<string, string> = { '-': 'Minus', '.': 'Decimal point', '/': 'Fraction bar' };
      for (const key of value) await keypad.getByRole('button', { name: names[key] ?? key, exact: true }).click();
      return;
    }
    case 'ordering': {
      const labelOf = new Map((question.blocks ?? []).map((block) => [block.id, block.label]));
      const program = area.getByRole('list', { name: 'Your program' });
      const target = value.split(',').map((id) => labelOf.get(id)!);
      for (const [position, label] of target.entries()) {
        const shown = await program.getByRole('listitem').allInnerTexts();
        const at = shown.findIndex((text) => text.includes(label));
        for (let i = at; i > position; i--) await area.getByRole('button', { name: `Move up: ${label}`, exact: true }).click();
      }
      return;
    }
  }
}

/** A wrong answer of the practice question's type. */
function wrongAnswer(practice: PracticeQuestion): string {
  switch (practice.question.type) {
    case 'single_choice':
      return practice.question.choices.find((choice) => choice.id !== practice.answer)!.id;
    case 'text':
      return 'moon';
    case 'number':
      return '1';
    case 'ordering':
      return practice.answer.split(',').reverse().join(',');
  }
}

async function checkAnswer(page: Page, verdict: 'Right! Well done.' | 'Not quite. The right answer is:'): Promise<void> {
  await button(page, 'Check my answer').click();
  await practiceArea(page).getByText(verdict).waitFor();
}

const pupils = [
  { subject: 1, level: 1, name: 'English level 1', types: ['single_choice', 'text'] },
  { subject: 2, level: 1, name: 'Calculation level 1', types: ['number', 'single_choice'] },
  { subject: 6, level: 1, name: 'Visual Programming level 1', types: ['single_choice', 'ordering'] },
] as const;

describe('the tutorial with practice questions', () => {
  test.each(pupils)('$name: one practice question of each type, checked on the terminal, and nothing sent', async ({ subject, level, types }) => {
    const page = kiosk.page;
    const pupil = takeExamPupil({ subject, level });
    const settingLoaded = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/api/tutorial-setting');

    await openKiosk(page, '/login-code');
    await loginWithCode(page, pupil.login_code);
    const allCalls = watchApiCalls(page);
    await seeScreen(page, screens.loginConfirm);
    await page.getByRole('button', { name: 'Yes, continue', exact: true }).waitFor();
    // From "Yes, continue" on (the exam's details are loaded by then), every call the page makes.
    const firstCall = allCalls.length;
    const calls = () => allCalls.slice(firstCall);
    await confirmIdentity(page);
    await seeScreen(page, screens.tutorial);

    const response = await settingLoaded;
    expect(response.status()).toBe(200);
    const setting = (await response.json()) as TutorialSetting;
    const paper = paperOf(pupil);
    expect(setting.question_types).toEqual(types);
    expect(setting.question_count).toBe(paper.questions.length);
    await expect.poll(() => practiceArea(page).innerText()).toContain(`This test has ${types.length} kinds of questions.`);
    // The four points stay, with the setting's numbers.
    const body = await page.locator('main').innerText();
    expect(body).toContain(`The test has ${paper.questions.length} questions.`);
    expect(body).toContain('You have 40 minutes.');

    for (const [i, practice] of setting.practice.entries()) {
      const total = setting.practice.length;
      await seePracticeQuestion(page, practice, i + 1, total);
      expect(paper.questions.map((q) => q.prompt)).not.toContain(practice.question.prompt);
      await answerPractice(page, practice, wrongAnswer(practice));
      await checkAnswer(page, 'Not quite. The right answer is:');
      await answerPractice(page, practice, practice.answer);
      await checkAnswer(page, 'Right! Well done.');
      await button(page, i === total - 1 ? 'See how the practice went' : 'Next practice question').click();
    }

    await practiceArea(page).getByRole('heading', { level: 3, name: 'You have tried every kind of question' }).waitFor();
    const results = await practiceArea(page).getByRole('listitem').allInnerTexts();
    expect(results).toHaveLength(types.length);
    for (const result of results) expect(result).toMatch(/: right$/);

    // Continue, Start: the practice left nothing on the server.
    const sitting = followSitting(page, pupil);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await seeScreen(page, screens.examStart);
    expect(calls(), 'the tutorial made one call: its settings').toEqual(['GET /api/tutorial-setting']);
    await startExam(page);
    const started = await sitting;
    expect(calls().filter((call) => call === 'POST /api/exam/answers'), 'no answer sent').toEqual([]);
    expect(await answersOnServer(started), 'the answers the server holds').toEqual([]);
  });
});
