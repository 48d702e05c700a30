/**
 * Real Chromium for the end-to-end tests, and what a pupil does with it, in the words a
 * teacher would use: `loginWithCode`, `confirmIdentity`, `answerChoice`, `seeTimeLeft`...
 *
 * - `useKiosk()` connects to the run's one Chromium (test/helpers/e2e-browser.global.ts;
 *   Debian's, CHROMIUM_PATH, set by scripts/e2e.ts), or launches one for the file when the run
 *   has none, and gives every test a fresh browser context (no storage, no cookies),
 *   a 1024×768 lab-terminal window, English as the browser language. A failed test leaves a
 *   screenshot in E2E_ARTIFACTS_DIR/screenshots/ (.e2e/server-<n>/, its server's folder) and
 *   prints the page's errors.
 * - Helpers find things by role and label, the way a pupil finds them, never by CSS class.
 *   Each waits for the screen it acts on, so a wrong screen fails with a clear time-out.
 * - `answerChoice` and `answerText` return once the server acknowledged the answer
 *   (POST /api/exam/answers answered 2xx): an answer is real only when it is saved.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { chromiumFlags } from '../../server/documents/chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium (test/helpers/e2e-browser.global.ts), for `chromium.connect`. */
    gradusChromiumEndpoint: string | undefined;
  }
}

/** The one set of Chromium flags (server/documents/chromium.ts); playwright adds --headless and a fresh profile. */
export { chromiumFlags };

/** The screens' headings, as the pupil reads them. */
export const screens = {
  loginCode: 'Log in with your login code',
  loginConfirm: 'Is this you?',
  tutorial: 'How the test works',
  examStart: 'Ready to start',
  examEnd: 'Test complete',
} as const;

/** How long a screen may take to appear on a slow CI machine. */
const SCREEN_TIMEOUT_MS = 20_000;

/**
 * How long a terminal whose network is back may take to reach the server: long enough for the
 * background sync's backoff (at most 8 s between tries) and the retry dialog's (at most 16 s) to
 * come round a few times.
 */
export const RECONNECT_TIMEOUT_MS = 45_000;

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the end-to-end tests with \`npm run test:e2e\` (scripts/e2e.ts)`);
  return value;
}

export function baseUrl(): string {
  return requiredEnv('E2E_BASE_URL');
}

/** What POST /api/test/clock answers: the server's new time and the due jobs it ran. */
export type ServerClockMove = { status: number; server_time: string; jobs_ran: number; jobs_failed: number };

/**
 * Moves this file's server's clock (POST /api/test/clock, server/routes/test-clock.ts): forward by
 * `advance_ms`, or to the instant `set`; the server then runs its due jobs at once. A file that
 * moves it sets it back to the real time when done (`{ set: new Date().toISOString() }`), as the
 * files after it on the same server expect the real time.
 */
export async function moveServerClock(move: { advance_ms: number } | { set: string }): Promise<ServerClockMove> {
  const response = await fetch(`${baseUrl()}/api/test/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(move),
  });
  const body = (await response.json()) as Omit<ServerClockMove, 'status'>;
  return { status: response.status, ...body };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumFlags,
  });
}

export type Kiosk = {
  /** The page of the current test, in its own fresh context. */
  readonly page: Page;
  readonly context: BrowserContext;
};

/** The run's Chromium when there is one (test/helpers/e2e-browser.global.ts), else a new one. */
function runsChromium(): Promise<Browser> {
  const endpoint = inject('gradusChromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}

/**
 * The run's Chromium (or one per test file), a fresh context and page per test. Call once at
 * the top of a test file (or a describe block).
 */
export function useKiosk(): Kiosk {
  const url = baseUrl();
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let problems: string[] = [];

  beforeAll(async () => {
    browser = await runsChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    if (!browser) throw new Error('Chromium did not start');
    problems = [];
    context = await browser.newContext({ baseURL: url, viewport: { width: 1024, height: 768 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(SCREEN_TIMEOUT_MS);
    page.setDefaultNavigationTimeout(30_000);
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 500) problems.push(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
    });
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page && !page.isClosed()) {
      const dir = path.join(process.env.E2E_ARTIFACTS_DIR ?? '.e2e', 'screenshots');
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${ctx.task.name.replace(/[^\w-]+/g, '-').slice(0, 100)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.error([`failed at ${page.url()}; screenshot: ${file}`, ...problems].join('\n  '));
    }
    await context?.close();
    context = undefined;
    page = undefined;
  });

  return {
    get page() {
      if (!page) throw new Error('no page: use kiosk.page inside a test');
      return page;
    },
    get context() {
      if (!context) throw new Error('no context: use kiosk.context inside a test');
      return context;
    },
  };
}

/** Another machine in the lab: its own browser context in the same Chromium, so its own device token and storage. */
export async function openTerminal(like: BrowserContext): Promise<{ context: BrowserContext; page: Page }> {
  const browser = like.browser();
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1024, height: 768 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(SCREEN_TIMEOUT_MS);
  return { context, page };
}

// --- Where am I --------------------------------------------------------------------

/** The path the address bar shows, e.g. "/start". */
export function currentPath(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Waits until the address bar shows this path (the router follows the machine a moment later). */
export async function expectPath(page: Page, urlPath: string): Promise<void> {
  await expect.poll(() => currentPath(page), { timeout: 10_000, message: 'the address bar' }).toBe(urlPath);
}

/** Opens the kiosk at a path, as if typed into the address bar. */
export async function openKiosk(page: Page, urlPath = '/'): Promise<void> {
  await page.goto(urlPath);
}

function heading(page: Page, name: string): Locator {
  return page.getByRole('heading', { name }).first();
}

function button(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('button', { name, exact: true });
}

/** Waits until the screen with this heading is shown. */
export async function seeScreen(page: Page, name: string): Promise<void> {
  await heading(page, name).waitFor();
}

/** Whether the screen with this heading is shown right now. */
export function isOnScreen(page: Page, name: string): Promise<boolean> {
  return heading(page, name).isVisible();
}

/** Everything the pupil can read on the page. */
export function screenText(page: Page): Promise<string> {
  return page.locator('body').innerText();
}

// --- Logging in ----------------------------------------------------------------------

/** On the login-code screen: types the code and presses "Log in". */
export async function loginWithCode(page: Page, code: string): Promise<void> {
  await seeScreen(page, screens.loginCode);
  await page.getByRole('textbox', { name: 'Login code' }).fill(code);
  await button(page, 'Log in').click();
}

/** On "Is this you?": returns what the screen says about the pupil (name, subject, level). */
export async function seeIdentity(page: Page): Promise<string> {
  await seeScreen(page, screens.loginConfirm);
  return screenText(page);
}

/** On "Is this you?": presses "Yes, continue". */
export async function confirmIdentity(page: Page): Promise<void> {
  await seeScreen(page, screens.loginConfirm);
  await button(page, 'Yes, continue').click();
}

/** On "How the test works": presses "Continue". */
export async function passTutorial(page: Page): Promise<void> {
  await seeScreen(page, screens.tutorial);
  await button(page, 'Continue').click();
}

/** On "Ready to start": presses "Start the test" and waits for question 1 at /start. */
export async function startExam(page: Page): Promise<void> {
  await seeScreen(page, screens.examStart);
  await button(page, 'Start the test').click();
  await page.waitForURL((url) => url.pathname === '/start');
  await questionCounter(page).waitFor();
}

/** From the login page to the first question, as the given pupil. */
export async function loginAndStartExam(page: Page, code: string): Promise<void> {
  await loginWithCode(page, code);
  await confirmIdentity(page);
  await passTutorial(page);
  await startExam(page);
}

/**
 * After login on a terminal the sitting moved to: the exam goes on, straight at the question or
 * through identity, tutorial and Start when the page asks for them.
 */
export async function goOnWithTheExam(page: Page): Promise<void> {
  const question = questionCounter(page);
  const confirm = page.getByRole('heading', { name: screens.loginConfirm });
  await question.or(confirm).first().waitFor({ timeout: 30_000 });
  if (await confirm.isVisible()) {
    await confirmIdentity(page);
    await passTutorial(page);
    await startExam(page);
  }
  await question.waitFor();
}

// --- During the exam -------------------------------------------------------------------

function questionCounter(page: Page, current?: number, total?: number): Locator {
  const pattern = current === undefined ? /\bQuestion \d+ of \d+\b/ : new RegExp(`\\bQuestion ${current} of ${total}\\b`);
  return page.getByText(pattern).first();
}

/** The header's "Question X of N". */
export async function seeQuestionCounter(page: Page): Promise<{ current: number; total: number }> {
  const counter = questionCounter(page);
  await counter.waitFor();
  const text = (await counter.textContent()) ?? '';
  const match = /Question (\d+) of (\d+)/.exec(text);
  if (!match) throw new Error(`the question counter reads "${text}"`);
  return { current: Number(match[1]), total: Number(match[2]) };
}

/** Seconds left on the header's timer (role "timer", showing mm:ss; waits while it shows "--:--"). */
export async function seeTimeLeft(page: Page): Promise<number> {
  const timer = page.getByRole('timer').filter({ hasText: /\d+:\d{2}/ }).first();
  await timer.waitFor();
  const text = (await timer.textContent()) ?? '';
  const match = /(\d+):(\d{2})(?::(\d{2}))?/.exec(text);
  if (!match) throw new Error(`the timer reads "${text}", not mm:ss`);
  const [a, b, c] = [Number(match[1]), Number(match[2]), match[3] === undefined ? undefined : Number(match[3])];
  return c === undefined ? a * 60 + b : a * 3600 + b * 60 + c;
}

const answerBox = (page: Page) => page.getByRole('textbox', { name: 'Your answer' });

/** What kind of question is shown: choices (radio buttons) or a text answer. */
export async function seeQuestionKind(page: Page): Promise<'choice' | 'text'> {
  const radio = page.getByRole('radio').first();
  await radio.or(answerBox(page)).first().waitFor();
  return (await answerBox(page).isVisible()) ? 'text' : 'choice';
}

function nameInAriaSnapshot(snapshot: string): string {
  const match = /radio "((?:[^"\\]|\\.)*)"/.exec(snapshot);
  if (!match?.[1]) throw new Error(`a radio button without a label: ${snapshot}`);
  return JSON.parse(`"${match[1]}"`) as string;
}

/** The labels of the choices of the current question, in order. */
export async function seeChoices(page: Page): Promise<string[]> {
  const radios = page.getByRole('radio');
  await radios.first().waitFor();
  const labels: string[] = [];
  for (const radio of await radios.all()) labels.push(nameInAriaSnapshot(await radio.ariaSnapshot()));
  return labels;
}

/** The label of the chosen answer, or undefined when none is chosen. */
export async function seeChosenAnswer(page: Page): Promise<string | undefined> {
  await page.getByRole('radio').first().waitFor();
  const chosen = page.getByRole('radio', { checked: true });
  if ((await chosen.count()) === 0) return undefined;
  return nameInAriaSnapshot(await chosen.first().ariaSnapshot());
}

/** What the text-answer box holds. */
export async function seeTextAnswer(page: Page): Promise<string> {
  return answerBox(page).inputValue();
}

/** Resolves when the server acknowledged an answer; set up before the answer is given. */
function answerSaved(page: Page): Promise<void> {
  const saved = page
    .waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/exam/answers'),
      { timeout: SCREEN_TIMEOUT_MS },
    )
    .then((response) => {
      if (!response.ok()) throw new Error(`saving the answer failed: HTTP ${response.status()}`);
    });
  saved.catch(() => undefined); // awaited by the caller; this only keeps an early time-out from going unhandled
  return saved;
}

/** Picks the choice with this label and waits until the server saved it. */
export async function answerChoice(page: Page, label: string): Promise<void> {
  const saved = answerSaved(page);
  await page.getByRole('radio', { name: label, exact: true }).check();
  await saved;
}

/** Types the answer into "Your answer", leaves the box, and waits until the server saved it. */
export async function answerText(page: Page, text: string): Promise<void> {
  const saved = answerSaved(page);
  const box = answerBox(page);
  await box.fill(text);
  await box.blur();
  await saved;
}

async function moveTo(page: Page, buttonName: 'Next' | 'Previous', step: 1 | -1): Promise<void> {
  const { current, total } = await seeQuestionCounter(page);
  await button(page, buttonName).click();
  await questionCounter(page, current + step, total).waitFor();
}

/** Presses "Next" and waits for the next question. */
export function goToNextQuestion(page: Page): Promise<void> {
  return moveTo(page, 'Next', 1);
}

/** Presses "Previous" and waits for the previous question. */
export function goToPreviousQuestion(page: Page): Promise<void> {
  return moveTo(page, 'Previous', -1);
}

/** Presses "Previous" or "Next" until question `number` is shown. */
export async function goToQuestion(page: Page, number: number): Promise<void> {
  for (let { current } = await seeQuestionCounter(page); current !== number; ({ current } = await seeQuestionCounter(page))) {
    await (current < number ? goToNextQuestion(page) : goToPreviousQuestion(page));
  }
}

/** Presses "Finish the test" and returns the "Finish the test?" dialog. */
export async function openFinishDialog(page: Page): Promise<Locator> {
  await button(page, 'Finish the test').click();
  const dialog = page.getByRole('dialog', { name: 'Finish the test?' });
  await dialog.waitFor();
  return dialog;
}

/** Opens the finish dialog and answers "Keep working": back to the question. */
export async function keepWorking(page: Page): Promise<void> {
  const dialog = await openFinishDialog(page);
  await button(dialog, 'Keep working').click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Presses "Finish the test", confirms with "Finish", and waits for "Test complete". */
export async function finishExam(page: Page): Promise<void> {
  const dialog = await openFinishDialog(page);
  await button(dialog, 'Finish').click();
  await seeScreen(page, screens.examEnd);
}

/**
 * On "Test complete": the server's receipt as the end screen shows it, the number of answers
 * received and the first characters of the receipt's digest.
 */
export async function seeReceipt(page: Page): Promise<{ answers: number; receipt: string }> {
  await seeScreen(page, screens.examEnd);
  const value = (term: string) => page.locator('dl dt').filter({ hasText: new RegExp(`^\\s*${term}\\s*$`) }).locator('xpath=following-sibling::dd[1]');
  const answers = ((await value('Answers received').textContent()) ?? '').replace(/\D/g, '');
  const receipt = ((await value('Receipt').textContent()) ?? '').trim();
  if (answers === '' || receipt === '') throw new Error('the end screen shows no receipt');
  return { answers: Number(answers), receipt };
}

/** On the end screen: presses "Log out" and waits for the login page. */
export async function logOut(page: Page): Promise<void> {
  await button(page, 'Log out').click();
  await seeScreen(page, screens.loginCode);
}

// --- What the browser keeps ---------------------------------------------------------------

export type StorageSnapshot = {
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
  /** Record counts per database and object store. */
  indexedDB: Record<string, Record<string, number>>;
  /** Names of the cookies the browser holds for any site. */
  cookies: string[];
};

/** Everything this browser context stores: Web Storage, IndexedDB record counts, cookies. */
export async function storageSnapshot(page: Page): Promise<StorageSnapshot> {
  const inPage = await page.evaluate(async () => {
    const dump = (storage: Storage): Record<string, string> => {
      const out: Record<string, string> = {};
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (key !== null) out[key] = storage.getItem(key) ?? '';
      }
      return out;
    };
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const indexed: Record<string, Record<string, number>> = {};
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await request(indexedDB.open(info.name));
      const counts: Record<string, number> = {};
      for (const store of Array.from(db.objectStoreNames)) {
        counts[store] = await request(db.transaction(store, 'readonly').objectStore(store).count());
      }
      db.close();
      indexed[info.name] = counts;
    }
    return { localStorage: dump(window.localStorage), sessionStorage: dump(window.sessionStorage), indexedDB: indexed };
  });
  const cookies = (await page.context().cookies()).map((c) => c.name);
  return { ...inPage, cookies };
}

/** Records of the answer outbox (IndexedDB) of this browser: the answers kept on this terminal, not yet on the server. */
export async function outboxCount(page: Page): Promise<number> {
  const snapshot = await storageSnapshot(page);
  return Object.values(snapshot.indexedDB['gradus-outbox'] ?? {}).reduce((sum, n) => sum + n, 0);
}

/** The stored keys and records that are not in `allowedLocalKeys`: what the next pupil could find. */
export function leftovers(snapshot: StorageSnapshot, allowedLocalKeys: readonly string[]): string[] {
  return [
    ...Object.keys(snapshot.localStorage).filter((k) => !allowedLocalKeys.includes(k)).map((k) => `localStorage.${k}`),
    ...Object.keys(snapshot.sessionStorage).map((k) => `sessionStorage.${k}`),
    ...Object.entries(snapshot.indexedDB).flatMap(([db, stores]) =>
      Object.entries(stores).filter(([, n]) => n > 0).map(([store, n]) => `indexedDB ${db}/${store}: ${n} record(s)`),
    ),
    ...snapshot.cookies.map((c) => `cookie ${c}`),
  ];
}
