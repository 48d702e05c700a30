/**
 * Right answers given the way a pupil gives them, for the end-to-end tests that sit whole exams
 * (test/e2e/full-exam.e2e.ts, time-out.e2e.ts). The right answers come from the demo's exam
 * files (server/seed/demo/exams/, read by server/seed/demo-content.ts), which only the test reads:
 * the browser never receives them.
 *
 * - `answerCorrectly` uses each question type's own input: a choice tile, the device keyboard or
 *   the on-screen alphabet keyboard, the number keypad, the program blocks' "Move up" buttons.
 * - `watchSavedAnswers` notes what the server acknowledged; `digestOfAnswers` is the digest the
 *   server's receipt must carry for exactly the answers given (contract: answersDigestText).
 */
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { answersDigestText, type Question } from '../../contract/exam.ts';
import type { DemoQuestion } from '../../server/seed/demo-content.ts';

/** The answer values the server acknowledged (POST /exam/answers answered 2xx), by question id. */
export function watchSavedAnswers(page: Page): Map<number, string> {
  const saved = new Map<number, string>();
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() !== 'POST' || !new URL(response.url()).pathname.endsWith('/exam/answers') || !response.ok()) return;
    const body = request.postDataJSON() as { question_id: number; value: string };
    saved.set(body.question_id, body.value);
  });
  return saved;
}

/** The SHA-256 the server's receipt carries for these answers, given in question order. */
export function digestOfAnswers(given: readonly { question_id: number; value: string }[]): string {
  return createHash('sha256').update(answersDigestText(given), 'utf8').digest('hex');
}

const key = (page: Page, group: string, name: string) =>
  page.getByRole('group', { name: group }).getByRole('button', { name, exact: true });

const keypadKeyNames: Record<string, string> = { '-': 'Minus', '.': 'Decimal point', '/': 'Fraction bar' };

/**
 * Gives the right answer to the question on screen (`shown`, as the server sent it; `content`, the
 * same question in the seed with its correct answer) with the input a pupil would use. Returns
 * the value the server should then hold. Does not wait for the server.
 */
export async function answerCorrectly(page: Page, shown: Question, content: DemoQuestion): Promise<string> {
  expect(shown.prompt, 'the question on screen is the seed question given').toBe(content.prompt);
  const correct = content.correctAnswer;
  switch (content.type) {
    case 'single_choice': {
      // By position: math choices are named by their KaTeX rendering, not by their TeX.
      const index = shown.choices.findIndex((c) => c.id === correct);
      expect(index, 'the right choice is among those shown').toBeGreaterThanOrEqual(0);
      const radios = page.getByRole('radio');
      expect(await radios.count()).toBe(shown.choices.length);
      await radios.nth(index).check();
      return correct;
    }
    case 'text': {
      const box = page.getByRole('textbox', { name: 'Your answer' });
      if (content.input?.kind !== 'alphabet') {
        // The device keyboard: typed, then Enter hands it over.
        await box.pressSequentially(correct);
        await box.press('Enter');
        return correct;
      }
      // The on-screen alphabet keyboard (shown first, where the pupil can hide it): one click per
      // letter, in the case its keys show (capitals where the question is written in them).
      await box.waitFor();
      const show = page.getByRole('button', { name: 'Show alphabet keyboard', exact: true });
      if (await show.isVisible()) await show.click();
      const capitalsKey = page.getByRole('group', { name: 'Alphabet keyboard' }).getByRole('button', { name: 'Capital letters', exact: true });
      const capitals = (await capitalsKey.getAttribute('aria-pressed')) === 'true';
      if (content.input.upper_case) expect(capitals, 'a question written in capitals shows capital letters').toBe(true);
      const typed = capitals ? correct.toUpperCase() : correct.toLowerCase();
      for (const letter of typed) await key(page, 'Alphabet keyboard', letter === ' ' ? 'Space' : letter).click();
      await expect.poll(() => box.inputValue()).toBe(typed);
      return typed;
    }
    case 'number': {
      for (const char of correct) await key(page, 'Number keypad', keypadKeyNames[char] ?? char).click();
      return correct;
    }
    case 'ordering': {
      // "Move up" until each block of the right program is in its place, top to bottom.
      const target = correct.split(',');
      const blocks = shown.blocks ?? [];
      const order = blocks.map((b) => b.id);
      expect([...order].sort()).toEqual([...target].sort());
      const labelOf = (id: string) => blocks.find((b) => b.id === id)?.label ?? id;
      const program = page.getByRole('list', { name: 'Your program' });
      for (const [place, id] of target.entries()) {
        for (let at = order.indexOf(id); at > place; at--) {
          await program.getByRole('button', { name: `Move up: ${labelOf(id)}`, exact: true }).click();
          order.splice(at - 1, 0, ...order.splice(at, 1));
        }
      }
      expect(order).toEqual(target);
      return correct;
    }
  }
}

/** The saved indicator of the question on screen: "Saved on the server", "Saved on this terminal"... */
export async function seeSaveState(page: Page, words: string, timeout = 15_000): Promise<void> {
  const status = page.getByRole('status').filter({ hasText: /^\s*(Saved on|Saving|Not saved|Not answered)/ }).first();
  await expect.poll(async () => (await status.textContent())?.trim(), { timeout, message: 'the saved indicator' }).toBe(words);
}
