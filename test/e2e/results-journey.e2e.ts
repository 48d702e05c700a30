/**
 * The results journey, in real Chromium against the production build and the real server
 * (scripts/e2e.ts, which starts it with GRADUS_CLOCK_CONTROL=1): a my-page pupil of the results
 * demo (server/seed/results-accounts.json, scenario "journey") logs in with login ID and password
 * on their school's login page, acknowledges the basic information, pays the exam fee with the
 * clearly labelled demo provider, takes the exam (every answer right), logs out; the test moves
 * the server's clock forward eight days (POST /api/test/clock runs the due jobs: scoring,
 * statistics, release); the pupil logs in again, views the short result, buys the result sheet
 * and certificate, opens the score report with its charts, saves it as PDF and downloads the
 * certificate (both read back with `pdftotext`).
 *
 * A second pupil checks what must not cost money: a double click on Pay opens one checkout; a
 * refused card shows the seed's "card refused" message and a cancelled one "payment canceled",
 * and neither charges anything; the one checkout is then authorised once.
 *
 * Every step is logged (`[results-journey] ...`), and the score report is pictured into
 * E2E_ARTIFACTS_DIR/results-journey/ for a person to look at.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import * as v from 'valibot';
import { afterAll, describe, expect, test } from 'vitest';
import { demoExams } from '../../server/seed/demo-content.ts';
import type { ResultsAccount } from '../../server/seed/results-demo.ts';
import { type ExamQuestions } from '../../contract/exam.ts';
import {
  ExamPaymentSettingSchema,
  PaymentSessionSchema,
  PaymentStatusResponseSchema,
  ResultPaymentSettingSchema,
  type PaymentSession,
} from '../../contract/payments.ts';
import { ScoreReportSchema, ShortResultSchema } from '../../contract/results.ts';
import { answerCorrectly, seeSaveState, watchSavedAnswers } from '../helpers/e2e-answers.ts';
import {
  baseUrl,
  moveServerClock,
  confirmIdentity,
  currentPath,
  finishExam,
  goToNextQuestion,
  passTutorial,
  screenText,
  seeIdentity,
  seeQuestionCounter,
  seeReceipt,
  seeScreen,
  startExam,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeResultsJourneyPupil } from '../helpers/e2e-demo-accounts.ts';
import { START_TIMEOUT_MS } from '../helpers/e2e-sitting.ts';
import { pdfText } from '../helpers/pdf-tools.ts';

const kiosk = useKiosk();

const DAY_MS = 86_400_000;
/** A journey (20 questions, two payments, two PDFs) takes longer than the default 180 s on a slow machine. */
const JOURNEY_TIMEOUT_MS = 420_000;
const artifacts = path.join(process.env.E2E_ARTIFACTS_DIR ?? path.resolve('.e2e'), 'results-journey');

/** The steps of the journey, in the log, so a failure says how far the pupil got. */
function step(what: string): void {
  console.log(`[results-journey] ${what}`);
}

/** The seed's exam the results journey pupils are booked into (English level 1). */
function englishLevel1() {
  const paper = demoExams.find((exam) => exam.subjectId === 1 && exam.level === 1);
  if (!paper) throw new Error('no demo exam of English level 1');
  return paper;
}

const apiPath = (response: Response) => new URL(response.url()).pathname.replace(/^\/api/, '');
const isApi = (method: string, pathname: string) => (response: Response) =>
  response.request().method() === method && apiPath(response) === pathname;

/** The Examinee-Token the app sends, read from the next API request it makes. */
async function tokenOf(page: Page): Promise<string> {
  const request = await page.waitForRequest((r) => r.url().includes('/api/') && Boolean(r.headers()['authorization']));
  return (request.headers()['authorization'] ?? '').replace(/^Bearer /, '');
}

async function api(pathname: string, token: string, body?: unknown): Promise<globalThis.Response> {
  return fetch(`${baseUrl()}/api${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      'X-Device-Token': 'e2e-results-journey-terminal',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

// --- What the pupil does ------------------------------------------------------------------

/** On the school's own login page (/login?org_code=...): login ID, password, "Log in". */
async function logInOnSchoolPage(page: Page, pupil: ResultsAccount): Promise<void> {
  await page.goto(`/login?org_code=${encodeURIComponent(pupil.org_code)}`);
  await page.getByRole('heading', { name: /^Log in/ }).first().waitFor();
  await page.getByRole('textbox', { name: 'Login ID' }).fill(pupil.login_id);
  await page.getByLabel('Password', { exact: true }).fill(pupil.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** After logging in: the basic information (registered: acknowledge; not yet: register), then the menu. */
async function passBasicInformation(page: Page, pupil: ResultsAccount): Promise<void> {
  const basic = page.getByRole('heading', { name: 'Your basic information' }).first();
  const menu = page.getByRole('heading', { name: 'Menu', exact: true }).first();
  await basic.or(menu).first().waitFor();
  if (await menu.isVisible()) {
    step('  (no basic information screen: straight to the menu)');
    return;
  }
  if (await page.getByRole('textbox', { name: 'Name' }).isVisible()) {
    step('  basic information: registering');
    await page.getByRole('textbox', { name: 'Name' }).fill(pupil.name);
    await page.getByLabel('Grade', { exact: true }).selectOption({ index: 3 });
    await page.getByRole('textbox', { name: 'Email' }).fill(`${pupil.login_id}@example.com`);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('button', { name: 'Register', exact: true }).click();
  } else {
    step('  basic information: registered already, acknowledged with "Continue"');
    expect(await screenText(page)).toContain(pupil.name);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  }
}

async function seeMenu(page: Page): Promise<string> {
  await seeScreen(page, 'Menu');
  // The menu's cards come once the status is loaded (a skeleton first).
  await page.getByRole('heading', { name: 'Test', exact: true }).waitFor();
  return screenText(page);
}

function menuButton(page: Page, name: string) {
  return page.getByRole('button', { name, exact: true });
}

/** On a payment screen: agree to the payment terms (they must be read first: scrolled through). */
async function agreeToTerms(page: Page): Promise<void> {
  const terms = page.getByRole('region', { name: 'Payment terms' });
  await terms.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await page.getByRole('checkbox', { name: 'I have read and agree to the payment terms' }).check();
}

function payButton(page: Page) {
  return page.getByRole('button', { name: /^Pay\s/ });
}

/** The demo provider's panel: clearly labelled, with Authorise, Refuse and Cancel. */
async function seeDemoPanel(page: Page) {
  const panel = page.getByRole('region', { name: 'Demo payment — no real card is charged' });
  await panel.waitFor();
  return panel;
}

async function chooseDemoOutcome(page: Page, outcome: 'Authorise' | 'Refuse' | 'Cancel'): Promise<void> {
  const panel = await seeDemoPanel(page);
  const completed = page.waitForResponse(isApi('POST', '/payment/demo/complete'));
  await panel.getByRole('button', { name: outcome, exact: true }).click();
  expect((await completed).status()).toBe(200);
}

async function seePaymentComplete(page: Page): Promise<void> {
  await page.getByRole('status').filter({ hasText: 'Payment complete. Thank you.' }).waitFor();
}

/**
 * Waits for a download started by `click`, keeps it under the artifacts, returns its file and
 * text; null (with a soft failure naming what the screen said) when no download came, so the
 * journey goes on to its next document and the report lists every failure at once.
 */
async function downloadPdf(page: Page, click: () => Promise<void>, name: string): Promise<{ file: string; text: string } | null> {
  const downloading = page.waitForEvent('download', { timeout: 30_000 }).catch(() => null);
  await click();
  const download = await downloading;
  if (!download) {
    const alerts = await page.getByRole('alert').allInnerTexts();
    expect.soft(download, `${name}: no file was downloaded; the screen says: ${alerts.join(' | ') || '(nothing)'}`).not.toBeNull();
    step(`    ${name}: NO DOWNLOAD; the screen says: ${alerts.join(' | ') || '(nothing)'}`);
    return null;
  }
  expect(await download.failure()).toBeNull();
  const file = path.join(artifacts, `${name}.pdf`);
  await download.saveAs(file);
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 5).toString('latin1'), `${name}: a PDF`).toBe('%PDF-');
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const text = await pdfText(file);
  writeFileSync(path.join(artifacts, `${name}.txt`), text);
  step(`    ${name}: ${download.suggestedFilename()}, ${bytes.length} bytes, saved as ${file}`);
  return { file, text };
}

/** Text without the spaces and line breaks the PDF layout put between glyph runs. */
const squeeze = (text: string) => text.replace(/\s+/g, '');

// --- The tests ------------------------------------------------------------------------------

describe('results journey: pay, sit, wait a week, see and buy the results', () => {
  // The server is shared by every file of the run: its clock goes back to the real time afterwards.
  afterAll(async () => {
    const reset = await moveServerClock({ set: new Date().toISOString() });
    step(`server clock set back to the real time (HTTP ${reset.status})`);
  });

  test(
    'a pupil pays the fee (demo), sits the exam, waits for the release, buys the results, opens the score report and downloads both PDFs',
    async () => {
      mkdirSync(artifacts, { recursive: true });
      const page = kiosk.page;
      const pupil = takeResultsJourneyPupil();
      const paper = englishLevel1();
      step(`pupil ${pupil.login_id} (${pupil.name}) of ${pupil.org_code}`);

      // 1. Log in on the school's page, basic information, the menu offers "Pay fee".
      step('1. log in on /login?org_code=... with login ID and password');
      const token = tokenOf(page);
      await logInOnSchoolPage(page, pupil);
      step('2. basic information');
      await passBasicInformation(page, pupil);
      const examToken = await token;
      let menu = await seeMenu(page);
      step('3. the testing menu offers "Pay fee"');
      expect(menu).toContain('Exam fee');
      await expect.poll(() => menuButton(page, 'Pay fee').isVisible()).toBe(true);
      expect(await menuButton(page, 'Take test').isDisabled(), '"Take test" waits for the fee').toBe(true);
      expect(menu).toContain('You can take the test once the exam fee is paid.');

      // 2. Pay the exam fee with the demo provider.
      step('4. pay-exam-fee with the demo provider');
      const setting = page.waitForResponse(isApi('GET', '/get-setting-payment-for-exam'));
      await menuButton(page, 'Pay fee').click();
      await seeScreen(page, 'Pay the exam fee');
      expect(currentPath(page)).toBe('/pay-exam-fee');
      const examSetting = v.parse(ExamPaymentSettingSchema, await (await setting).json());
      expect(examSetting.provider).toBe('demo');
      expect(examSetting.currency).toBe('USD');
      const fee = examSetting.items.find((i) => i.kind === 'exam_fee');
      expect(fee, 'the exam fee is an item').toBeDefined();
      const scheduleHistoryId = examSetting.schedule_history_id;
      const feeText = await screenText(page);
      expect(feeText).toContain('Fees are non-refundable.');
      expect(feeText).toContain('US dollars');
      expect(await payButton(page).isDisabled(), 'Pay waits for the terms').toBe(true);
      await agreeToTerms(page);
      const opened = page.waitForResponse(isApi('POST', '/payment/adyen/sessions/exam-fee'));
      await payButton(page).click();
      const session = v.parse(PaymentSessionSchema, await (await opened).json());
      expect(session.provider).toBe('demo');
      expect(session.amount_minor).toBe(fee!.total_minor);
      step(`5. demo checkout ${session.reference} for ${session.amount_minor} cents: "Authorise"`);
      await seeDemoPanel(page);
      await chooseDemoOutcome(page, 'Authorise');
      await seePaymentComplete(page);
      const paidStatus = v.parse(PaymentStatusResponseSchema, await (await api(`/payment/status?reference=${session.reference}`, examToken)).json());
      expect(paidStatus.status, 'the exam fee is PAID').toBe(2);
      step('6. paid; "Continue" back to the menu');
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      menu = await seeMenu(page);
      expect(menu).toContain('Fee paid');
      await expect.poll(() => menuButton(page, 'Take test').isVisible()).toBe(true);

      // 3. Take the test: confirm, tutorial, Start, every answer right, finish.
      step('7. "Take test": login-confirm, tutorial, start');
      const saved = watchSavedAnswers(page);
      const questionsLoaded = page.waitForResponse(isApi('GET', '/exam/questions'), { timeout: START_TIMEOUT_MS });
      await menuButton(page, 'Take test').click();
      const identity = await seeIdentity(page);
      expect(identity).toContain(pupil.name);
      await confirmIdentity(page);
      await passTutorial(page);
      await startExam(page);
      const { questions } = (await (await questionsLoaded).json()) as ExamQuestions;
      expect(questions.map((q) => q.prompt)).toEqual(paper.questions.map((q) => q.prompt));
      step(`8. answering all ${questions.length} questions`);
      for (const [i, shown] of questions.entries()) {
        if (i > 0) await goToNextQuestion(page);
        expect(await seeQuestionCounter(page)).toEqual({ current: i + 1, total: questions.length });
        const value = await answerCorrectly(page, shown, paper.questions[i]!);
        await expect.poll(() => saved.get(shown.id), { timeout: 15_000, message: `question ${i + 1} saved on the server` }).toBe(value);
        await seeSaveState(page, 'Saved on the server');
      }
      step('9. finish: exam-end');
      await finishExam(page);
      expect(currentPath(page)).toBe('/exam-end');
      expect((await seeReceipt(page)).answers).toBe(questions.length);
      step('10. log out');
      await page.getByRole('button', { name: 'Log out', exact: true }).click();
      await page.getByRole('heading', { name: /^Log in/ }).first().waitFor();

      // 4. A week passes: the server's clock moves eight days, the due jobs run.
      step('11. POST /api/test/clock { advance_ms: 8 days }');
      const clockBody = await moveServerClock({ advance_ms: 8 * DAY_MS });
      step(`    server time ${clockBody.server_time}, ${clockBody.jobs_ran} job(s) ran, ${clockBody.jobs_failed} failed`);
      expect(clockBody.status).toBe(200);
      expect(clockBody.jobs_failed).toBe(0);
      expect(clockBody.jobs_ran, 'scoring, statistics and release ran').toBeGreaterThan(0);

      // 5. Back in: the menu offers "View results"; the short result.
      step('12. log in again: the finished sitting lets a my-page pupil in, to the menu');
      const token2 = tokenOf(page);
      await logInOnSchoolPage(page, pupil);
      await passBasicInformation(page, pupil);
      const resultToken = await token2;
      menu = await seeMenu(page);
      expect(menu).toContain('Exam completed');
      await expect.poll(() => menuButton(page, 'View results').isVisible()).toBe(true);
      step('13. "View results": short-result');
      const shortLoaded = page.waitForResponse(isApi('GET', '/get-short-result'));
      await menuButton(page, 'View results').click();
      await seeScreen(page, 'Your result');
      expect(currentPath(page)).toBe('/short-result');
      const short = v.parse(ShortResultSchema, await (await shortLoaded).json());
      expect(short.schedule_history_id).toBe(scheduleHistoryId);
      expect(short.correct_count).toBe(questions.length);
      expect(short.passed).toBe(true);
      await page.getByText('Correct answer rate', { exact: true }).waitFor();
      const shortText = await screenText(page);
      step(`    score ${short.score}/${short.max_score}, correct rate ${short.correct_rate}`);
      expect(shortText).toContain('Passed');
      expect(shortText).toMatch(new RegExp(`${short.score}\\s*/\\s*${short.max_score}`));
      expect(shortText, 'the correct rate as a percentage with one decimal').toMatch(/Correct answer rate\s*\d{1,3}\.\d\s?%/);

      // 6. Buy the result sheet and certificate.
      step('14. buy the result sheet and certificate: pay-exam-result');
      const resultSettingLoaded = page.waitForResponse(isApi('GET', '/get-setting-payment-for-result'));
      await page.getByRole('button', { name: 'Buy the result sheet / certificate', exact: true }).click();
      await seeScreen(page, 'Buy the result sheet and certificate');
      expect(currentPath(page)).toBe('/pay-exam-result');
      const resultSetting = v.parse(ResultPaymentSettingSchema, await (await resultSettingLoaded).json());
      expect(resultSetting.currency).toBe('USD');
      expect(resultSetting.provider).toBe('demo');
      const sheet = page.getByRole('checkbox', { name: 'Result sheet' });
      const certificate = page.getByRole('checkbox', { name: 'Certificate' });
      await sheet.check();
      await certificate.check();
      await page.getByText('Total (US dollars)', { exact: true }).waitFor();
      const buyText = await screenText(page);
      for (const label of ['Quantity', 'Unit price', 'Amount', 'Total (US dollars)', 'Fees are non-refundable.']) expect(buyText).toContain(label);
      const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
      const lines = resultSetting.items.filter((i) => i.kind === 'result_sheet' || i.kind === 'certificate');
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line.available, `${line.kind} can be bought`).toBe(true);
        expect(buyText, `${line.kind} unit price in USD`).toContain(money(line.unit_price_minor));
      }
      const total = lines.reduce((sum, line) => sum + line.total_minor, 0);
      expect(buyText, 'the total in USD').toContain(money(total));
      expect(await payButton(page).isDisabled(), 'Pay waits for the terms').toBe(true);
      await agreeToTerms(page);
      const resultOpened = page.waitForResponse(isApi('POST', '/payment/adyen/sessions/result-fee'));
      await payButton(page).click();
      const resultSession = v.parse(PaymentSessionSchema, await (await resultOpened).json());
      expect(resultSession.amount_minor).toBe(total);
      expect(new Set(resultSession.items.map((i) => i.kind))).toEqual(new Set(['result_sheet', 'certificate']));
      step(`15. demo checkout ${resultSession.reference} for ${total} cents: "Authorise"`);
      await chooseDemoOutcome(page, 'Authorise');
      await seePaymentComplete(page);
      expect(await page.getByRole('list', { name: 'Paid items' }).innerText()).toMatch(/Result sheet[\s\S]*Certificate/);
      step('16. "Continue": purchased-result');
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await seeScreen(page, 'Purchased result');
      expect(currentPath(page)).toBe('/purchased-result');
      await page.getByRole('button', { name: 'Open the score report', exact: true }).waitFor();
      const purchased = await screenText(page);
      expect(purchased).toContain('Result sheet');
      expect(purchased).toContain('Certificate');
      expect(purchased).not.toContain('Not purchased');

      // 7. The score report: charts as SVG, rank, per-unit table; a picture of it.
      step('17. "Open the score report"');
      const reportLoaded = page.waitForResponse(isApi('GET', '/score-report/results'));
      await page.getByRole('button', { name: 'Open the score report', exact: true }).click();
      await seeScreen(page, 'Score report');
      expect(currentPath(page)).toBe(`/score-report/${scheduleHistoryId}`);
      const report = v.parse(ScoreReportSchema, await (await reportLoaded).json());
      await page.getByRole('heading', { name: 'Overall result' }).waitFor();
      const reportText = await screenText(page);
      expect(reportText).toContain(pupil.name);
      expect(reportText).toContain('Passed');
      expect(reportText).toContain(`${report.result.score} out of ${report.result.max_score}`);
      if (report.rank.status === 'complete') {
        step(`    rank ${report.rank.position} of ${report.rank.total}`);
        expect(reportText).toContain(`${report.rank.position} out of ${report.rank.total} at this level`);
      } else {
        step('    rank aggregation in progress');
        expect(reportText).toContain('Rank aggregation is in progress. Please check again later.');
      }
      const charts = page.locator('svg[role="img"]');
      await expect.poll(() => charts.count(), { message: 'charts rendered as SVG' }).toBeGreaterThanOrEqual(2);
      for (const chart of await charts.all()) {
        const box = await chart.boundingBox();
        expect(box && box.width > 50 && box.height > 50, 'a chart has a size').toBe(true);
        expect(await chart.locator('rect, path, line').count(), 'a chart draws something').toBeGreaterThan(0);
      }
      const unitTable = page.getByRole('table', { name: /Correct answers per unit/ });
      expect(await unitTable.getByRole('row').count(), 'a row per unit and a header').toBe(report.units.length + 1);
      expect(report.units.length).toBeGreaterThan(0);
      for (const unit of report.units) expect(await unitTable.innerText()).toContain(unit.unit);
      const screenshot = path.join(artifacts, 'score-report.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      step(`    screenshot: ${screenshot}`);

      // 8. Save as PDF and download the certificate.
      step('18. "Save as PDF"');
      const reportPdf = await downloadPdf(page, () => page.getByRole('button', { name: 'Save as PDF', exact: true }).click(), 'score-report');
      if (reportPdf) {
        expect(squeeze(reportPdf.text), 'the PDF names the pupil').toContain(squeeze(pupil.name));
        expect(reportPdf.text, 'the PDF shows the score').toContain(`${report.result.score} out of ${report.result.max_score}`);
      }
      step('19. "Download the certificate"');
      const certificatePdf = await downloadPdf(page, () => page.getByRole('button', { name: 'Download the certificate', exact: true }).click(), 'certificate');
      if (certificatePdf) expect(squeeze(certificatePdf.text), 'the certificate names the pupil').toContain(squeeze(pupil.name));

      // The server's own PDFs for this pupil (what the buttons should have saved), read back.
      step('    the server\'s PDFs for this pupil, fetched directly');
      for (const [route, name] of [['/score-report/pdf-report', 'score-report-direct'], ['/get-certificate', 'certificate-direct']] as const) {
        const response = await api(`${route}?schedule_history_id=${scheduleHistoryId}&locale=en`, resultToken);
        expect(response.status, `${route} answers`).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/pdf');
        const file = path.join(artifacts, `${name}.pdf`);
        writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const text = await pdfText(file);
        expect(squeeze(text), `${route} names the pupil`).toContain(squeeze(pupil.name));
        if (route === '/score-report/pdf-report') expect(text, `${route} shows the score`).toContain(`${report.result.score} out of ${report.result.max_score}`);
      }

      // The server agrees: both items paid, nothing pending.
      const after = v.parse(ResultPaymentSettingSchema, await (await api(`/get-setting-payment-for-result?schedule_history_id=${scheduleHistoryId}`, resultToken)).json());
      expect(after.result_payment_status, 'PAID_ALL').toBe(1);
      step('20. done');
    },
    JOURNEY_TIMEOUT_MS,
  );

  test(
    'a refused card and a cancelled payment charge nothing, with the seed messages; a double click on Pay opens one checkout',
    async () => {
      const page = kiosk.page;
      const pupil = takeResultsJourneyPupil();
      step(`payment failures: pupil ${pupil.login_id} (${pupil.name})`);
      const token = tokenOf(page);
      await logInOnSchoolPage(page, pupil);
      await passBasicInformation(page, pupil);
      const examToken = await token;
      await seeMenu(page);
      await expect.poll(() => menuButton(page, 'Pay fee').isVisible()).toBe(true);
      const settingLoaded = page.waitForResponse(isApi('GET', '/get-setting-payment-for-exam'));
      await menuButton(page, 'Pay fee').click();
      await seeScreen(page, 'Pay the exam fee');
      const { schedule_history_id: id } = v.parse(ExamPaymentSettingSchema, await (await settingLoaded).json());
      await agreeToTerms(page);

      step('a. double click on Pay');
      const sessions: PaymentSession[] = [];
      const sessionResponses: Promise<void>[] = [];
      page.on('response', (response) => {
        if (isApi('POST', '/payment/adyen/sessions/exam-fee')(response)) {
          sessionResponses.push(response.json().then((body) => void sessions.push(v.parse(PaymentSessionSchema, body))));
        }
      });
      await payButton(page).dblclick();
      await seeDemoPanel(page);
      await Promise.all(sessionResponses);
      expect(sessions.length, 'at least one checkout request').toBeGreaterThan(0);
      const references = new Set(sessions.map((s) => s.reference));
      step(`   ${sessions.length} session request(s), ${references.size} checkout(s)`);
      expect(references.size, 'one checkout').toBe(1);
      const [reference] = [...references] as [string];
      const open = v.parse(PaymentStatusResponseSchema, await (await api(`/payment/status?reference=${reference}`, examToken)).json());
      expect(open.outcome, 'the one checkout is open').toBe('open');
      expect(open.status, 'not PAID').not.toBe(2);

      step('b. demo "Refuse": the seed message, nothing charged');
      await chooseDemoOutcome(page, 'Refuse');
      await page.getByRole('alert').filter({ hasText: 'The card was refused. Please check the card information and try again.' }).waitFor();
      const refused = v.parse(PaymentStatusResponseSchema, await (await api(`/payment/status?reference=${reference}`, examToken)).json());
      expect(refused.outcome).toBe('refused');
      expect(refused.status, 'not PAID').not.toBe(2);
      expect(await menuButton(page, 'Pay fee').count()).toBe(0);

      step('c. "Try again", demo "Cancel": the seed message, nothing charged');
      await page.getByRole('button', { name: 'Try again', exact: true }).click();
      const againOpened = page.waitForResponse(isApi('POST', '/payment/adyen/sessions/exam-fee'));
      if (await payButton(page).isVisible()) {
        const terms = page.getByRole('checkbox', { name: 'I have read and agree to the payment terms' });
        if (!(await terms.isChecked())) await agreeToTerms(page);
        await payButton(page).click();
      }
      const again = v.parse(PaymentSessionSchema, await (await againOpened).json());
      await chooseDemoOutcome(page, 'Cancel');
      await page.getByRole('alert').filter({ hasText: 'The payment was canceled.' }).waitFor();
      const cancelled = v.parse(PaymentStatusResponseSchema, await (await api(`/payment/status?reference=${again.reference}`, examToken)).json());
      expect(cancelled.outcome).toBe('cancelled');
      expect(cancelled.status, 'not PAID').not.toBe(2);
      const unpaid = v.parse(ExamPaymentSettingSchema, await (await api(`/get-setting-payment-for-exam?schedule_history_id=${id}`, examToken)).json());
      expect(unpaid.payment_status, 'nothing charged after a refusal and a cancellation').not.toBe(2);

      step('d. back to the menu: "Take test" still waits for the fee');
      await page.getByRole('button', { name: 'Back to menu', exact: true }).click();
      await seeMenu(page);
      expect(await menuButton(page, 'Take test').isDisabled()).toBe(true);
      expect(await screenText(page)).not.toContain('Fee paid');
    },
    JOURNEY_TIMEOUT_MS,
  );
});
