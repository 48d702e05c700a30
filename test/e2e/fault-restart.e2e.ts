/**
 * Fault matrix: the server restarts mid-exam. Each test runs its own server
 * (test/helpers/e2e-own-server.ts: `node server/main.ts` on a fresh PGlite, the built dist/), as
 * the harness's server is shared by every test file and must not stop.
 *
 * A pupil starts and answers (saved on the server); the server is stopped, by an operator
 * (SIGTERM: it closes its database) or by a crash (SIGKILL: nothing is closed, its lock on the
 * data directory is left behind); while it is down the pupil keeps answering and each answer
 * says "Saved on this terminal", with no dialog in the way; the server starts again on the same
 * data directory and port; every answer reaches it (the answers on the server equal the answers
 * given, those given before the stop included), the next answer is saved at once, and Finish
 * gives a receipt of exactly the answers given.
 */
import { describe, expect, test } from 'vitest';
import { loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import { seeSaveState } from '../helpers/e2e-answers.ts';
import { finishExam, loginAndStartExam, seeQuestionCounter, seeReceipt, seeTimeLeft, useKiosk } from '../helpers/e2e-browser.ts';
import { useOwnServer } from '../helpers/e2e-own-server.ts';
import {
  answerQuestion,
  expectReceiptOfAnswersGiven,
  followSitting,
  seeServerHoldAnswersGiven,
} from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();
const server = useOwnServer();

/** On a fresh server every pupil is free: the first journey pupil of English level 1. */
function pupilOnOwnServer() {
  const pupil = loadDemoAccounts().find((a) => a.scenario === 'journey' && a.subject === 1 && a.level === 1 && a.login_refused_with === null);
  if (!pupil) throw new Error('server/seed/demo-accounts.json has no journey pupil of English level 1');
  return pupil;
}

/** The background sync tries again at most 8 s apart; a server that just came back is found within a few tries. */
const CATCH_UP_MS = 45_000;

describe('the server restarts mid-exam', () => {
  test.each([
    { how: 'stopped by the operator (SIGTERM)', signal: 'SIGTERM' as const },
    { how: 'killed (SIGKILL)', signal: 'SIGKILL' as const },
  ])('$how: answers given while it is down are kept on this terminal and all reach it once it is back', async ({ signal }) => {
    const page = kiosk.page;
    const pupil = pupilOnOwnServer();
    const sitting = followSitting(page, pupil);

    await page.goto(`${server.url}/login-code`);
    await loginAndStartExam(page, pupil.login_code);
    const exam = await sitting;
    await answerQuestion(page, exam, 1, 'Saved on the server');
    await answerQuestion(page, exam, 2, 'Saved on the server');
    await seeServerHoldAnswersGiven(exam);

    // The server goes down.
    const exit = await server.stop(signal);
    expect(await server.isUp()).toBe(false);

    // The pupil keeps answering: kept on this terminal, nothing in the way.
    await answerQuestion(page, exam, 3, 'Saved on this terminal');
    await answerQuestion(page, exam, 4, 'Saved on this terminal');
    expect(await page.getByRole('alertdialog').count(), 'dialogs in the way').toBe(0);
    expect(await seeTimeLeft(page)).toBeGreaterThan(0);

    // Back on the same data directory and port: everything reaches it.
    await server.start();
    await seeSaveState(page, 'Saved on the server', CATCH_UP_MS);
    await seeServerHoldAnswersGiven(exam, CATCH_UP_MS);
    expect((await seeQuestionCounter(page)).current).toBe(4);

    // And the exam goes on as before.
    await answerQuestion(page, exam, 5, 'Saved on the server');
    await seeServerHoldAnswersGiven(exam);
    await finishExam(page);
    await expectReceiptOfAnswersGiven(exam, await seeReceipt(page));

    // Stopped by the operator, it closed its database and exited cleanly (exit code 0).
    expect(signal === 'SIGKILL' ? exit.signal : exit.code, 'how the server ended').toBe(signal === 'SIGKILL' ? 'SIGKILL' : 0);
  });
});
