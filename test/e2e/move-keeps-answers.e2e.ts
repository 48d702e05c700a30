/**
 * The teacher moves a pupil whose terminal lost the network, and nothing is lost, in real
 * Chromium against the real server.
 *
 * The pupil answers questions 1 and 2 online; the network drops on terminal 1 and questions 3 to
 * 5 are "Saved on this terminal" (3 answers in the outbox). The proctor sees the pupil offline;
 * the move dialog warns that answers given there since may still be on that terminal; the
 * proctor moves the pupil. The pupil logs in on terminal 2 and goes on at the last question the
 * server knows (question 2). Then terminal 1's network comes back: it sends what it holds (given
 * before the move, so the server takes them), says the pupil goes on at another terminal and that
 * its answers were sent, and only then offers Log out; its outbox is empty. Answers given (5) =
 * answers on the server (5).
 *
 * Terminal 1 reloaded after the move (its network back, its saves not through yet): the server
 * refuses the reloaded exam (the move revoked its token), and terminal 1 reads its outbox, says
 * the pupil goes on at another terminal with 2 answers not sent yet and no Log out, sends them
 * once they get through, then says they were sent; never "The test was cancelled".
 *
 * Finish pressed on terminal 1 after the move (offline, then back): it sends what it holds, the
 * server takes the answer given before the move and refuses the one given after it, and the end
 * says the pupil goes on at another terminal and that 1 answer could not be kept; never
 * "cancelled". The server holds exactly the answers given before the move.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  RECONNECT_TIMEOUT_MS,
  goOnWithTheExam,
  loginAndStartExam,
  loginWithCode,
  logOut,
  openFinishDialog,
  openKiosk,
  openTerminal,
  outboxCount,
  seeQuestionCounter,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeSparePupil, type DemoPupil } from '../helpers/e2e-demo-accounts.ts';
import { openRoster, rowOf, seePupilState, signInAsProctor } from '../helpers/e2e-proctor.ts';
import {
  answerQuestion,
  answersGiven,
  answersOnServer,
  followResumedSitting,
  followSitting,
  seeServerHoldAnswersGiven,
  type Sitting,
} from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** Resolves once the server answered a heartbeat that reported this question (0-based) on screen. */
function heartbeatOnQuestion(page: Page, questionIndex: number): Promise<unknown> {
  return page.waitForResponse(
    (r) =>
      r.request().method() === 'POST' &&
      new URL(r.url()).pathname.endsWith('/api/exam/heartbeat') &&
      (r.request().postDataJSON() as { question_index?: number }).question_index === questionIndex &&
      r.ok(),
    { timeout: 30_000 },
  );
}

// --- The proctor's page, in the words a teacher would use -----------------------------------

/** Opens the move dialog from the pupil's row (behind the row's Actions button where there is one). */
async function askToMove(page: Page, pupil: DemoPupil): Promise<Locator> {
  const row = rowOf(page, pupil);
  const actions = row.getByRole('button', { name: 'Actions', exact: true });
  if ((await actions.count()) > 0) await actions.click();
  await row.getByRole('button', { name: 'Move to another terminal', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Move ${pupil.name} to another terminal?` });
  await dialog.waitFor();
  return dialog;
}

async function confirmMove(page: Page, dialog: Locator, reason: string): Promise<void> {
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  const moved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/move-terminal'));
  await dialog.getByRole('button', { name: 'Move to another terminal', exact: true }).click();
  expect((await moved).status(), 'POST /api/admin/sittings/:id/move-terminal').toBe(200);
  await dialog.waitFor({ state: 'hidden' });
}

/** The proctor signs in on the laptop and moves the pupil to another terminal. */
async function moveToAnotherTerminal(page: Page, pupil: DemoPupil, reason: string): Promise<void> {
  await signInAsProctor(page);
  await openRoster(page, 'DEMO-2026');
  await confirmMove(page, await askToMove(page, pupil), reason);
}

// --- The pupil's terminals -------------------------------------------------------------------

/** The pupil logs in on another terminal and goes on with the exam there; the sitting with that terminal's credentials. */
async function goOnAtAnotherTerminal(page: Page, pupil: DemoPupil, sitting: Sitting): Promise<Sitting> {
  const resumed = followResumedSitting(page, sitting);
  await openKiosk(page, '/login-code');
  await loginWithCode(page, pupil.login_code);
  await goOnWithTheExam(page);
  return resumed;
}

/** The end screen of a terminal the pupil was moved away from. */
function movedAwayHeading(page: Page): Locator {
  return page.getByRole('heading', { level: 1, name: 'Your test goes on at another terminal' });
}

/** What the end screen of a terminal moved away from says in its status line, once it says this. */
async function seeMovedAwayStatus(page: Page, status: string, timeout = RECONNECT_TIMEOUT_MS): Promise<void> {
  await expect.poll(() => page.getByRole('status').allInnerTexts(), { timeout }).toContain(status);
}

/** Saves and heartbeats of this page do not get through (the answers stay on the terminal) until `release()`. */
async function holdAnswersAndHeartbeat(page: Page): Promise<{ release(): Promise<void> }> {
  const held = (url: URL) => ['/api/exam/answers', '/api/exam/heartbeat'].some((path) => url.pathname.endsWith(path));
  await page.route(held, (route) => route.abort('internetdisconnected'));
  return { release: () => page.unroute(held) };
}

/** The proctor's laptop and terminal 2 open (closed by the caller); the pupil starts on terminal 1 (the kiosk's page). */
async function startOnTerminal1(pupil: DemoPupil, opened: BrowserContext[]) {
  const laptop = await openTerminal(kiosk.context);
  const terminal2 = await openTerminal(kiosk.context);
  opened.push(laptop.context, terminal2.context);
  const following = followSitting(kiosk.page, pupil);
  await openKiosk(kiosk.page, '/login-code');
  await loginAndStartExam(kiosk.page, pupil.login_code);
  return { laptop, terminal2, sitting: await following };
}

describe('the teacher moves a pupil whose terminal lost the network', () => {
  test('the answers kept on the old terminal reach the server once its network is back; it says the pupil goes on elsewhere', async () => {
    const pupil = takeSparePupil();
    const terminal1 = kiosk.page;
    const opened: BrowserContext[] = [];
    try {
      const { laptop, terminal2, sitting } = await startOnTerminal1(pupil, opened);
      expect(sitting.questions.length).toBeGreaterThanOrEqual(5);

      // Online: questions 1 and 2 reach the server, and a heartbeat tells it question 2 is on screen.
      await answerQuestion(terminal1, sitting, 1, 'Saved on the server');
      const onQuestion2 = heartbeatOnQuestion(terminal1, 1);
      await answerQuestion(terminal1, sitting, 2, 'Saved on the server');
      await onQuestion2;

      // The network drops on terminal 1: questions 3 to 5 are kept there.
      await kiosk.context.setOffline(true);
      await answerQuestion(terminal1, sitting, 3, 'Saved on this terminal');
      await answerQuestion(terminal1, sitting, 4, 'Saved on this terminal');
      await answerQuestion(terminal1, sitting, 5, 'Saved on this terminal');
      expect(await outboxCount(terminal1)).toBe(3);

      // The proctor sees the pupil offline; the move dialog warns that answers may still be on that terminal.
      await signInAsProctor(laptop.page);
      await openRoster(laptop.page, 'DEMO-2026');
      await seePupilState(laptop.page, pupil, 'Offline', 60_000);
      const dialog = await askToMove(laptop.page, pupil);
      await expect
        .poll(() => dialog.getByRole('note').allInnerTexts(), { timeout: 10_000, message: 'the move dialog' })
        .toContain(
          'This terminal has not been heard from for a while: answers given there since then may still be on it. Leave it switched on: they are sent once its network is back.',
        );
      await confirmMove(laptop.page, dialog, 'Terminal 1 lost the network');

      // On terminal 2 the pupil goes on at the last question the server knows: question 2.
      const resumed = followResumedSitting(terminal2.page, sitting);
      await openKiosk(terminal2.page, '/login-code');
      await loginWithCode(terminal2.page, pupil.login_code);
      await goOnWithTheExam(terminal2.page);
      expect((await seeQuestionCounter(terminal2.page)).current, 'terminal 2 opens at the question the server knows').toBe(2);
      const onTerminal2 = await resumed;
      expect(await answersOnServer(onTerminal2), 'before terminal 1 is back, the server holds questions 1 and 2').toHaveLength(2);

      // Terminal 1's network comes back: it sends what it holds, then says the pupil goes on elsewhere.
      await kiosk.context.setOffline(false);
      await terminal1
        .getByRole('heading', { level: 1, name: 'Your test goes on at another terminal' })
        .waitFor({ timeout: RECONNECT_TIMEOUT_MS });
      await expect
        .poll(() => terminal1.getByRole('status').allInnerTexts(), { timeout: RECONNECT_TIMEOUT_MS })
        .toContain('Your teacher moved your test to another terminal. The answers given on this terminal were sent.');
      await terminal1.getByRole('button', { name: 'Log out', exact: true }).waitFor();
      expect(await terminal1.getByRole('heading', { name: 'The test was cancelled' }).count()).toBe(0);
      expect(await outboxCount(terminal1)).toBe(0);

      // Answers given = answers on the server: 5 = 5.
      expect(answersGiven(sitting)).toHaveLength(5);
      await seeServerHoldAnswersGiven(onTerminal2, RECONNECT_TIMEOUT_MS);
    } finally {
      await kiosk.context.setOffline(false);
      await Promise.all(opened.map((context) => context.close()));
    }
  });
});

/**
 * The pupil starts on terminal 1 (the kiosk's page) and answers question 1 online, then terminal
 * 1 loses the network; the proctor's laptop and terminal 2 are open (closed by the caller).
 */
async function answerOnceThenLoseTheNetwork(pupil: DemoPupil, opened: BrowserContext[]) {
  const started = await startOnTerminal1(pupil, opened);
  await answerQuestion(kiosk.page, started.sitting, 1, 'Saved on the server');
  await kiosk.context.setOffline(true);
  return started;
}

describe('the terminal the pupil was moved away from', () => {
  test('reloaded after the move, it sends the answers it kept before it says the pupil goes on elsewhere; never "cancelled"', async () => {
    const pupil = takeSparePupil();
    const terminal1 = kiosk.page;
    const opened: BrowserContext[] = [];
    try {
      const { laptop, terminal2, sitting } = await answerOnceThenLoseTheNetwork(pupil, opened);
      await answerQuestion(terminal1, sitting, 2, 'Saved on this terminal');
      await answerQuestion(terminal1, sitting, 3, 'Saved on this terminal');
      expect(await outboxCount(terminal1)).toBe(2);

      await moveToAnotherTerminal(laptop.page, pupil, 'Terminal 1 froze');

      // Terminal 1 is reloaded with its network back, its saves not getting through yet.
      const held = await holdAnswersAndHeartbeat(terminal1);
      await kiosk.context.setOffline(false);
      await terminal1.reload();
      await movedAwayHeading(terminal1).waitFor();
      await seeMovedAwayStatus(terminal1, 'Answers given on this terminal and not sent yet: 2');
      expect(await terminal1.getByRole('button', { name: 'Log out', exact: true }).count(), 'no Log out while answers wait').toBe(0);
      expect(await terminal1.getByRole('heading', { name: 'The test was cancelled' }).count()).toBe(0);
      expect(await outboxCount(terminal1)).toBe(2);

      // They get through: sent, then Log out.
      await held.release();
      await seeMovedAwayStatus(terminal1, 'Your teacher moved your test to another terminal. The answers given on this terminal were sent.');
      await terminal1.getByRole('button', { name: 'Log out', exact: true }).waitFor();
      expect(await outboxCount(terminal1)).toBe(0);

      // Answers given = answers on the server: 3 = 3.
      const onTerminal2 = await goOnAtAnotherTerminal(terminal2.page, pupil, sitting);
      await seeServerHoldAnswersGiven(onTerminal2, RECONNECT_TIMEOUT_MS);
      await logOut(terminal1);
    } finally {
      await kiosk.context.setOffline(false);
      await Promise.all(opened.map((context) => context.close()));
    }
  });

  test('Finish pressed after the move: what it kept goes first, then it says the pupil goes on elsewhere and that the answer given after the move could not be kept; never "cancelled"', async () => {
    const pupil = takeSparePupil();
    const terminal1 = kiosk.page;
    const opened: BrowserContext[] = [];
    try {
      const { laptop, terminal2, sitting } = await answerOnceThenLoseTheNetwork(pupil, opened);
      await answerQuestion(terminal1, sitting, 2, 'Saved on this terminal');

      await moveToAnotherTerminal(laptop.page, pupil, 'Terminal 1 lost the network');

      // Terminal 1 has not heard of the move: question 3 is answered there after it.
      await answerQuestion(terminal1, sitting, 3, 'Saved on this terminal');
      const beforeTheMove = answersGiven(sitting).filter((answer) => answer.question_id !== sitting.questions[2]!.id);
      const dialog = await openFinishDialog(terminal1);
      await dialog.getByRole('button', { name: 'Finish', exact: true }).click();
      await kiosk.context.setOffline(false);

      await movedAwayHeading(terminal1).waitFor({ timeout: RECONNECT_TIMEOUT_MS });
      await seeMovedAwayStatus(terminal1, 'Your teacher moved your test to another terminal.');
      await terminal1.getByText('1 answer given on this terminal could not be kept. Please tell your teacher.').waitFor();
      await terminal1.getByRole('button', { name: 'Log out', exact: true }).waitFor();
      expect(await terminal1.getByRole('heading', { name: 'The test was cancelled' }).count()).toBe(0);
      expect(await terminal1.getByText(/were sent/).count(), 'never said to be sent').toBe(0);
      expect(await outboxCount(terminal1)).toBe(0);

      // The server holds the answers given before the move (2), not the one given after it.
      const onTerminal2 = await goOnAtAnotherTerminal(terminal2.page, pupil, sitting);
      expect(await answersOnServer(onTerminal2)).toEqual(beforeTheMove);
      expect(beforeTheMove).toHaveLength(2);
    } finally {
      await kiosk.context.setOffline(false);
      await Promise.all(opened.map((context) => context.close()));
    }
  });
});
