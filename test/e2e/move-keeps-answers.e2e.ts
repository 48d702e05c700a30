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
 */
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { headerNames } from '../../contract/http.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import {
  baseUrl,
  confirmIdentity,
  loginAndStartExam,
  loginWithCode,
  openKiosk,
  passTutorial,
  screens,
  seeQuestionCounter,
  seeScreen,
  startExam,
  storageSnapshot,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeSparePupil, type DemoPupil } from '../helpers/e2e-demo-accounts.ts';
import { answerQuestion, answersGiven, answersOnServer, followSitting, seeServerHoldAnswersGiven, type Sitting } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** Long enough for the background sync's backoff (at most 8 s between tries) to come round a few times. */
const RECONNECT_TIMEOUT_MS = 45_000;

const proctor = (() => {
  const account = loadStaffAccounts().find((a) => a.org_code === 'GRADUS-DEMO' && a.login_refused_with === null);
  if (!account) throw new Error('server/seed/staff-accounts.json has no proctor of GRADUS-DEMO');
  return account;
})();

/** Another machine in the lab: its own browser context, so its own device token and storage. */
async function openTerminal(like: BrowserContext): Promise<{ context: BrowserContext; page: Page }> {
  const browser = like.browser();
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1024, height: 768 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

/** Records of the answer outbox (IndexedDB) of this browser. */
async function outboxCount(page: Page): Promise<number> {
  const snapshot = await storageSnapshot(page);
  return Object.values(snapshot.indexedDB['gradus-outbox'] ?? {}).reduce((sum, n) => sum + n, 0);
}

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

async function signInAsProctor(page: Page): Promise<void> {
  await openKiosk(page, '/proctor');
  await seeScreen(page, 'Staff sign-in');
  await page.getByRole('textbox', { name: 'Organisation code' }).fill(proctor.org_code);
  await page.getByRole('textbox', { name: 'Login ID' }).fill(proctor.login_id);
  await page.getByLabel('Password', { exact: true }).fill(proctor.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await seeScreen(page, 'Choose a schedule');
}

async function openRoster(page: Page, scheduleCode: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(scheduleCode) }).click();
  await page.getByRole('table', { name: /^Pupils of / }).waitFor();
}

function rowOf(page: Page, pupil: DemoPupil): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(pupil.name) }) });
}

/** Waits until the pupil's row says this state (the roster updates by itself every 5 s). */
async function seePupilState(page: Page, pupil: DemoPupil, state: string, timeout = 20_000): Promise<void> {
  await expect
    .poll(async () => (await rowOf(page, pupil).locator('[data-state]').innerText()).split('\n')[0], {
      timeout,
      message: `${pupil.name}'s state on the roster`,
    })
    .toBe(state);
}

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

// --- The pupil's terminals -------------------------------------------------------------------

/** The sitting as terminal 2 sees it: the same sitting and answers given, with terminal 2's credentials. */
function followResumedSitting(page: Page, from: Sitting): Promise<Sitting> {
  const questions = page.waitForRequest(
    (r: Request) => r.method() === 'GET' && new URL(r.url()).pathname.endsWith('/api/exam/questions'),
    { timeout: 60_000 },
  );
  const sitting = (async (): Promise<Sitting> => {
    const headers = await (await questions).allHeaders();
    const token = headers[headerNames.authorization.toLowerCase()];
    const deviceToken = headers[headerNames.deviceToken.toLowerCase()];
    if (!token || !deviceToken) throw new Error('the questions were asked for without the pupil token or the device token');
    return { ...from, credentials: { [headerNames.authorization]: token, [headerNames.deviceToken]: deviceToken } };
  })();
  sitting.catch(() => undefined);
  return sitting;
}

/** After login on a new terminal: the exam goes on (straight to the question, or through Start if the page asks for it). */
async function goOnWithTheExam(page: Page): Promise<void> {
  const question = page.getByText(/\bQuestion \d+ of \d+\b/).first();
  const confirm = page.getByRole('heading', { name: screens.loginConfirm });
  await question.or(confirm).first().waitFor({ timeout: 30_000 });
  if (await confirm.isVisible()) {
    await confirmIdentity(page);
    await passTutorial(page);
    await startExam(page);
  }
  await question.waitFor();
}

describe('the teacher moves a pupil whose terminal lost the network', () => {
  test('the answers kept on the old terminal reach the server once its network is back; it says the pupil goes on elsewhere', async () => {
    const pupil = takeSparePupil();
    const terminal1 = kiosk.page;
    const opened: BrowserContext[] = [];
    try {
      const laptop = await openTerminal(kiosk.context);
      const terminal2 = await openTerminal(kiosk.context);
      opened.push(laptop.context, terminal2.context);

      const following = followSitting(terminal1, pupil);
      await openKiosk(terminal1, '/login-code');
      await loginAndStartExam(terminal1, pupil.login_code);
      const sitting = await following;
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
        .poll(() => dialog.getByRole('note').allInnerTexts())
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
