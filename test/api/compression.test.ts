/**
 * Compression on the wire.
 * - The static files: a built client precompressed as `npm run build` does it
 *   (scripts/lib/compress-plugin.ts), served by the real server (server/http/client-files.ts).
 *   The first screen (index.html and every file it names) arrives brotli- or gzip-encoded as the
 *   browser's Accept-Encoding asks, and decodes to exactly the bytes on disk; every variant says
 *   Vary: Accept-Encoding and has its own ETag; a revalidation is a 304 without a body.
 * - The API: large JSON answers to GET (an exam's questions) are compressed, small ones and
 *   POSTs are not (server/http/compression.ts).
 * Raw HTTP (node:http) throughout: fetch would decode the bodies and hide what crossed the wire.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { precompressDirectory } from '../../scripts/lib/compress-plugin.ts';
import { createFakeClock } from '../../server/clock.ts';
import { chooseEncoding } from '../../server/http/compression.ts';
import { silentLogger } from '../../server/logger.ts';
import { startServer, type RunningServer } from '../../server/main.ts';

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** One request on a new connection, body as it came over the wire. */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function decode(response: Raw): Buffer {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.body);
  if (encoding === 'gzip') return gunzipSync(response.body);
  expect(encoding).toBeUndefined();
  return response.body;
}

const CHROMIUM = 'gzip, deflate, br, zstd';

/** A client build shaped like Vite's: index.html naming an entry chunk, a preload and a stylesheet. */
function writeClient(dist: string): void {
  mkdirSync(path.join(dist, 'assets'));
  const words = Array.from({ length: 4000 }, (_, i) => `export const label${i} = "question ${i % 97} of the exam";`).join('\n');
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd.js'), `${words}\nconsole.log("first screen");\n`);
  writeFileSync(path.join(dist, 'assets', 'rolldown-runtime-Ef34.js'), `${'/* runtime */ '.repeat(80)}export {};\n`);
  writeFileSync(path.join(dist, 'assets', 'index-Gh56.css'), Array.from({ length: 300 }, (_, i) => `.c${i}{margin-inline:${i}px;color:#1f5f8b}`).join('\n'));
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(
    path.join(dist, 'index.html'),
    [
      '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Gradus</title>',
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
      '<script type="module" crossorigin src="/assets/index-Ab12Cd.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-Ef34.js">',
      '<link rel="stylesheet" crossorigin href="/assets/index-Gh56.css">',
      `</head><body><div id="root"></div>${'<!-- the kiosk page -->'.repeat(30)}</body></html>`,
    ].join('\n'),
  );
}

describe('chooseEncoding', () => {
  test.each([
    [CHROMIUM, 'br'],
    ['gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['', undefined],
  ] as const)('Accept-Encoding %j: %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
  test('only what the file has copies of', () => {
    expect(chooseEncoding(CHROMIUM, ['gzip'])).toBe('gzip');
  });
});

describe('the built client over the wire', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'gradus-dist-compressed-'));
  const clock = createFakeClock('2026-09-01T08:00:00.000Z');
  let server: RunningServer;

  beforeAll(async () => {
    writeClient(dist);
    const summary = await precompressDirectory(dist);
    expect(summary.files).toBe(4);
    server = await startServer({ port: 0, memory: true, distDir: dist, clock, logger: silentLogger, runJobs: false });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  /** index.html, and every file it names, as on disk. */
  const firstScreen = () => {
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    const named = [...html.matchAll(/\s(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
    return ['/login-code', ...named].map((url) => ({ url, file: url === '/login-code' ? 'index.html' : url.slice(1) }));
  };

  test.each([
    ['Chromium', CHROMIUM, 'br'],
    ['a gzip-only client', 'gzip', 'gzip'],
  ])('the first screen arrives compressed for %s and decodes to the same bytes', async (_who, acceptEncoding, expected) => {
    let onWire = 0;
    let onDisk = 0;
    for (const { url, file } of firstScreen()) {
      const response = await raw(`${server.url}${url}`, { headers: { 'Accept-Encoding': acceptEncoding } });
      const bytes = readFileSync(path.join(dist, file));
      expect(response.status, url).toBe(200);
      expect(Number(response.headers['content-length']), url).toBe(response.body.byteLength);
      expect(decode(response).equals(bytes), url).toBe(true);
      if (bytes.byteLength >= 512) {
        expect(response.headers['content-encoding'], url).toBe(expected);
        expect(response.headers.vary, url).toMatch(/accept-encoding/i);
      } else {
        // The favicon: too small to be worth a copy, so it does not vary either.
        expect(response.headers['content-encoding'], url).toBeUndefined();
        expect(response.headers.vary, url).toBeUndefined();
      }
      onWire += response.body.byteLength;
      onDisk += bytes.byteLength;
    }
    expect(onWire).toBeLessThan(onDisk / 3);
  });

  test('a client that takes no encoding gets the file itself, still marked Vary', async () => {
    const response = await raw(`${server.url}/assets/index-Ab12Cd.js`);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.body.equals(readFileSync(path.join(dist, 'assets', 'index-Ab12Cd.js')))).toBe(true);
  });

  test('each variant has its own ETag; a revalidation with it is a 304 without a body; the caching stays', async () => {
    const url = `${server.url}/assets/index-Ab12Cd.js`;
    const br = await raw(url, { headers: { 'Accept-Encoding': 'br' } });
    const gzip = await raw(url, { headers: { 'Accept-Encoding': 'gzip' } });
    const plain = await raw(url);
    const etags = [br, gzip, plain].map((r) => r.headers.etag as string);
    expect(new Set(etags).size).toBe(3);
    for (const etag of etags) expect(etag).toMatch(/^"[\w-]+"$/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const again = await raw(url, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etags[0]! } });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(again.headers.etag).toBe(etags[0]);
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    // The gzip variant's tag does not validate the brotli one.
    expect((await raw(url, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etags[1]! } })).status).toBe(200);

    const page = await raw(`${server.url}/start`, { headers: { 'Accept-Encoding': CHROMIUM } });
    expect(page.headers['cache-control']).toBe('no-cache');
    const revalidated = await raw(`${server.url}/start`, { headers: { 'Accept-Encoding': CHROMIUM, 'If-None-Match': page.headers.etag as string } });
    expect(revalidated.status).toBe(304);
  });

  test('HEAD answers the variant’s length without a body', async () => {
    const head = await raw(`${server.url}/assets/index-Gh56.css`, { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(readFileSync(path.join(dist, 'assets', 'index-Gh56.css.br')).byteLength);
    expect(head.body.byteLength).toBe(0);
  });

  test('a compressed copy older than its file (an earlier build) is never sent', async () => {
    const file = path.join(dist, 'assets', 'rolldown-runtime-Ef34.js');
    writeFileSync(file, `${'/* runtime, rebuilt */ '.repeat(80)}export {};\n`);
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    const response = await raw(`${server.url}/assets/rolldown-runtime-Ef34.js`, { headers: { 'Accept-Encoding': CHROMIUM } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString()).toContain('rebuilt');
  });

  test('no way out of dist/', async () => {
    writeFileSync(path.join(path.dirname(dist), 'outside-dist.txt'), 'a secret beside dist');
    for (const url of ['/assets/..%2f..%2foutside-dist.txt', '/assets/..%5c..%5coutside-dist.txt', '/assets//index-Ab12Cd.js', '/..%2foutside-dist.txt']) {
      const response = await raw(`${server.url}${url}`);
      expect(response.body.toString(), url).not.toContain('a secret');
      expect([404, 200], url).toContain(response.status);
      if (response.status === 200) expect(response.body.toString(), url).toContain('<title>Gradus</title>');
    }
    rmSync(path.join(path.dirname(dist), 'outside-dist.txt'));
  });

  test('large JSON answers of the API are compressed, small ones and POSTs are not', async () => {
    const login = await raw(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Encoding': CHROMIUM },
      body: JSON.stringify({ login_type: 0, login_code: 'J76T-TR77-JJ9A' }),
    });
    expect(login.status).toBe(200);
    expect(login.headers['content-encoding']).toBeUndefined();
    const { access_token: token, examinee } = JSON.parse(login.body.toString()) as { access_token: string; examinee: { schedule_history_id: number } };
    const auth = { Authorization: `Bearer ${token}`, 'X-Device-Token': 'compression-test-terminal', 'Content-Type': 'application/json' };
    const started = await raw(`${server.url}/api/exam/start`, {
      method: 'POST',
      headers: { ...auth, 'Accept-Encoding': CHROMIUM },
      body: JSON.stringify({ schedule_history_id: examinee.schedule_history_id }),
    });
    expect(started.status).toBe(200);
    expect(started.headers['content-encoding']).toBeUndefined();

    const url = `${server.url}/api/exam/questions?schedule_history_id=${examinee.schedule_history_id}`;
    const plain = await raw(url, { headers: auth });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.byteLength).toBeGreaterThan(1024);
    for (const [acceptEncoding, expected] of [[CHROMIUM, 'br'], ['gzip', 'gzip']] as const) {
      const compressed = await raw(url, { headers: { ...auth, 'Accept-Encoding': acceptEncoding } });
      expect(compressed.status).toBe(200);
      expect(compressed.headers['content-encoding']).toBe(expected);
      expect(compressed.headers.vary).toMatch(/accept-encoding/i);
      expect(compressed.headers['cache-control']).toBe('no-store');
      expect(Number(compressed.headers['content-length'])).toBe(compressed.body.byteLength);
      expect(compressed.body.byteLength).toBeLessThan(plain.body.byteLength / 2);
      expect(JSON.parse(decode(compressed).toString())).toEqual(JSON.parse(plain.body.toString()));
    }

    const health = await raw(`${server.url}/api/health`, { headers: { 'Accept-Encoding': CHROMIUM } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.headers.vary ?? '').not.toMatch(/accept-encoding/i);
  });
});
