/**
 * One pupil's sitting seen from both ends, for the fault-matrix end-to-end tests
 * (test/e2e/fault-*.e2e.ts): what the pupil gives on screen, and what the server holds, read
 * through the API with the pupil's own credentials (the token and device token this terminal
 * sent when it pressed Start). Every fault case ends the same way: the answers given equal the
 * answers on the server.
 *
 * - `followSitting(page, pupil)`: set up before Start; resolves once the first question is
 *   loaded, with the sitting's id, the pupil's credentials, the server's deadline and the
 *   questions with their seed content (server/seed/demo/exams/, read by the test only).
 * - `answerQuestion(page, sitting, n, where)`: goes to question n, gives the right answer with
 *   the question's own input (test/helpers/e2e-answers.ts) and waits until the saved indicator
 *   says `where` ("Saved on the server", "Saved on this terminal"); notes the answer given.
 * - `seeServerHoldAnswersGiven(sitting)`: waits until GET /exam/questions, asked with the pupil's
 *   credentials, holds exactly the answers given (while the exam runs).
 * - `expectReceiptOfAnswersGiven(sitting, receipt)`: the end screen's receipt, and the server's
 *   own (POST /exam/finish again: idempotent), count and digest exactly the answers given.
 * - `followResumedSitting(page, sitting)`: the same sitting on the terminal a proctor moved the
 *   pupil to, with that terminal's credentials.
 * - `watchExamCalls(page)`: how often Start and Finish went out, and every exam call the server
 *   refused.
 */
import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import type { DemoAccount } from '../../server/seed/demo-accounts.ts';
import { demoExams, demoShortExams, type DemoExam, type DemoQuestion } from '../../server/seed/demo-content.ts';
import {
  type ExamQuestions,
  type FinishExamResponse,
  type Question,
  type StartExamResponse,
} from '../../contract/exam.ts';
import { headerNames } from '../../contract/http.ts';
import { answerCorrectly, digestOfAnswers, seeSaveState } from './e2e-answers.ts';
import { goToQuestion } from './e2e-browser.ts';

/**
 * Start can come a while after the sitting is followed (login, confirm, tutorial on a slow
 * machine): a wait for Start's calls set up before those screens takes this long, not a screen's.
 */
export const START_TIMEOUT_MS = 120_000;
/** Long enough for the background sync's backoff (at most 8 s between tries) to come round a few times. */
const SERVER_CATCH_UP_MS = 45_000;

export type Sitting = {
  /** Where the terminal's server is (scheme, host and port). */
  origin: string;
  scheduleHistoryId: number;
  /** The headers the terminal sends: the pupil's bearer token and the terminal's device token. */
  credentials: Record<string, string>;
  /** The server's deadline, fixed at Start (ms since the epoch). */
  deadlineAt: number;
  /** The questions as the server sent them, in order. */
  questions: Question[];
  /** The seed's paper of the pupil's sitting (with the correct answers). */
  paper: DemoExam;
  /** The answer last given to each question, by question id. */
  given: Map<number, string>;
};

/** The seed's paper the pupil sits: their short sitting's, or their level's regular one. */
export function paperOf(pupil: Pick<DemoAccount, 'subject' | 'level' | 'exam_code'>): DemoExam {
  const paper = pupil.exam_code
    ? demoShortExams.find((exam) => exam.code === pupil.exam_code)
    : demoExams.find((exam) => exam.subjectId === pupil.subject && exam.level === pupil.level);
  if (!paper) throw new Error(`no demo paper for subject ${pupil.subject} level ${pupil.level}${pupil.exam_code ? ` (${pupil.exam_code})` : ''}`);
  return paper;
}

const isCall = (method: string, suffix: string) => (request: Request) =>
  request.method() === method && new URL(request.url()).pathname.endsWith(suffix);

/**
 * Follows the sitting this page starts next: set up before pressing Start; resolves once the
 * server answered Start and the questions are loaded.
 */
export function followSitting(page: Page, pupil: Pick<DemoAccount, 'subject' | 'level' | 'exam_code'>): Promise<Sitting> {
  const startCall = page.waitForRequest(isCall('POST', '/api/exam/start'), { timeout: START_TIMEOUT_MS });
  const questionsLoaded = page.waitForResponse((r) => isCall('GET', '/api/exam/questions')(r.request()) && r.ok(), {
    timeout: START_TIMEOUT_MS,
  });
  const sitting = (async (): Promise<Sitting> => {
    const request = await startCall;
    const sent = await request.allHeaders();
    const token = sent[headerNames.authorization.toLowerCase()];
    const deviceToken = sent[headerNames.deviceToken.toLowerCase()];
    if (!token || !deviceToken) throw new Error('Start went out without the pupil token or the device token');
    const response = await request.response();
    if (!response?.ok()) throw new Error(`Start was refused: HTTP ${response?.status() ?? 'no response'}`);
    const started = (await response.json()) as StartExamResponse;
    const { questions } = (await (await questionsLoaded).json()) as ExamQuestions;
    return {
      origin: new URL(request.url()).origin,
      scheduleHistoryId: (request.postDataJSON() as { schedule_history_id: number }).schedule_history_id,
      credentials: { [headerNames.authorization]: token, [headerNames.deviceToken]: deviceToken },
      deadlineAt: Date.parse(started.deadline_at),
      questions,
      paper: paperOf(pupil),
      given: new Map(),
    };
  })();
  sitting.catch(() => undefined); // awaited by the test; this only keeps an early failure from going unhandled
  return sitting;
}

/**
 * The same sitting as a terminal it moved to sees it (a move keeps the sitting started): the
 * same sitting and answers given, with this terminal's credentials, read from its first
 * GET /exam/questions. Set up before the pupil logs in there.
 */
export function followResumedSitting(page: Page, from: Sitting): Promise<Sitting> {
  const questions = page.waitForRequest(isCall('GET', '/api/exam/questions'), { timeout: 60_000 });
  const sitting = (async (): Promise<Sitting> => {
    const headers = await (await questions).allHeaders();
    const token = headers[headerNames.authorization.toLowerCase()];
    const deviceToken = headers[headerNames.deviceToken.toLowerCase()];
    if (!token || !deviceToken) throw new Error('the questions were asked for without the pupil token or the device token');
    return { ...from, credentials: { [headerNames.authorization]: token, [headerNames.deviceToken]: deviceToken } };
  })();
  sitting.catch(() => undefined); // awaited by the test; this only keeps an early failure from going unhandled
  return sitting;
}

function contentOf(sitting: Sitting, shown: Question): DemoQuestion {
  const content = sitting.paper.questions.find((q) => q.prompt === shown.prompt);
  if (!content) throw new Error(`question ${shown.number} ("${shown.prompt}") is not in the seed's paper ${sitting.paper.code}`);
  return content;
}

/**
 * Goes to question `number` (1-based), gives its right answer with the question's own input,
 * and waits until the saved indicator says `where`. Returns the value given.
 */
export async function answerQuestion(
  page: Page,
  sitting: Sitting,
  number: number,
  where: 'Saved on the server' | 'Saved on this terminal',
): Promise<string> {
  const shown = sitting.questions[number - 1];
  if (!shown) throw new Error(`the exam has no question ${number}`);
  await goToQuestion(page, number);
  const value = await answerCorrectly(page, shown, contentOf(sitting, shown));
  sitting.given.set(shown.id, value);
  await seeSaveState(page, where, SERVER_CATCH_UP_MS);
  return value;
}

/** The answers given, in question order, as the server's receipt lists them. */
export function answersGiven(sitting: Sitting): { question_id: number; value: string }[] {
  return sitting.questions.flatMap((q) => {
    const value = sitting.given.get(q.id);
    return value === undefined || value === '' ? [] : [{ question_id: q.id, value }];
  });
}

/** What the server holds for this sitting (GET /exam/questions with the pupil's credentials), in question order. */
export async function answersOnServer(sitting: Sitting): Promise<{ question_id: number; value: string }[]> {
  const response = await fetch(`${sitting.origin}/api/exam/questions?schedule_history_id=${sitting.scheduleHistoryId}`, {
    headers: sitting.credentials,
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`GET /exam/questions answered ${response.status}: ${await response.text()}`);
  const { answers } = (await response.json()) as ExamQuestions;
  const order = new Map(sitting.questions.map((q, i) => [q.id, i]));
  return answers
    .filter((a) => a.value !== '')
    .map((a) => ({ question_id: a.question_id, value: a.value }))
    .sort((a, b) => (order.get(a.question_id) ?? 0) - (order.get(b.question_id) ?? 0));
}

/** Waits until the server holds exactly the answers given (no more, no fewer, the same values). */
export async function seeServerHoldAnswersGiven(sitting: Sitting, timeout = SERVER_CATCH_UP_MS): Promise<void> {
  const given = answersGiven(sitting);
  expect(given.length, 'the test gave some answers').toBeGreaterThan(0);
  await expect
    .poll(() => answersOnServer(sitting), { timeout, interval: 500, message: 'the answers on the server equal the answers given' })
    .toEqual(given);
}

/** The server's receipt of the finished sitting: POST /exam/finish again (idempotent), with the pupil's credentials. */
export async function receiptFromServer(sitting: Sitting): Promise<FinishExamResponse> {
  const response = await fetch(`${sitting.origin}/api/exam/finish`, {
    method: 'POST',
    headers: { ...sitting.credentials, 'Content-Type': 'application/json' },
    body: JSON.stringify({ schedule_history_id: sitting.scheduleHistoryId }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`POST /exam/finish answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as FinishExamResponse;
}

/**
 * The receipt on the end screen (`seeReceipt`) and the server's own both count the answers
 * given and carry the digest of exactly those answers.
 */
export async function expectReceiptOfAnswersGiven(sitting: Sitting, onScreen: { answers: number; receipt: string }): Promise<void> {
  const given = answersGiven(sitting);
  const digest = digestOfAnswers(given);
  expect(onScreen.answers, 'answers received, on the end screen').toBe(given.length);
  expect(onScreen.receipt.length).toBeGreaterThanOrEqual(8);
  expect(onScreen.receipt, 'the receipt on the end screen').toBe(digest.slice(0, onScreen.receipt.length));
  expect(await receiptFromServer(sitting), "the server's receipt").toMatchObject({ answer_count: given.length, digest });
}

export type ExamCalls = {
  /** POST /exam/start requests sent. */
  starts: Request[];
  /** POST /exam/finish requests sent. */
  finishes: Request[];
  /** Exam calls the server refused, as "METHOD path: HTTP status". */
  refusals: string[];
};

/** Watches the page's exam calls (/api/exam/...): Start and Finish sent, and every refusal. */
export function watchExamCalls(page: Page): ExamCalls {
  const calls: ExamCalls = { starts: [], finishes: [], refusals: [] };
  const isExamCall = (request: Request) => new URL(request.url()).pathname.startsWith('/api/exam/');
  page.on('request', (request) => {
    if (isCall('POST', '/api/exam/start')(request)) calls.starts.push(request);
    if (isCall('POST', '/api/exam/finish')(request)) calls.finishes.push(request);
  });
  page.on('response', (response) => {
    const request = response.request();
    if (isExamCall(request) && response.status() >= 400) {
      calls.refusals.push(`${request.method()} ${new URL(request.url()).pathname}: HTTP ${response.status()}`);
    }
  });
  return calls;
}
