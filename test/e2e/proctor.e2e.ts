/**
 * A proctor moves a pupil to another terminal while the server keeps running, and nobody else
 * notices.
 *
 * Four browser contexts, each a machine of its own (its own storage, so its own device token):
 * the proctor's laptop, terminal 1 and terminal 2 of the lab, and the terminal of another pupil of
 * the same schedule. The proctor signs in at /proctor and sees the pupil who started on terminal 1
 * "In the exam"; the pupil goes to terminal 2 and is refused (INCORRECT_DEVICE); the proctor
 * presses "Move to another terminal" with a reason; the pupil logs in on terminal 2 and goes on
 * at the question they were on, with the same time left (±3 s) and the same answers, and the answers given
 * equal the answers on the server; the other pupil keeps answering without a single refused call;
 * and the audit row (who, what, whom, why) is on the page.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  goOnWithTheExam,
  loginAndStartExam,
  loginWithCode,
  openKiosk,
  openTerminal,
  seeQuestionCounter,
  seeTimeLeft,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeSparePupil, type DemoPupil } from '../helpers/e2e-demo-accounts.ts';
import { demoProctor, openRoster, rowOf, seeAuditRows, seePupilState, signInAsProctor } from '../helpers/e2e-proctor.ts';
import {
  answerQuestion,
  followResumedSitting,
  followSitting,
  seeServerHoldAnswersGiven,
  watchExamCalls,
} from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** The seed's message for INCORRECT_DEVICE, as the login page shows it. */
const ALREADY_STARTED = 'An exam was already started for this account on another terminal.';

// --- The proctor's page, in the words a teacher would use -----------------------------------

/** Waits until the pupil's row shows this question on screen (the terminal reports it with its heartbeat). */
async function seePupilOnQuestion(page: Page, pupil: DemoPupil, counter: { current: number; total: number }): Promise<void> {
  await expect
    .poll(async () => rowOf(page, pupil).innerText(), { timeout: 30_000, message: `${pupil.name}'s question on the roster` })
    .toContain(`Question ${counter.current} of ${counter.total}`);
}

async function moveToAnotherTerminal(page: Page, pupil: DemoPupil, reason: string): Promise<void> {
  await rowOf(page, pupil).getByRole('button', { name: 'Actions', exact: true }).click();
  await rowOf(page, pupil).getByRole('button', { name: 'Move to another terminal', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Move ${pupil.name} to another terminal?` });
  await dialog.waitFor();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  const moved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/move-terminal`));
  await dialog.getByRole('button', { name: 'Move to another terminal', exact: true }).click();
  expect((await moved).status(), 'POST /api/admin/sittings/:id/move-terminal').toBe(200);
  await dialog.waitFor({ state: 'hidden' });
  await expect
    .poll(() => page.getByRole('status').allInnerTexts(), { timeout: 10_000 })
    .toContain(`${pupil.name} can now log in on another terminal. Every saved answer and the time left are kept.`);
}

describe('a proctor moves a pupil to another terminal while the server keeps running', () => {
  test('the pupil goes on with the same answers and time on terminal 2; another pupil notices nothing; the audit row is on the page', async () => {
    const pupil = takeSparePupil();
    const other = takeSparePupil();
    const terminal1 = kiosk.page;
    const opened: BrowserContext[] = [];
    try {
      const laptop = await openTerminal(kiosk.context);
      const terminal2 = await openTerminal(kiosk.context);
      const otherTerminal = await openTerminal(kiosk.context);
      opened.push(laptop.context, terminal2.context, otherTerminal.context);

      // Two pupils of the same schedule start on their terminals.
      const sitting = followSitting(terminal1, pupil);
      await openKiosk(terminal1, '/login-code');
      await loginAndStartExam(terminal1, pupil.login_code);
      const exam = await sitting;
      const otherCalls = watchExamCalls(otherTerminal.page);
      const otherSitting = followSitting(otherTerminal.page, other);
      await openKiosk(otherTerminal.page, '/login-code');
      await loginAndStartExam(otherTerminal.page, other.login_code);
      const otherExam = await otherSitting;
      await answerQuestion(terminal1, exam, 1, 'Saved on the server');
      await answerQuestion(terminal1, exam, 2, 'Saved on the server');
      await answerQuestion(otherTerminal.page, otherExam, 1, 'Saved on the server');

      // The proctor sees the pupil in the exam.
      await signInAsProctor(laptop.page);
      await openRoster(laptop.page, 'DEMO-2026');
      await seePupilState(laptop.page, pupil, 'In the exam');
      await seePupilState(laptop.page, other, 'In the exam');

      // Terminal 1 breaks down; on terminal 2 the pupil is refused: the sitting is bound to terminal 1.
      const before = { timeLeft: await seeTimeLeft(terminal1), at: Date.now(), counter: await seeQuestionCounter(terminal1) };
      expect(before.counter.current, 'terminal 1 is past the first question').toBeGreaterThan(1);
      await seePupilOnQuestion(laptop.page, pupil, before.counter);
      await openKiosk(terminal2.page, '/login-code');
      const refusedLogin = terminal2.page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/login');
      await loginWithCode(terminal2.page, pupil.login_code);
      const refused = await refusedLogin;
      expect(refused.status()).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('INCORRECT_DEVICE');
      // The refusal's message shows (waited for as the screen's state, not polled against a time-out).
      await terminal2.page.getByRole('alert').filter({ hasText: ALREADY_STARTED }).waitFor();

      // The proctor moves the pupil to another terminal, with a reason.
      await moveToAnotherTerminal(laptop.page, pupil, 'Terminal 1 froze');
      await seePupilState(laptop.page, pupil, 'Moving to another terminal');

      // The other pupil answers on, undisturbed, while the pupil moves.
      await answerQuestion(otherTerminal.page, otherExam, 2, 'Saved on the server');

      // Terminal 2: the same sitting goes on, with the same time left and the same answers.
      const resumed = followResumedSitting(terminal2.page, exam);
      await loginWithCode(terminal2.page, pupil.login_code);
      await goOnWithTheExam(terminal2.page);
      const onTerminal2 = await resumed;
      // Terminal 2 opens at the question the pupil was on, not at the first one.
      expect(await seeQuestionCounter(terminal2.page)).toEqual(before.counter);
      const timeLeft = await seeTimeLeft(terminal2.page);
      // Each timer shows whole seconds, rounded up, and reading one takes a moment on a loaded machine: ±3 s.
      const expected = before.timeLeft - (Date.now() - before.at) / 1000;
      expect(Math.abs(timeLeft - expected), `time left on terminal 2 (${timeLeft} s) vs. terminal 1's, moved on (${expected.toFixed(1)} s)`).toBeLessThanOrEqual(3);
      await seeServerHoldAnswersGiven(onTerminal2);
      await answerQuestion(terminal2.page, onTerminal2, 3, 'Saved on the server');
      await seeServerHoldAnswersGiven(onTerminal2);
      await seePupilState(laptop.page, pupil, 'In the exam');

      // The other pupil: every call answered, and the server holds exactly what they gave.
      await answerQuestion(otherTerminal.page, otherExam, 3, 'Saved on the server');
      expect(otherCalls.refusals, "the other pupil's exam calls the server refused").toEqual([]);
      await seeServerHoldAnswersGiven(otherExam);
      await seePupilState(laptop.page, other, 'In the exam');

      // The audit row: who, what, whom, why.
      const rows = await seeAuditRows(laptop.page);
      expect(rows).toContainEqual([demoProctor.name, 'Moved to another terminal', pupil.name, 'Terminal 1 froze']);
    } finally {
      for (const context of opened) await context.close();
    }
  });
});
