/**
 * The terminal check (/checking-domain-connection) in real Chromium against the
 * real server, as a lab teacher uses it before exam day.
 *
 * From the login-code screen, "Check this terminal" opens the check. Every check passes on the
 * real server: the API host, the front host, KaTeX's script and stylesheet as this build names
 * them, the clock, storage (a real IndexedDB round trip), the fonts. The offline-shell row states
 * the truth, whatever it is at that moment (compared with what the page itself says of its service
 * worker); once the worker is installed and the page reloaded, it controls the page and the row
 * passes too: "This terminal is ready". Then the network refuses KaTeX's script (page.route
 * abort): that row fails with its advice, and the summary says "Not ready: 1 problem". The
 * language's fonts are checked for real: Arabic turns the page right-to-left and its name is
 * drawn without a missing glyph. "Back" returns to the login-code screen.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { baseUrl, expectPath, openKiosk, screens, seeScreen, useKiosk } from '../helpers/e2e-browser.ts';

const kiosk = useKiosk();

/** The check's rows, by the title the teacher reads. */
const rows = {
  api: 'Exam server',
  front: 'Gradus website',
  mathScript: 'Math formulas: script file',
  mathStyle: 'Math formulas: style file',
  clock: 'Terminal clock',
  storage: 'Space for saving answers',
  offlineShell: 'Offline copy of the app',
} as const;

/** A row of the check by its title ("Fonts for …" by a pattern). */
function checkRow(page: Page, title: string | RegExp): Locator {
  return page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: title }) });
}

/** The row's status as the page marks it: pass, warning, fail (also said in words and an icon). */
function statusOf(row: Locator): Promise<string | null> {
  return row.getAttribute('data-status');
}

/** The big summary line at the top. */
function summary(page: Page): Locator {
  return page.locator('#terminal-check-summary');
}

/** Waits until the round of checks is over ("Check again" is offered again) and returns the summary. */
async function waitForChecks(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Check again', exact: true }).waitFor();
  await expect.poll(() => page.getByRole('button', { name: 'Check again', exact: true }).getAttribute('aria-disabled')).toBeNull();
  return (await summary(page).innerText()).trim();
}

/** What the page itself says of its offline shell: the row's status it must show. */
async function offlineShellTruth(page: Page): Promise<'pass' | 'warning' | 'fail'> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    if (registration?.active && navigator.serviceWorker.controller) return 'pass';
    return registration ? 'warning' : 'fail';
  });
}

/** The offline shell's states in the order a booting page goes through them. */
const shellStates = ['fail', 'warning', 'pass'] as const;

/** Opens the check from the login page; answers what was true of the offline shell just before. */
async function openCheckFromLoginCode(page: Page): Promise<'pass' | 'warning' | 'fail'> {
  await openKiosk(page, '/login-code');
  await seeScreen(page, screens.loginCode);
  const before = await offlineShellTruth(page);
  await page.getByRole('link', { name: 'Check this terminal' }).click();
  await expectPath(page, '/checking-domain-connection');
  await seeScreen(page, 'Terminal check');
  return before;
}

test('a lab teacher checks a terminal: ready on the real server; a blocked KaTeX file makes it not ready', async () => {
  const page = kiosk.page;
  const host = new URL(baseUrl()).host;
  const shellBefore = await openCheckFromLoginCode(page);

  // Every row but the offline shell passes on the real server; that one says what was true when
  // it ran: the production build installs the shell as the page boots, so between what held
  // before the check began and what holds once it is done.
  await waitForChecks(page);
  for (const [check, title] of Object.entries(rows)) {
    if (check === 'offlineShell') continue;
    expect(await statusOf(checkRow(page, title)), title).toBe('pass');
    await expect.poll(() => checkRow(page, title).innerText()).toContain('OK');
  }
  expect(await statusOf(checkRow(page, /^Fonts for /))).toBe('pass');
  const shell = checkRow(page, rows.offlineShell);
  const shellAfter = await offlineShellTruth(page);
  const truth = await statusOf(shell);
  expect(shellStates.slice(shellStates.indexOf(shellBefore), shellStates.indexOf(shellAfter) + 1)).toContain(truth);
  if (truth === 'fail') expect(await shell.innerText()).toContain('Not installed.');
  if (truth === 'warning') expect(await shell.innerText()).toContain('Reload this page once');
  // What it measured is on the page: the time of each answer, the storage round trip's room.
  expect(await checkRow(page, rows.api).innerText()).toMatch(/OK\s*\d+(\.\d)? m?s\s*The exam server answers this terminal\./);
  expect(await checkRow(page, rows.storage).innerText()).toMatch(/\d+(\.\d)? [GM]B free/);
  expect(await checkRow(page, rows.clock).innerText()).toContain("Matches the server's clock.");

  // The offline shell installed (the production build registers it at boot; this makes sure in any
  // build), then one reload lets it take control of the page: every check passes.
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await seeScreen(page, 'Terminal check');
  expect(await waitForChecks(page)).toBe('This terminal is ready');
  expect(await offlineShellTruth(page)).toBe('pass');
  expect(await statusOf(checkRow(page, rows.offlineShell))).toBe('pass');
  expect(await page.locator('li[data-status="pass"]').count()).toBe(8);
  expect(await page.getByText('Every check passed.').isVisible()).toBe(true);

  // The network refuses KaTeX's script: that row fails with its advice; the summary says so.
  const mathScript = await page.evaluate(() => document.querySelector('meta[name="gradus-math-script"]')?.getAttribute('content'));
  expect(mathScript).toMatch(/^\/assets\/katex-[\w-]+\.js$/);
  let blocked = 0;
  const isMathScript = (url: URL) => url.pathname === mathScript;
  await page.route(
    isMathScript,
    (route) => {
      blocked += 1;
      return route.abort();
    },
  );
  await page.getByRole('button', { name: 'Check again', exact: true }).click();
  expect(await waitForChecks(page)).toBe('Not ready: 1 problem');
  expect(blocked).toBe(1);
  const math = checkRow(page, rows.mathScript);
  expect(await statusOf(math)).toBe('fail');
  const advice = await math.innerText();
  expect(advice).toContain('Problem');
  expect(advice).toContain('This file could not be downloaded, so math questions could not be shown.');
  expect(advice).toContain(`ask for ${host} to be allowed`);
  for (const title of [rows.api, rows.front, rows.mathStyle, rows.clock, rows.storage, rows.offlineShell]) {
    expect(await statusOf(checkRow(page, title)), title).toBe('pass');
  }
  expect(await page.getByText('Fix what is marked "Problem" below, then press "Check again".').isVisible()).toBe(true);

  // Unblocked again: ready again.
  await page.unroute(isMathScript);
  await page.getByRole('button', { name: 'Check again', exact: true }).click();
  expect(await waitForChecks(page)).toBe('This terminal is ready');

  // Arabic: the page turns right-to-left and the fonts of Arabic are checked, for real.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  // The row names Arabic in Arabic (the rest of its title is the Arabic catalog's).
  const arabic = checkRow(page, /العربية/);
  await arabic.waitFor();
  await expect.poll(() => statusOf(arabic)).toBe('pass');
  expect(await arabic.locator('bdi[lang="ar"]').first().innerText()).toBe('العربية');
  await page.getByRole('combobox').selectOption('en');
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('ltr');

  // "Back": the login-code screen, as the teacher left it.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expectPath(page, '/login-code');
  await seeScreen(page, screens.loginCode);
});
