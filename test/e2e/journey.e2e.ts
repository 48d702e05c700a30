/**
 * The whole stack, one pupil, end to end, in real Chromium against the
 * production build served by the real server (scripts/e2e.ts starts it on a fresh PGlite).
 *
 * The journey: login with a demo code typed carelessly -> "Is this you?" -> tutorial ->
 * "Ready to start" -> the exam at /start with its counter and 40:00 timer -> one choice and
 * one text answer, saved by the server -> reload: same question, same time left, answers
 * kept -> finish -> "Test complete" -> log out -> nothing of the pupil left in the browser.
 * And the router judged by the machine: a typed /start before login, Back during the exam.
 * The whole journey runs under the server's Content-Security-Policy with not one
 * violation (none seen by the page, none reported to POST /api/csp-report), and an inline
 * script really is refused there.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  answerChoice,
  answerText,
  baseUrl,
  confirmIdentity,
  currentPath,
  expectPath,
  finishExam,
  goToNextQuestion,
  goToQuestion,
  isOnScreen,
  keepWorking,
  leftovers,
  loginAndStartExam,
  loginWithCode,
  logOut,
  openKiosk,
  passTutorial,
  screens,
  screenText,
  seeChoices,
  seeChosenAnswer,
  seeIdentity,
  seeQuestionCounter,
  seeQuestionKind,
  seeScreen,
  seeTextAnswer,
  seeTimeLeft,
  startExam,
  storageSnapshot,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeJourneyPupil, typedCarelessly } from '../helpers/e2e-demo-accounts.ts';

/** What a shared terminal may keep after a pupil logs out: its own identity and language. */
const TERMINAL_KEYS = ['device_token', 'language'];
const FORTY_MINUTES = 40 * 60;

const kiosk = useKiosk();

type CspViolation = { directive: string; blocked: string; source: string };

/** Every `securitypolicyviolation` the page's documents see from now on (reloads included). */
async function watchCspViolations(page: Page): Promise<CspViolation[]> {
  const seen: CspViolation[] = [];
  await page.exposeBinding('__gradusCspViolation', (_source, violation: CspViolation) => void seen.push(violation));
  // Injected by the browser's devtools protocol, not by the page: the CSP does not apply to it.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __gradusCspViolation: (v: unknown) => void }).__gradusCspViolation;
      report({ directive: event.effectiveDirective, blocked: event.blockedURI, source: `${event.sourceFile}:${event.lineNumber}` });
    });
  });
  return seen;
}

/** How many violations the server was sent (GET /api/test/csp-reports; the e2e server runs with GRADUS_CLOCK_CONTROL=1). */
async function cspReportsCounted(): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/test/csp-reports`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { count: number }).count;
}

describe('one pupil, end to end', () => {
  test('logs in with a careless code, answers, survives a reload, finishes and leaves nothing behind', async () => {
    const page = kiosk.page;
    const pupil = takeJourneyPupil();
    const violations = await watchCspViolations(page);
    const reportedBefore = await cspReportsCounted();

    await openKiosk(page, '/');
    await seeScreen(page, screens.loginCode);
    await expectPath(page, '/login-code');

    // Login-code screen, the code in lower case and without hyphens.
    await loginWithCode(page, typedCarelessly(pupil.login_code));

    // Login-confirm: the candidate, subject and level come from /api/exam-details.
    const identity = await seeIdentity(page);
    await expectPath(page, '/login-confirm');
    expect(identity).toContain(pupil.name);
    expect(identity).toContain(pupil.subjectName);
    expect(identity).toContain(pupil.levelName);
    await confirmIdentity(page);

    await passTutorial(page);
    await expectPath(page, '/exam-start');

    // Exam-start warns that the exam cannot be started over (seed section 4).
    await seeScreen(page, screens.examStart);
    expect(await screenText(page)).toContain('cannot start the test over');
    await startExam(page);
    await expectPath(page, '/start');

    // The exam: question 1 of N (at least 3 questions), a 40:00 timer counting down.
    const first = await seeQuestionCounter(page);
    expect(first.current).toBe(1);
    expect(first.total).toBeGreaterThanOrEqual(3);
    const startedWith = await seeTimeLeft(page);
    const startedAt = Date.now();
    expect(startedWith, 'the timer must never show more than the 40:00 limit').toBeLessThanOrEqual(FORTY_MINUTES);
    expect(startedWith).toBeGreaterThan(FORTY_MINUTES - 60);
    await expect.poll(() => seeTimeLeft(page), { timeout: 5_000 }).toBeLessThan(startedWith);

    // One choice question and one text question, wherever they are in the exam.
    let choice: { question: number; label: string } | undefined;
    let text: { question: number; value: string } | undefined;
    for (let question = 1; !(choice && text); question++) {
      expect(question, 'the exam needs a single-choice and a text question').toBeLessThanOrEqual(first.total);
      if (question > 1) await goToNextQuestion(page);
      const kind = await seeQuestionKind(page);
      if (kind === 'choice' && !choice) {
        expect(await seeChosenAnswer(page), 'a fresh exam has no answer chosen').toBeUndefined();
        const labels = await seeChoices(page);
        expect(labels.length).toBeGreaterThanOrEqual(2);
        // Not the first choice, so a screen that shows the first one as chosen cannot pass.
        const label = labels[1] as string;
        await answerChoice(page, label);
        expect(await seeChosenAnswer(page)).toBe(label);
        choice = { question, label };
      } else if (kind === 'text' && !text) {
        expect(await seeTextAnswer(page), 'a fresh exam has no text answer').toBe('');
        const value = 'a cat sat on the mat';
        await answerText(page, value);
        text = { question, value };
      }
    }

    // Mid-exam the browser holds the session (so a reload can resume it).
    expect(leftovers(await storageSnapshot(page), TERMINAL_KEYS).length).toBeGreaterThan(0);

    // Reload: the same question, the same time left (±2 s), the answers kept. Let a few
    // seconds of the test pass first, so that a timer restarting at 40:00 would show.
    await expect.poll(() => seeTimeLeft(page), { timeout: 15_000 }).toBeLessThanOrEqual(startedWith - 5);
    const before = await seeQuestionCounter(page);
    const leftBefore = await seeTimeLeft(page);
    const reloadedAt = Date.now();
    await page.reload();
    await expectPath(page, '/start');
    await expect.poll(() => seeQuestionCounter(page), { timeout: 10_000 }).toEqual(before);
    const leftAfter = await seeTimeLeft(page);
    const elapsed = (Date.now() - reloadedAt) / 1000;
    expect(Math.abs(leftAfter - (leftBefore - elapsed))).toBeLessThanOrEqual(2);
    // Still counting from the deadline the server fixed when Start was pressed.
    expect(Math.abs(leftAfter - (startedWith - (Date.now() - startedAt) / 1000))).toBeLessThanOrEqual(2);

    await goToQuestion(page, text.question);
    await expect.poll(() => seeTextAnswer(page)).toBe(text.value);
    await goToQuestion(page, choice.question);
    await expect.poll(() => seeChosenAnswer(page)).toBe(choice.label);

    // "Keep working" closes the dialog and leaves the pupil on the same question.
    await keepWorking(page);
    expect(await seeQuestionCounter(page)).toEqual({ current: choice.question, total: first.total });

    // Finish: the end screen says the answers were sent.
    await finishExam(page);
    await expectPath(page, '/exam-end');
    expect(await screenText(page)).toContain('Your answer data has been sent.');

    // Log out: back on the login page, and nothing of the pupil is left.
    await logOut(page);
    await expectPath(page, '/login-code');
    expect(await page.getByRole('textbox', { name: 'Login code' }).inputValue()).toBe('');
    const snapshot = await storageSnapshot(page);
    expect(leftovers(snapshot, TERMINAL_KEYS)).toEqual([]);
    expect(Object.keys(snapshot.localStorage).every((k) => TERMINAL_KEYS.includes(k))).toBe(true);

    // The next pupil typing /start gets /403 (seed rule 7), not the last pupil's exam.
    await openKiosk(page, '/start');
    await expectPath(page, '/403');
    await page.getByText('You are not logged in.').waitFor();
    // The exam header of /403 shows placeholders, nothing of the last pupil's exam.
    expect(await page.getByRole('timer').textContent()).toBe('--:--');

    // All of it under the Content-Security-Policy, without one violation.
    const csp = (await page.request.get('/')).headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(violations).toEqual([]);
    expect(await cspReportsCounted()).toBe(reportedBefore);
  });
});

describe('the Content-Security-Policy in Chromium', () => {
  test('refuses an inline script, and the browser reports it to the server', async () => {
    const page = kiosk.page;
    const violations = await watchCspViolations(page);
    const reportedBefore = await cspReportsCounted();
    await openKiosk(page, '/login-code');
    await seeScreen(page, screens.loginCode);
    // What an injection would try: a script element written into the page.
    const ran = await page.evaluate(async () => {
      // An inline script runs as it is inserted, or is refused with a violation event: wait for that.
      const refused = new Promise((resolve) => document.addEventListener('securitypolicyviolation', resolve, { once: true }));
      const script = document.createElement('script');
      script.textContent = 'window.__inlineScriptRan = true;';
      document.head.append(script);
      const ranAtOnce = (window as unknown as { __inlineScriptRan?: boolean }).__inlineScriptRan === true;
      if (!ranAtOnce) await refused;
      return ranAtOnce;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.map((v) => v.directive)).toContain('script-src-elem');
    await expect.poll(cspReportsCounted, { timeout: 10_000 }).toBeGreaterThan(reportedBefore);
  });
});

describe('the router follows the machine', () => {
  test('a typed /start before login is /403 (rule 7), and its one way on is the login page', async () => {
    const page = kiosk.page;
    await openKiosk(page, '/start');
    await expectPath(page, '/403');
    await page.getByText('You are not logged in.').waitFor();
    expect(await page.getByRole('timer').textContent()).toBe('--:--');
    expect(await page.getByText(/Question \d+ of \d+/).count()).toBe(0);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await page.getByRole('button', { name: 'Go to the login page' }).first().click();
    await seeScreen(page, screens.loginCode);
    await expectPath(page, '/login-code');
  });

  test('Back during the exam keeps the exam', async () => {
    const page = kiosk.page;
    const pupil = takeJourneyPupil();
    await openKiosk(page, '/login-code');
    await loginAndStartExam(page, pupil.login_code);
    await goToNextQuestion(page);
    const shown = await seeQuestionCounter(page);
    // A browser tab always has an entry behind the app (at least its blank start page), so
    // Back really goes somewhere: to an earlier screen of the app, or out of it.
    expect(await page.evaluate(() => history.length)).toBeGreaterThan(1);

    await page.goBack();

    await expectPath(page, '/start');
    expect(await seeQuestionCounter(page)).toEqual(shown);
    expect(await isOnScreen(page, screens.examStart)).toBe(false);
    // The machine refused the Back, and the router did not bounce: once the exam has taken a
    // move made after the Back (events are taken in order), the address is still /start.
    await goToNextQuestion(page);
    expect(currentPath(page)).toBe('/start');
    expect((await seeQuestionCounter(page)).current).toBe(shown.current + 1);
  });
});

describe('a pupil who is not who the screen says', () => {
  test('"No, log out" on the confirm screen goes back to the login page', async () => {
    const page = kiosk.page;
    const pupil = takeJourneyPupil();
    await openKiosk(page, '/login-code');
    await loginWithCode(page, pupil.login_code);
    await seeIdentity(page);
    await page.getByRole('button', { name: 'No, log out', exact: true }).click();
    await seeScreen(page, screens.loginCode);
    await expectPath(page, '/login-code');
    expect(leftovers(await storageSnapshot(page), TERMINAL_KEYS)).toEqual([]);
    // Logging in again works: the refusal left no stale session behind.
    await loginWithCode(page, pupil.login_code);
    expect(await seeIdentity(page)).toContain(pupil.name);
  });
});
