/**
 * The score report and certificate PDFs, end to end: the real server (scripts/e2e.ts) prints
 * them with real Chromium (`page.pdf()`), and the tests read them back the way a parent would
 * read the paper: `pdftotext` must find the pupil's name, the score and the language (English,
 * Japanese, Arabic with its numerals, Thai with the Buddhist year, Hindi; the date in Khmer,
 * Burmese, Cantonese, Kazakh and Punjabi script, with the country's name in the language and
 * Burmese digits), and `pdftoppm` pictures the first page of each into
 * E2E_ARTIFACTS_DIR/documents/ for a person to look at.
 *
 * Through the app itself (languages and access): the score report saved as PDF by a
 * pupil who chose the Arabic numerals variant carries Arabic-Indic digits, and the score report
 * fits a 360 px wide screen.
 *
 * The pupils are the seed's results demo accounts (server/seed/results-accounts.json): one who
 * passed and bought both documents, one who passed and bought nothing, one who did not pass.
 * The print route itself is checked in Chromium too: right to left for Arabic, and ready.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ErrorBodySchema } from '../../contract/errors.ts';
import { ScoreReportSchema, type ScoreReport } from '../../contract/results.ts';
import { LoginResponseSchema } from '../../contract/session.ts';
import { baseUrl, launchChromium } from '../helpers/e2e-browser.ts';
import { pdfInfo, pdfPictures, pdfText } from '../helpers/pdf-tools.ts';

type ResultsAccount = { login_id: string; password: string; name: string; org_code: string; scenario: string };
const accounts = JSON.parse(
  readFileSync(new URL('../../server/seed/results-accounts.json', import.meta.url), 'utf8'),
) as ResultsAccount[];

function account(scenario: string): ResultsAccount {
  const found = accounts.find((a) => a.scenario === scenario);
  if (!found) throw new Error(`server/seed/results-accounts.json has no ${scenario} pupil`);
  return found;
}

const artifacts = path.join(process.env.E2E_ARTIFACTS_DIR ?? path.resolve('.e2e'), 'documents');

async function api(pathname: string, init: { token?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${baseUrl()}/api${pathname}`, {
    method: init.body ? 'POST' : 'GET',
    headers: {
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
      'X-Device-Token': 'e2e-documents-terminal',
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
}

/** Logs in as the pupil (login ID and password) and finds their sitting. */
async function logIn(pupil: ResultsAccount): Promise<{ token: string; scheduleHistoryId: number }> {
  const response = await api('/login', {
    body: { login_type: 1, login_id: pupil.login_id, password: pupil.password, org_code: pupil.org_code },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const login = v.parse(LoginResponseSchema, await response.json());
  let id = login.examinee.schedule_history_id;
  if (id === null) {
    const menu = (await (await api('/get-status-choose-page', { token: login.access_token })).json()) as {
      exam: { schedule_history_id: number | null };
    };
    id = menu.exam.schedule_history_id;
  }
  if (id === null) throw new Error(`${pupil.login_id} has no sitting`);
  return { token: login.access_token, scheduleHistoryId: id };
}

async function scoreReport(token: string, id: number): Promise<ScoreReport> {
  const response = await api(`/score-report/results?schedule_history_id=${id}`, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return v.parse(ScoreReportSchema, await response.json());
}

/** Downloads a PDF, keeps it under the artifacts and returns its file and its text. */
async function downloadPdf(route: string, token: string, id: number, locale: string, name: string) {
  const response = await api(`${route}?schedule_history_id=${id}&locale=${locale}`, { token });
  expect(response.status, response.status === 200 ? '' : await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z-]+-\d+\.pdf"$/);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const file = path.join(artifacts, `${name}.pdf`);
  writeFileSync(file, bytes);
  const text = await pdfText(file);
  return { file, text };
}

/** The first page as a PNG for a person to look at; returns its path. */
async function pictureFirstPage(file: string): Promise<string> {
  await pdfPictures(file, { resolution: 60, firstPageOnly: true });
  const png = file.replace(/\.pdf$/, '.png');
  expect(readFileSync(png).subarray(1, 4).toString('latin1')).toBe('PNG');
  return png;
}

async function pageCount(file: string): Promise<number> {
  return (await pdfInfo(file)).pages;
}

/** Intl as the page uses it: what the PDF must contain for this language. */
function digits(value: number, tag: string): string {
  return new Intl.NumberFormat(tag, { useGrouping: false }).format(value);
}
function monthName(date: string, tag: string, calendar?: string): string {
  return new Intl.DateTimeFormat(tag, { month: 'long', ...(calendar ? { calendar } : {}) }).format(new Date(date));
}
/** Text without the spaces and line breaks the layout put between glyph runs. */
function squeeze(text: string): string {
  return text.replace(/\s+/g, '');
}

/** The Arabic catalog's words for an English message, the way a pupil reading Arabic finds a button. */
const arabicCatalog = new Map<string, string>();
for (const [, id, str] of readFileSync(new URL('../../locales/ar/messages.po', import.meta.url), 'utf8').matchAll(/^msgid "(.*)"\nmsgstr "(.*)"$/gm)) {
  if (id && str && !arabicCatalog.has(id)) arabicCatalog.set(id, str);
}
function arabic(english: string): string {
  const words = arabicCatalog.get(english);
  if (!words) throw new Error(`locales/ar/messages.po has no translation of "${english}"`);
  return words;
}

/**
 * The pupil's way to the score report in the app: the school's login page, the basic information
 * (registered: Continue), the menu's results, the short result's "Open the score report".
 */
async function openScoreReportInApp(page: Page, pupil: ResultsAccount, words: (english: string) => string): Promise<void> {
  await page.goto(`${baseUrl()}/login?org_code=${encodeURIComponent(pupil.org_code)}`);
  await page.getByRole('textbox', { name: words('Login ID') }).fill(pupil.login_id);
  await page.getByLabel(words('Password'), { exact: true }).fill(pupil.password);
  await page.getByRole('button', { name: words('Log in'), exact: true }).click();
  await page.getByRole('button', { name: words('Continue'), exact: true }).click();
  await page.getByRole('button', { name: words('View results'), exact: true }).click();
  await page.getByRole('button', { name: words('Open the score report'), exact: true }).click();
  await page.getByRole('button', { name: words('Save as PDF'), exact: true }).waitFor();
}

describe('score report and certificate PDFs', () => {
  const bought = account('passed_bought');
  let pupil: { token: string; scheduleHistoryId: number };
  let report: ScoreReport;
  let browser: Browser | undefined;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    pupil = await logIn(bought);
    report = await scoreReport(pupil.token, pupil.scheduleHistoryId);
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('prints the score report in English with the name, the score and the rank', async () => {
    const { file, text } = await downloadPdf('/score-report/pdf-report', pupil.token, pupil.scheduleHistoryId, 'en', 'score-report-en');
    expect(text).toContain(bought.name);
    expect(text).toContain('Score report');
    expect(text).toContain(`${report.result.score} out of ${report.result.max_score}`);
    expect(text).toContain(`${report.result.correct_rate.toFixed(1)}%`);
    expect(text).toContain(report.result.passed ? 'Passed' : 'Did not pass');
    if (report.rank.status === 'complete') expect(text).toContain(`${report.rank.position} out of ${report.rank.total} at this level`);
    else expect(text).toContain('Rank aggregation is in progress');
    expect(text).toContain('Correct answers per unit');
    // A4 portrait, more than one page: the analysis starts a page of its own.
    expect((await pdfInfo(file)).report).toMatch(/Page size:\s+59[45](\.\d+)? x 841(\.\d+)? pts \(A4\)/);
    expect(await pageCount(file)).toBeGreaterThanOrEqual(2);
    await pictureFirstPage(file);
  });

  test('prints it in Japanese, with the long Japanese date', async () => {
    const { file, text } = await downloadPdf('/score-report/pdf-report', pupil.token, pupil.scheduleHistoryId, 'ja', 'score-report-ja');
    const flat = squeeze(text);
    expect(flat).toContain(squeeze(bought.name));
    expect(flat).toContain('成績表');
    expect(flat).toContain(`${report.result.max_score}点中${report.result.score}点`);
    // Digits and kanji are separate font runs: read in content order (-raw) for the date.
    const raw = squeeze(await pdfText(file, 'raw'));
    expect(raw).toContain(squeeze(new Intl.DateTimeFormat('ja', { dateStyle: 'long' }).format(new Date(report.exam.exam_date))));
    await pictureFirstPage(file);
  });

  test('prints it in Arabic with Arabic-Indic digits', async () => {
    const { file, text } = await downloadPdf('/score-report/pdf-report', pupil.token, pupil.scheduleHistoryId, 'ar-nu-arab', 'score-report-ar');
    expect(squeeze(text)).toContain(squeeze(bought.name));
    expect(text).toMatch(/[\u0600-\u06FF]/);
    expect(text).toContain(digits(report.result.score, 'ar-u-nu-arab'));
    expect(text).toContain(monthName(report.exam.exam_date, 'ar'));
    await pictureFirstPage(file);
  });

  test('prints it in Thai with the Buddhist year, and in Hindi', async () => {
    const thai = await downloadPdf('/score-report/pdf-report', pupil.token, pupil.scheduleHistoryId, 'th', 'score-report-th');
    const buddhistYear = new Intl.DateTimeFormat('th', { year: 'numeric', calendar: 'buddhist' }).formatToParts(new Date(report.exam.exam_date))
      .find((p) => p.type === 'year')!.value;
    expect(squeeze(thai.text)).toContain(squeeze(monthName(report.exam.exam_date, 'th', 'buddhist')));
    expect(thai.text).toContain(buddhistYear);
    expect(thai.text).toMatch(/[\u0E00-\u0E7F]/);
    expect(thai.text).toContain(bought.name);
    const hindi = await downloadPdf('/score-report/pdf-report', pupil.token, pupil.scheduleHistoryId, 'hi', 'score-report-hi');
    expect(hindi.text).toMatch(/[\u0900-\u097F]/);
    expect(squeeze(hindi.text)).toContain(squeeze(monthName(report.exam.exam_date, 'hi')));
    expect(hindi.text).toContain(bought.name);
    await pictureFirstPage(thai.file);
    await pictureFirstPage(hindi.file);
  });

  test('prints the certificate, A4 landscape, with its number', async () => {
    const { file, text } = await downloadPdf('/get-certificate', pupil.token, pupil.scheduleHistoryId, 'en', 'certificate-en');
    expect(text).toContain('Certificate of achievement');
    expect(text).toContain(bought.name);
    expect(text).toMatch(/has passed .+, Level \d+/);
    expect(text).toContain(`GR-${new Date(report.exam.exam_date).getUTCFullYear()}-${String(pupil.scheduleHistoryId).padStart(8, '0')}-`);
    expect(text).toContain(report.examinee.organization_name);
    expect((await pdfInfo(file)).report).toMatch(/Page size:\s+841(\.\d+)? x 59[45](\.\d+)? pts \(A4\)/);
    expect(await pageCount(file)).toBe(1);
    await pictureFirstPage(file);
    const ja = await downloadPdf('/get-certificate', pupil.token, pupil.scheduleHistoryId, 'ja', 'certificate-ja');
    expect(squeeze(ja.text)).toContain('合格証書');
    await pictureFirstPage(ja.file);
  });

  /**
   * The languages whose dates Chromium cannot format on its own (src/i18n/intl-polyfills.ts)
   * and Cantonese, which Chromium reads as zh-Hant-HK: each document must carry the date in the
   * language's own script (their labels are not translated yet and read in English). The
   * expected date comes from Node's full ICU, which holds the same CLDR data as the polyfill.
   */
  /** Kazakh in the seed's order (day, month name, year), though CLDR writes the year first. */
  const kazakhDate = (d: Date) => {
    const parts = new Intl.DateTimeFormat('kk', { day: 'numeric', month: 'long', year: 'numeric' }).formatToParts(d);
    const of = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    const label = parts[parts.findIndex((p) => p.type === 'year') + 1]?.value.trim() ?? '';
    return `${of('day')} ${of('month')} ${of('year')} ${label}`.trim();
  };
  const nativeDates = [
    { locale: 'km', tag: 'km', script: /[\u1780-\u17FF]/, date: (d: Date) => new Intl.DateTimeFormat('km', { day: 'numeric', month: 'long', year: 'numeric' }).format(d) },
    { locale: 'my', tag: 'my', script: /[\u1000-\u109F]/, date: (d: Date) => new Intl.DateTimeFormat('my', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(d) },
    { locale: 'zh_yue_Hant', tag: 'zh-Hant-HK', script: /[\u4E00-\u9FFF]/, date: (d: Date) => new Intl.DateTimeFormat('zh-Hant-HK', { dateStyle: 'long' }).format(d) },
    { locale: 'kk', tag: 'kk', script: /[\u0400-\u04FF]/, date: kazakhDate },
    { locale: 'pa', tag: 'pa', script: /[\u0A00-\u0A7F]/, date: (d: Date) => new Intl.DateTimeFormat('pa', { day: 'numeric', month: 'long', year: 'numeric' }).format(d) },
  ];
  for (const { locale, tag, script, date } of nativeDates) {
    test(`prints the score report and the certificate in ${locale}, the date in its own script`, async () => {
      const examDate = new Date(report.exam.exam_date);
      const expected = squeeze(date(examDate));
      expect(expected).toMatch(script);
      for (const [route, kind] of [['/score-report/pdf-report', 'score-report'], ['/get-certificate', 'certificate']] as const) {
        const { file, text } = await downloadPdf(route, pupil.token, pupil.scheduleHistoryId, locale, `${kind}-${locale}`);
        const flat = squeeze(text);
        expect(text, `${kind} in ${locale}`).toMatch(script);
        expect(flat).toContain(squeeze(bought.name));
        // Digits and letters are separate font runs: read in content order (-raw) for the date.
        const raw = squeeze(await pdfText(file, 'raw'));
        expect(raw, `${kind} in ${locale} shows ${expected}`).toContain(expected);
        if (kind === 'score-report') {
          // The score in the language's own digits (Burmese writes its own), the country in its words, not "Japan" or "JP".
          expect(flat).toMatch(new RegExp(`(^|\\D)${digits(report.result.score, tag)}(\\D|$)`));
          if (report.examinee.region !== null) {
            const country = new Intl.DisplayNames([tag], { type: 'region' }).of(report.examinee.region)!;
            expect(country).not.toBe(new Intl.DisplayNames(['en'], { type: 'region' }).of(report.examinee.region));
            expect(flat, `${kind} in ${locale} names the country ${country}`).toContain(squeeze(country));
          }
        }
        await pictureFirstPage(file);
      }
    });
  }

  test('refuses what was not bought, and a certificate for a result that did not pass', async () => {
    const unpaid = await logIn(account('passed_unpaid'));
    const report = await api(`/score-report/pdf-report?schedule_history_id=${unpaid.scheduleHistoryId}`, { token: unpaid.token });
    expect(report.status).toBe(403);
    expect(v.parse(ErrorBodySchema, await report.json()).code).toBe('PAYMENT_REQUIRED');
    const failed = await logIn(account('not_passed'));
    const certificate = await api(`/get-certificate?schedule_history_id=${failed.scheduleHistoryId}`, { token: failed.token });
    expect(certificate.status).toBe(403);
    expect(v.parse(ErrorBodySchema, await certificate.json()).code).toBe('NOT_PASSED');
    // Someone else's sitting does not exist for this pupil.
    const other = await api(`/score-report/pdf-report?schedule_history_id=${pupil.scheduleHistoryId}`, { token: unpaid.token });
    expect(other.status).toBe(404);
    const anonymous = await api(`/score-report/pdf-report?schedule_history_id=${pupil.scheduleHistoryId}`);
    expect(anonymous.status).toBe(401);
  });

  test('saved from the app in the Arabic numerals variant, the score report has Arabic-Indic digits', async () => {
    browser ??= await launchChromium();
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1024, height: 768 } });
    // The terminal's language preference, as the login page's picker stores it.
    await context.addInitScript(() => {
      if (!localStorage.getItem('language')) localStorage.setItem('language', 'ar-nu-arab');
    });
    const page = await context.newPage();
    await openScoreReportInApp(page, bought, arabic);
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: arabic('Save as PDF'), exact: true }).click();
    const download = await downloading;
    const file = path.join(artifacts, 'score-report-from-app-ar-nu-arab.pdf');
    await download.saveAs(file);
    const text = await pdfText(file);
    const arabicIndic = (text.match(/[\u0660-\u0669]/g) ?? []).length;
    const ascii = (text.match(/[0-9]/g) ?? []).length;
    // Every figure of the report in Arabic-Indic digits (a few Latin ones may remain in codes).
    expect(arabicIndic, `Arabic-Indic digits ${arabicIndic}, ASCII digits ${ascii}`).toBeGreaterThan(ascii * 4);
    expect(text).toContain(digits(report.result.score, 'ar-u-nu-arab'));
    await pictureFirstPage(file);
    await context.close();
  });

  test('the score report fits a 360 px wide screen in English', async () => {
    browser ??= await launchChromium();
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await openScoreReportInApp(page, bought, (english) => english);
    await page.locator('svg[data-chart="distribution"]').first().waitFor();
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      // A table may scroll inside its own region (two-dimensional content, WCAG 1.4.10); nothing else may stick out.
      const scrollsInside = (el: HTMLElement) => {
        for (let p = el.parentElement; p && p.tagName !== 'MAIN'; p = p.parentElement) {
          if (getComputedStyle(p).overflowX !== 'visible') return true;
        }
        return false;
      };
      const wide = [...document.querySelectorAll<HTMLElement>('main *')]
        .filter((el) => !scrollsInside(el))
        .filter((el) => el.getBoundingClientRect().right > width + 0.5 || el.getBoundingClientRect().left < -0.5)
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right - width)}px`);
      return { by: document.documentElement.scrollWidth - width, wide };
    });
    expect(overflow, 'nothing wider than the screen').toEqual({ by: 0, wide: [] });
    await context.close();
  });

  test('the print route reads right to left in Arabic and says when it is ready', async () => {
    browser = await launchChromium();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/score-report-embed/${pupil.scheduleHistoryId}?token=${pupil.token}&locale=ar&document=report`);
    await page.waitForFunction(() => document.documentElement.dataset.documentReady === 'true', undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    expect(await page.locator('[data-item="name"] dd').textContent()).toBe(bought.name);
    expect(await page.locator('svg[data-chart="distribution"]').count()).toBe(1);
    // The URL stays as typed: the machine shows the document, not the login page.
    expect(new URL(page.url()).pathname).toBe(`/score-report-embed/${pupil.scheduleHistoryId}`);
    // The token was never stored on the terminal.
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(pupil.token);
    await context.close();
  });
});
