/**
 * Bytes over the wire for the first screen: Chromium opens /login-code on the
 * real server (in process, PGlite in memory, the built dist/) and adds up what each request of
 * the page took on the wire (Playwright's encoded response body sizes, plus headers), until the
 * network is idle. The service worker is blocked, so its background precache is not counted:
 * this is what a terminal downloads before the pupil can type a code. Not part of `npm test`:
 *
 *   npm run build && npm exec -- node test/bench/first-screen-bytes.ts
 *
 * Prints one line per file (type, encoding, bytes on the wire, bytes decoded) and the total.
 */
import { chromium } from 'playwright-core';
import { silentLogger } from '../../server/logger.ts';
import { startServer } from '../../server/main.ts';
import { findChromium } from '../../scripts/lib/chromium.ts';

const found = findChromium();
if ('error' in found) throw new Error(found.error);
const server = await startServer({ port: 0, memory: true, logger: silentLogger, runJobs: false });
const browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const rows: { url: string; encoding: string; wire: number; decoded: number }[] = [];
  page.on('requestfinished', (request) => {
    void (async () => {
      const response = await request.response();
      const sizes = await request.sizes();
      const body = await response?.body().catch(() => undefined);
      rows.push({
        url: new URL(request.url()).pathname,
        encoding: (await response?.headerValue('content-encoding')) ?? '-',
        wire: sizes.responseBodySize + sizes.responseHeadersSize,
        decoded: body?.byteLength ?? 0,
      });
    })();
  });
  await page.goto(`${server.url}/login-code`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  let wire = 0;
  let decoded = 0;
  for (const row of rows.sort((a, b) => b.wire - a.wire)) {
    wire += row.wire;
    decoded += row.decoded;
    console.log(`${row.url.padEnd(48)} ${row.encoding.padEnd(5)} ${String(row.wire).padStart(9)} B on the wire ${String(row.decoded).padStart(9)} B decoded`);
  }
  console.log(`first screen (/login-code): ${rows.length} requests, ${(wire / 1024).toFixed(1)} KiB on the wire, ${(decoded / 1024).toFixed(1)} KiB decoded`);
} finally {
  await browser.close();
  await server.close();
}
