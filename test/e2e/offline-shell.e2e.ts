/**
 * The offline app shell, in real Chromium against the production build and the
 * real server. The service worker (Workbox through vite-plugin-pwa, registered by
 * src/platform/service-worker.ts) takes control of the page; with the network gone, reloading
 * /login-code and opening a deep route still show the app in the pupil's language (not
 * Chromium's "No internet" page), because index.html, every catalog, the Intl data and KaTeX
 * are precached; no API response is in any cache, and /api is never answered from one.
 *
 * The language is Khmer: its catalog and its Intl date data (km has none in Chromium) are both
 * lazily loaded chunks, so the offline reload proves they came from the precache.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { baseUrl, openKiosk, screens, seeScreen, useKiosk } from '../helpers/e2e-browser.ts';

const kiosk = useKiosk();

/** A message of a locale's catalog (locales/<locale>/messages.po), as the pupil reads it. */
function translated(locale: string, msgid: string): string {
  const po = readFileSync(path.join(process.cwd(), 'locales', locale, 'messages.po'), 'utf8');
  const escaped = msgid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^msgid "${escaped}"\\nmsgstr "(.+)"$`, 'm').exec(po);
  if (!match?.[1]) throw new Error(`locales/${locale}/messages.po has no translation of "${msgid}"`);
  return match[1];
}

/** Resolves once a service worker controls this page (the first install claims it). */
async function waitForWorkerControl(page: Page): Promise<string> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 30_000, interval: 250, message: 'a service worker controls the page' })
    .toBe('activated');
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
}

/** Every URL in every CacheStorage cache of this origin, read from the page. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
}

test('with the network gone, a reload shows the app in the pupil\'s language, from the precache', async () => {
  const page = kiosk.page;

  // The worker is served to be checked for updates on every load; hashed assets are immutable.
  const worker = await fetch(`${baseUrl()}/sw.js`);
  expect(worker.status).toBe(200);
  expect(worker.headers.get('cache-control')).toBe('no-cache');
  expect(worker.headers.get('content-type')).toMatch(/javascript/);

  await openKiosk(page, '/login-code');
  await seeScreen(page, screens.loginCode);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('km');
  const loginHeading = translated('km', 'Log in with your login code');
  await seeScreen(page, loginHeading);

  const scriptUrl = await waitForWorkerControl(page);
  expect(new URL(scriptUrl).pathname).toBe('/sw.js');
  // An API call made through the controlling worker: it must reach the server, not a cache.
  expect(await page.evaluate(() => fetch('/api/health').then((r) => r.status))).toBe(200);

  const assetUrl = (await page.evaluate(() => [...document.scripts].map((s) => s.src).find((src) => src.includes('/assets/'))))!;
  const asset = await fetch(assetUrl);
  expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

  await kiosk.context.setOffline(true);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);

  // The login page, reloaded offline: the app, in Khmer.
  const reloaded = await page.reload();
  expect(reloaded?.status()).toBe(200);
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await seeScreen(page, loginHeading);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('km');
  await expect.poll(() => new URL(page.url()).pathname).toBe('/login-code');

  // Deep routes typed offline: the navigation fallback serves the app, which judges the URL, in
  // Khmer. The end screen without a login leads to the login page (rule 5); a page that needs a
  // login (a score report, the basic information) to /403 with the "not logged in" view (rule 7).
  const deep = await page.goto('/exam-end');
  expect(deep?.fromServiceWorker()).toBe(true);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/login-code');
  await seeScreen(page, loginHeading);
  for (const path of ['/score-report/7', '/examinee-info']) {
    const protectedPage = await page.goto(path);
    expect(protectedPage?.fromServiceWorker()).toBe(true);
    await seeScreen(page, translated('km', 'You are not logged in.'));
    await expect.poll(() => new URL(page.url()).pathname).toBe('/403');
    expect(await page.locator('body').innerText()).toContain(translated('km', 'You need to log in to see this page.'));
  }

  // What the precache holds: the app, every catalog (its first screen's part and the rest), the Intl data, KaTeX and its fonts.
  const urls = await cachedUrls(page);
  const paths = urls.map((url) => new URL(url).pathname);
  expect(paths).toContain('/index.html');
  expect(paths.filter((p) => /^\/assets\/messages-[\w-]+\.js$/.test(p))).toHaveLength(2 * 23);
  expect(paths.some((p) => /^\/assets\/katex-[\w-]+\.js$/.test(p))).toBe(true);
  expect(paths.some((p) => /^\/assets\/katex-[\w-]+\.css$/.test(p))).toBe(true);
  // Every font KaTeX's stylesheet asks Chromium for (its woff2 files) is there.
  const katexCss = urls.find((url) => /^\/assets\/katex-[\w-]+\.css$/.test(new URL(url).pathname))!;
  const katexFonts = await page.evaluate(async (cssUrl) => {
    const css = await (await caches.match(cssUrl))!.text();
    // KaTeX's @font-face rules list woff2 first: the file Chromium fetches.
    const fonts = [...css.matchAll(/url\(([^)]+?\.woff2)\)/g)].map((m) => new URL(m[1]!.replace(/["']/g, ''), cssUrl).href);
    const missing: string[] = [];
    for (const font of fonts) if (!(await caches.match(font))) missing.push(font);
    return { count: fonts.length, missing };
  }, katexCss);
  expect(katexFonts.count).toBeGreaterThan(0);
  expect(katexFonts.missing).toEqual([]);
  expect(paths.some((p) => /^\/assets\/km-[\w-]+\.js$/.test(p))).toBe(true);
  expect(paths.some((p) => /^\/assets\/intl-datetimeformat-[\w-]+\.js$/.test(p))).toBe(true);
  // Never an API response, in any cache.
  expect(paths.filter((p) => p.startsWith('/api'))).toEqual([]);

  // And /api is never answered from a cache: offline, the call fails, as it must.
  expect(await page.evaluate(() => fetch('/api/health').then(() => 'answered', () => 'failed'))).toBe('failed');
  // Nor is an /api navigation given the app shell: Chromium's own error.
  await expect(page.goto('/api/health')).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);

  await kiosk.context.setOffline(false);
});
