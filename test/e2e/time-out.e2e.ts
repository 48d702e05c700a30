/**
 * Time running out while offline, in real Chromium against the production build and
 * the real server. A time-out demo pupil (demo-accounts.json, scenario `time-out`) sits
 * EN-1-TIMEOUT, a copy of English level 1 with a one-minute limit that nobody else is booked into.
 *
 * Three answers are saved online; the network is cut (Playwright's offline mode) and three more
 * are kept on this terminal; the clock reaches 00:00 while offline: the exam finishes by itself
 * and the retry dialog says the answers are kept (never a dead end), and nothing can be answered
 * any more. An answer given after the deadline is refused by the server (TIME_END) while the
 * sitting is still open. Once the network is back, the exam completes: the receipt counts the six
 * answers given before the deadline, with the digest of exactly those six, and asking the server
 * for the receipt again (POST /exam/finish, idempotent) gives the same.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { demoShortExams } from '../../server/seed/demo-content.ts';
import { type ExamQuestions, type StartExamResponse } from '../../contract/exam.ts';
import { headerNames } from '../../contract/http.ts';
import { answerCorrectly, digestOfAnswers, seeSaveState } from '../helpers/e2e-answers.ts';
import {
  baseUrl,
  confirmIdentity,
  goToNextQuestion,
  loginWithCode,
  openKiosk,
  outboxCount,
  passTutorial,
  RECONNECT_TIMEOUT_MS,
  screens,
  screenText,
  seeQuestionCounter,
  seeReceipt,
  seeScreen,
  seeTimeLeft,
  startExam,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeTimeOutPupil } from '../helpers/e2e-demo-accounts.ts';

const kiosk = useKiosk();


describe('time running out while offline', () => {
  test('finishes by itself at 00:00, and once online the server holds every answer given before the deadline, none after', async () => {
    const page = kiosk.page;
    const pupil = takeTimeOutPupil();
    const paper = demoShortExams.find((exam) => exam.code === pupil.exam_code);
    if (!paper) throw new Error(`demo-accounts.json: ${pupil.login_code} names no short exam of demo-content.ts`);
    expect(paper.timeLimitSeconds).toBe(60);

    await openKiosk(page, '/login-code');
    await loginWithCode(page, pupil.login_code);
    await confirmIdentity(page);
    await seeScreen(page, screens.tutorial);
    expect(await screenText(page)).toContain('You have 1 minute.');
    await passTutorial(page);

    // What Start sends and gets: the pupil's credentials on this terminal, and the deadline.
    const startCall = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/exam/start'));
    const questionsLoaded = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname.endsWith('/exam/questions'));
    await startExam(page);
    const startRequest = await startCall;
    const sent = await startRequest.allHeaders();
    const credentials = {
      [headerNames.authorization]: sent[headerNames.authorization.toLowerCase()]!,
      [headerNames.deviceToken]: sent[headerNames.deviceToken.toLowerCase()]!,
    };
    const scheduleHistoryId = (startRequest.postDataJSON() as { schedule_history_id: number }).schedule_history_id;
    const started = (await (await startRequest.response())!.json()) as StartExamResponse;
    const deadline = Date.parse(started.deadline_at);
    expect(deadline - Date.parse(started.started_at)).toBe(60_000);
    const { questions } = (await (await questionsLoaded).json()) as ExamQuestions;
    // About one minute on the timer, not the regular paper's 40 (within 2 s: the client's offset
    // to the server's clock is an estimate, and the timer rounds up).
    const timeLeft = await seeTimeLeft(page);
    expect(timeLeft).toBeGreaterThan(30);
    expect(timeLeft).toBeLessThanOrEqual(62);

    const given: { question_id: number; value: string }[] = [];
    const answer = async (i: number, where: string) => {
      if (i > 0) await goToNextQuestion(page);
      expect(await seeQuestionCounter(page)).toEqual({ current: i + 1, total: questions.length });
      const value = await answerCorrectly(page, questions[i]!, paper.questions[i]!);
      await seeSaveState(page, where);
      given.push({ question_id: questions[i]!.id, value });
    };

    // Online: questions 1 to 3, saved on the server.
    for (const i of [0, 1, 2]) await answer(i, 'Saved on the server');

    // Offline: questions 4 to 6, kept on this terminal, all before the deadline.
    await kiosk.context.setOffline(true);
    for (const i of [3, 4, 5]) await answer(i, 'Saved on this terminal');
    expect(await outboxCount(page)).toBe(3);
    expect(await seeTimeLeft(page), 'the six answers were given before 00:00').toBeGreaterThan(0);
    await goToNextQuestion(page);
    const unanswered = questions[6]!;
    expect(unanswered.type).toBe('single_choice');

    // 00:00 while offline: the exam finishes by itself and the retry dialog says what goes on.
    const retry = page.getByRole('alertdialog');
    await retry.waitFor({ timeout: Math.max(0, deadline - Date.now()) + 30_000 });
    await expect.poll(() => seeTimeLeft(page), { timeout: 5_000 }).toBe(0);
    expect(await retry.textContent()).toMatch(/Connecting again…|Check your internet connection/);
    expect(await retry.textContent()).toContain('Your answers are kept on this terminal.');
    expect(await outboxCount(page), 'nothing kept on the terminal is dropped').toBe(3);
    // Nothing can be answered after the deadline on screen...
    const choices = page.getByRole('radio');
    expect(await choices.count()).toBe(unanswered.choices.length);
    for (const choice of await choices.all()) expect(await choice.isDisabled()).toBe(true);
    // ...and the server refuses an answer given after it, while the sitting is still open.
    const late = await fetch(`${baseUrl()}/api/exam/answers`, {
      method: 'POST',
      headers: { ...credentials, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        schedule_history_id: scheduleHistoryId,
        question_id: unanswered.id,
        value: unanswered.choices[0]!.id,
        idempotency_key: randomUUID(),
        answered_at: new Date(Math.max(Date.now(), deadline + 1_000)).toISOString(),
      }),
    });
    expect(late.status).toBe(403);
    expect(((await late.json()) as { code: string }).code).toBe('TIME_END');

    // The network is back: the answers kept on this terminal go out late, then Finish completes.
    await kiosk.context.setOffline(false);
    await page.getByRole('heading', { name: screens.examEnd }).waitFor({ timeout: RECONNECT_TIMEOUT_MS });
    expect(await retry.count()).toBe(0);
    const receipt = await seeReceipt(page);
    expect(receipt.answers).toBe(6);
    const digest = digestOfAnswers(given);
    expect(receipt.receipt).toBe(digest.slice(0, receipt.receipt.length));
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);

    // The server's own word: the receipt again, whole.
    const again = await fetch(`${baseUrl()}/api/exam/finish`, {
      method: 'POST',
      headers: { ...credentials, 'Content-Type': 'application/json' },
      body: JSON.stringify({ schedule_history_id: scheduleHistoryId }),
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ answer_count: 6, digest });
  });
});
