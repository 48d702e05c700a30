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
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { headerNames } from '../../contract/http.ts';
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
  seeTimeLeft,
  startExam,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeSparePupil, type DemoPupil } from '../helpers/e2e-demo-accounts.ts';
import { answerQuestion, followSitting, seeServerHoldAnswersGiven, watchExamCalls, type Sitting } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** The demo proctor of the demo school, whose schedule DEMO-2026 the journey pupils sit. */
const proctor = (() => {
  const account = loadStaffAccounts().find((a) => a.org_code === 'GRADUS-DEMO' && a.login_refused_with === null);
  if (!account) throw new Error('server/seed/staff-accounts.json has no proctor of GRADUS-DEMO');
  return account;
})();

/** The seed's message for INCORRECT_DEVICE, as the login page shows it. */
const ALREADY_STARTED = 'An exam was already started for this account on another terminal.';

/** Another machine in the lab: its own browser context, so its own device token and storage. */
async function openTerminal(like: BrowserContext): Promise<{ context: BrowserContext; page: Page }> {
  const browser = like.browser();
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1024, height: 768 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
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

/** Waits until the pupil's row shows this question on screen (the terminal reports it with its heartbeat). */
async function seePupilOnQuestion(page: Page, pupil: DemoPupil, counter: { current: number; total: number }): Promise<void> {
  await expect
    .poll(async () => rowOf(page, pupil).innerText(), { timeout: 30_000, message: `${pupil.name}'s question on the roster` })
    .toContain(`Question ${counter.current} of ${counter.total}`);
}

/** Waits until the pupil's row says this state (the roster updates by itself every 5 s). */
async function seePupilState(page: Page, pupil: DemoPupil, state: string): Promise<void> {
  await expect
    .poll(async () => (await rowOf(page, pupil).locator('[data-state]').innerText()).split('\n')[0], {
      timeout: 20_000,
      message: `${pupil.name}'s state on the roster`,
    })
    .toBe(state);
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

/** The audit log's rows as the page shows them: [who, what, pupil, why]. */
async function seeAuditRows(page: Page): Promise<string[][]> {
  await page.getByRole('button', { name: 'Audit log', exact: true }).click();
  const table = page.getByRole('table', { name: /newest first$/ });
  await table.waitFor();
  const rows = await table.getByRole('row').all();
  const cells: string[][] = [];
  for (const row of rows.slice(1)) cells.push((await row.getByRole('cell').allInnerTexts()).slice(1).map((t) => t.trim()));
  return cells;
}

// --- The pupil's terminals -------------------------------------------------------------------

/**
 * The pupil's sitting as a terminal that did not press Start sees it (the move keeps the sitting
 * started): the same sitting and answers given, with this terminal's credentials, read from its
 * first GET /exam/questions.
 */
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
      expect(rows).toContainEqual([proctor.name, 'Moved to another terminal', pupil.name, 'Terminal 1 froze']);
    } finally {
      for (const context of opened) await context.close();
    }
  });
});
