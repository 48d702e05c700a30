/**
 * What the bundle check (scripts/check-bundle.ts, `npm test`'s `bundle` step) counts as loaded
 * before the first screen shows, on a small build laid out as Vite writes one: index.html's module
 * script, module preloads and stylesheet, the entry's static imports and their stylesheets, and
 * the first screen's part of the source language's catalog with its own imports; never a lazy
 * route, the catalog's later part, another language's catalog, an external URL or the favicon.
 * Each file once, with its gzip size. The budget holds that whole load, not the JavaScript alone.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFirstScreen, filesOfIndexHtml, firstScreenLoad, firstScreenSize } from '../../scripts/check-bundle.ts';

const dist = mkdtempSync(path.join(os.tmpdir(), 'gradus-check-bundle-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** A file's content in the fake build: its own (so each has its own gzip size), at least `size` bytes. */
function contentOf(file: string, size: number): string {
  let content = `/* ${file} */`;
  for (let i = 0; content.length < size; i++) content += `${i.toString(36)}${file.length * i};`;
  return content;
}
function write(file: string, size: number): void {
  mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
  writeFileSync(path.join(dist, file), contentOf(file, size));
}
const gz = (file: string, size: number) => gzipSync(contentOf(file, size), { level: 9 }).byteLength;

const files: Record<string, number> = {
  'assets/index.js': 9_000,
  'assets/runtime.js': 400,
  'assets/shared.js': 2_000,
  'assets/index.css': 1_500,
  'assets/shared.css': 300,
  'assets/messages-en.js': 3_000,
  'assets/messages-en-later.js': 6_000,
  'assets/plural-rules.js': 500,
  'assets/messages-km.js': 5_000,
  'assets/exam-route.js': 7_000,
  'assets/exam-route.css': 800,
  'favicon.svg': 200,
};
for (const [file, size] of Object.entries(files)) write(file, size);
writeFileSync(
  path.join(dist, 'index.html'),
  `<!doctype html><html><head>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  <script type="module" crossorigin src="/assets/index.js"></script>
  <link rel="modulepreload" crossorigin href="/assets/runtime.js">
  <link rel="stylesheet" crossorigin href="/assets/index.css">
  <link rel="preconnect" href="https://checkoutshopper-live.adyen.com">
  <script src="https://example.org/analytics.js"></script>
</head><body><div id="root"></div></body></html>`,
);
mkdirSync(path.join(dist, '.vite'), { recursive: true });
writeFileSync(
  path.join(dist, '.vite', 'manifest.json'),
  JSON.stringify({
    'index.html': {
      file: 'assets/index.js',
      src: 'index.html',
      isEntry: true,
      imports: ['_runtime.js', '_shared.js'],
      css: ['assets/index.css'],
      dynamicImports: ['locales/en/messages.po?first-screen', 'locales/km/messages.po?first-screen', 'src/routes/exam.tsx'],
    },
    '_runtime.js': { file: 'assets/runtime.js' },
    '_shared.js': { file: 'assets/shared.js', imports: ['_runtime.js'], css: ['assets/shared.css'] },
    '_plural-rules.js': { file: 'assets/plural-rules.js' },
    'locales/en/messages.po?first-screen': {
      file: 'assets/messages-en.js',
      src: 'locales/en/messages.po?first-screen',
      isDynamicEntry: true,
      imports: ['_plural-rules.js'],
      dynamicImports: ['locales/en/messages.po?later'],
    },
    'locales/en/messages.po?later': { file: 'assets/messages-en-later.js', src: 'locales/en/messages.po?later', isDynamicEntry: true },
    'locales/km/messages.po?first-screen': { file: 'assets/messages-km.js', src: 'locales/km/messages.po?first-screen', isDynamicEntry: true },
    'src/routes/exam.tsx': { file: 'assets/exam-route.js', src: 'src/routes/exam.tsx', isDynamicEntry: true, css: ['assets/exam-route.css'] },
  }),
);

describe('what loads before the first screen', () => {
  it('reads the files index.html loads itself: its module script, module preloads and stylesheets on this origin', () => {
    expect(filesOfIndexHtml(`${'<link rel="icon" href="/favicon.svg">'}<script type="module" src="/assets/a.js"></script>`)).toEqual(['assets/a.js']);
    const html = `<script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" href="/assets/runtime.js"><link rel="stylesheet" href="/assets/index.css"><link rel="preconnect" href="https://x.example"><link rel="stylesheet" href="https://cdn.example/x.css">`;
    expect(filesOfIndexHtml(html)).toEqual(['assets/index.js', 'assets/runtime.js', 'assets/index.css']);
  });

  it('counts index.html\'s files, the entry\'s imports and stylesheets, and the first screen\'s part of the language\'s catalog with its imports, each once', () => {
    const load = firstScreenLoad(dist, 'en');
    const counted = [
      'assets/index.js',
      'assets/runtime.js',
      'assets/index.css',
      'assets/shared.js',
      'assets/shared.css',
      'assets/messages-en.js',
      'assets/plural-rules.js',
    ];
    expect(load.files.map((f) => f.file).sort()).toEqual([...counted].sort());
    expect(load.gzipBytes).toBe(counted.reduce((sum, file) => sum + gz(file, files[file]!), 0));
    for (const f of load.files) expect(f.bytes).toBeGreaterThanOrEqual(files[f.file]!);
  });

  it('counts the chosen language\'s catalog, not the others', () => {
    const files = firstScreenLoad(dist, 'km').files.map((f) => f.file);
    expect(files).toContain('assets/messages-km.js');
    expect(files).not.toContain('assets/messages-en.js');
    expect(files).not.toContain('assets/exam-route.js');
  });

  it('leaves out the catalog\'s later part: it loads after the first screen', () => {
    expect(firstScreenLoad(dist, 'en').files.map((f) => f.file)).not.toContain('assets/messages-en-later.js');
  });

  it('counts more than the entry\'s JavaScript alone: the stylesheets and the catalog load before the first screen too', () => {
    const javaScript = firstScreenSize(dist);
    expect(javaScript.files.map((f) => f.file).sort()).toEqual(['assets/index.js', 'assets/runtime.js', 'assets/shared.js']);
    expect(firstScreenLoad(dist, 'en').gzipBytes).toBeGreaterThan(javaScript.gzipBytes);
  });

  it('holds the whole load to the budget: over it when the stylesheets and the catalog push it past, though the JavaScript alone fits', () => {
    const load = firstScreenLoad(dist, 'en').gzipBytes;
    const javaScript = firstScreenSize(dist).gzipBytes;
    const between = (javaScript + load) / 2 / 1000;
    expect(checkFirstScreen(dist, 'en', between).overBytes).toBe(load - between * 1000);
    expect(checkFirstScreen(dist, 'en', load / 1000).overBytes).toBe(0);
    expect(checkFirstScreen(dist, 'en', (load - 1) / 1000).overBytes).toBe(1);
  });

  it('refuses a language the build has no catalog for, and a manifest that names a missing import', () => {
    expect(() => firstScreenLoad(dist, 'xx')).toThrow('has no chunk for locales/xx/messages.po?first-screen');
    const broken = mkdtempSync(path.join(os.tmpdir(), 'gradus-check-bundle-broken-'));
    try {
      mkdirSync(path.join(broken, '.vite'));
      writeFileSync(path.join(broken, 'index.html'), '<script type="module" src="/assets/index.js"></script>');
      writeFileSync(
        path.join(broken, '.vite', 'manifest.json'),
        JSON.stringify({ 'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_gone.js'] } }),
      );
      expect(() => firstScreenLoad(broken, 'en')).toThrow('imports _gone.js, which the manifest does not list');
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
