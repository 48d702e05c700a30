/**
 * First-screen size budget (a step of `npm test`, after the build).
 *
 * Reads the build's manifest (dist/.vite/manifest.json, `build.manifest` in vite.config.ts) and
 * index.html, and adds up the gzip size (level 9, as the server's precompressed copies) of
 * everything a terminal loads before the first screen (/login-code) shows (`firstScreenLoad`):
 * index.html's module scripts, module preloads and stylesheets, the entry's static imports
 * (transitively) and their stylesheets, and the first screen's part of the source language's
 * catalog with its imports. Lazily loaded chunks (route views, the rest of the catalog, other
 * languages, KaTeX, Adyen, the score report) are not counted: they load later, or not at all. It
 * prints each file, the entry's JavaScript alone (`firstScreenSize`) and the total against the
 * budget, and exits 1 when the total is above it (`checkFirstScreen`).
 *
 *   npm run build && node scripts/check-bundle.ts [--budget=150]   (kB, 1 kB = 1000 bytes)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import linguiConfig from '../lingui.config.ts';

/**
 * The budget in kB of gzip for everything loaded before the first screen. What keeps it there:
 * every route's view but the first screen's is lazy (src/routes/), the machines of the exam, the
 * proctor page, the terminal check and the print route load on demand (machines/kiosk/kiosk.lazy.ts),
 * so do the staff API, IndexedDB's ports and the terminal check's browser work (src/app/environment.ts)
 * and the service worker's module (src/main.tsx); everything left is one chunk (vite.config.ts,
 * `codeSplitting`); only the first screen's messages load before it, the rest of the catalog
 * after (scripts/lib/catalog-parts-plugin.ts). Never raise it: load what the first screen does
 * not need lazily instead.
 */
export const FIRST_SCREEN_BUDGET_KB = 150;

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

export type FirstScreenSize = { files: Array<{ file: string; bytes: number; gzipBytes: number }>; gzipBytes: number };

function readManifest(distDir: string): { manifest: Manifest; manifestFile: string; entry: ManifestChunk } {
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: run \`npm run build\` first (build.manifest in vite.config.ts)`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const entry = manifest['index.html'];
  if (!entry?.isEntry) throw new Error(`${manifestFile} has no entry for index.html`);
  return { manifest, manifestFile, entry };
}

/** Adds up the gzip sizes (level 9) of these files of dist/, each once. */
function sizeOf(distDir: string, files: Iterable<string>): FirstScreenSize {
  const counted = [...new Set(files)].map((file) => {
    const content = readFileSync(path.join(distDir, file));
    return { file, bytes: content.byteLength, gzipBytes: gzipSync(content, { level: 9 }).byteLength };
  });
  return { files: counted, gzipBytes: counted.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

/** A chunk's file, its static imports' (transitively) and, with `css`, their stylesheets. */
function staticClosure(
  manifest: Manifest,
  manifestFile: string,
  chunk: ManifestChunk,
  css: boolean,
  into = new Set<string>(),
  visited = new Set<ManifestChunk>(),
): Set<string> {
  if (visited.has(chunk)) return into;
  visited.add(chunk);
  into.add(chunk.file);
  if (css) for (const sheet of chunk.css ?? []) into.add(sheet);
  for (const key of chunk.imports ?? []) {
    const imported = manifest[key];
    if (!imported) throw new Error(`${manifestFile}: ${chunk.file} imports ${key}, which the manifest does not list`);
    staticClosure(manifest, manifestFile, imported, css, into, visited);
  }
  return into;
}

/** The entry chunk of index.html and its static imports (JavaScript only), with their gzip sizes. */
export function firstScreenSize(distDir: string): FirstScreenSize {
  const { manifest, manifestFile, entry } = readManifest(distDir);
  return sizeOf(distDir, [...staticClosure(manifest, manifestFile, entry, false)].filter((file) => file.endsWith('.js')));
}

/** The files index.html itself loads: module scripts, module preloads and stylesheets on our own origin. */
export function filesOfIndexHtml(html: string): string[] {
  const files: string[] = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /\btype=["']?module/.test(tag);
    const isLoadedLink = tag.startsWith('<link') && /\brel=["']?(?:modulepreload|stylesheet)\b/.test(tag);
    if (!isScript && !isLoadedLink) continue;
    const url = /\b(?:src|href)=["']?([^"' >]+)/.exec(tag)?.[1];
    if (url?.startsWith('/') && !url.startsWith('//')) files.push(url.slice(1));
  }
  return files;
}

/**
 * Everything a terminal loads before the first screen (/login-code) shows: what index.html loads
 * or preloads (scripts, module preloads, stylesheets), the entry chunk's static imports and their
 * stylesheets, and the first screen's part of the catalog of `locale` (`messages.po?first-screen`)
 * with its static imports (src/main.tsx loads it in the pupil's language before the first paint;
 * a fresh terminal's is the source language; the rest of the catalog loads after).
 */
export function firstScreenLoad(distDir: string, locale: string): FirstScreenSize {
  const { manifest, manifestFile, entry } = readManifest(distDir);
  const files = new Set(filesOfIndexHtml(readFileSync(path.join(distDir, 'index.html'), 'utf8')));
  staticClosure(manifest, manifestFile, entry, true, files);
  const catalog = Object.values(manifest).find((chunk) => chunk.src === `locales/${locale}/messages.po?first-screen`);
  if (!catalog) throw new Error(`${manifestFile} has no chunk for locales/${locale}/messages.po?first-screen`);
  staticClosure(manifest, manifestFile, catalog, true, files);
  return sizeOf(distDir, files);
}

/** The budget's verdict: the whole first load against `budgetKb`, beside the entry's JavaScript alone. */
export function checkFirstScreen(
  distDir: string,
  locale: string,
  budgetKb = FIRST_SCREEN_BUDGET_KB,
): { load: FirstScreenSize; javaScript: FirstScreenSize; overBytes: number } {
  const load = firstScreenLoad(distDir, locale);
  return { load, javaScript: firstScreenSize(distDir), overBytes: Math.max(0, load.gzipBytes - budgetKb * 1000) };
}

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

if (import.meta.main) {
  const budgetArg = process.argv.find((a) => a.startsWith('--budget='));
  const budgetKb = budgetArg ? Number(budgetArg.slice('--budget='.length)) : FIRST_SCREEN_BUDGET_KB;
  const distDir = path.resolve(import.meta.dirname, '..', 'dist');
  const locale = linguiConfig.sourceLocale ?? 'en';
  let result: ReturnType<typeof checkFirstScreen>;
  try {
    result = checkFirstScreen(distDir, locale, budgetKb);
  } catch (error) {
    console.error(`check-bundle: ${(error as Error).message}`);
    process.exit(2);
  }
  const { load, javaScript, overBytes } = result;
  for (const f of [...load.files].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    console.log(`  ${f.file.padEnd(44)} ${kB(f.bytes).padStart(10)}  gzip ${kB(f.gzipBytes).padStart(9)}`);
  }
  console.log(`of which the entry's JavaScript: ${javaScript.files.length} files, ${kB(javaScript.gzipBytes)} gzip`);
  const line =
    `everything before the first screen (/login-code: index.html's files, the entry's imports and stylesheets, the first screen's ${locale} messages): ` +
    `${load.files.length} files, ${kB(load.gzipBytes)} gzip; budget ${budgetKb} kB`;
  if (overBytes > 0) {
    console.error(`${line}\ncheck-bundle FAILED: the first screen's load is ${kB(overBytes)} over budget.`);
    console.error('Load what the first screen does not need lazily (a route view: lazyRouteComponent in src/routes/*.tsx).');
    process.exit(1);
  }
  console.log(line);
}
