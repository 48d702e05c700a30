/**
 * First-screen size budget (a step of `npm test`, after the build).
 *
 * Reads the build's manifest (dist/.vite/manifest.json, `build.manifest` in vite.config.ts) and
 * adds up the gzip size (level 9, as the server's precompressed copies) of the JavaScript a
 * terminal must load before the first screen (/login-code) can run: index.html's entry chunk and
 * every chunk it imports statically, transitively. Lazily loaded chunks (route views, catalogs,
 * KaTeX, Adyen, the score report) are not counted: they load later, or not at all. Prints one
 * line per file, then the total, and exits 1 when the total is above the budget.
 *
 *   npm run build && node scripts/check-bundle.ts [--budget=150]   (kB, 1 kB = 1000 bytes)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The budget in kB of gzip for the first screen's JavaScript. What keeps it there:
 * every route's view but the first screen's is lazy (src/routes/), the machines of the exam, the
 * proctor page, the terminal check and the print route load on demand (machines/kiosk/kiosk.lazy.ts),
 * so do the staff API, IndexedDB's ports and the terminal check's browser work (src/app/environment.ts)
 * and the service worker's module (src/main.tsx); everything left is one chunk (vite.config.ts,
 * `codeSplitting`). Never raise it: load what the first screen does not need lazily instead.
 */
export const FIRST_SCREEN_BUDGET_KB = 150;

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestChunk>;

export type FirstScreenSize = { files: Array<{ file: string; bytes: number; gzipBytes: number }>; gzipBytes: number };

/** The entry chunk of index.html and its static imports, with their gzip sizes. */
export function firstScreenSize(distDir: string): FirstScreenSize {
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: run \`npm run build\` first (build.manifest in vite.config.ts)`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const entry = manifest['index.html'];
  if (!entry?.isEntry) throw new Error(`${manifestFile} has no entry for index.html`);
  const seen = new Set<string>();
  const files: FirstScreenSize['files'] = [];
  const visit = (chunk: ManifestChunk): void => {
    if (seen.has(chunk.file)) return;
    seen.add(chunk.file);
    if (chunk.file.endsWith('.js')) {
      const content = readFileSync(path.join(distDir, chunk.file));
      files.push({ file: chunk.file, bytes: content.byteLength, gzipBytes: gzipSync(content, { level: 9 }).byteLength });
    }
    for (const key of chunk.imports ?? []) {
      const imported = manifest[key];
      if (!imported) throw new Error(`${manifestFile}: ${chunk.file} imports ${key}, which the manifest does not list`);
      visit(imported);
    }
  };
  visit(entry);
  return { files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

if (import.meta.main) {
  const budgetArg = process.argv.find((a) => a.startsWith('--budget='));
  const budgetKb = budgetArg ? Number(budgetArg.slice('--budget='.length)) : FIRST_SCREEN_BUDGET_KB;
  const distDir = path.resolve(import.meta.dirname, '..', 'dist');
  let size: FirstScreenSize;
  try {
    size = firstScreenSize(distDir);
  } catch (error) {
    console.error(`check-bundle: ${(error as Error).message}`);
    process.exit(2);
  }
  for (const f of size.files.sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    console.log(`  ${f.file.padEnd(44)} ${kB(f.bytes).padStart(10)}  gzip ${kB(f.gzipBytes).padStart(9)}`);
  }
  const line = `first screen (/login-code): ${size.files.length} JS files, ${kB(size.gzipBytes)} gzip; budget ${budgetKb} kB`;
  if (size.gzipBytes > budgetKb * 1000) {
    console.error(`${line}\ncheck-bundle FAILED: the first screen's JavaScript is ${kB(size.gzipBytes - budgetKb * 1000)} over budget.`);
    console.error('Load what the first screen does not need lazily (a route view: lazyRouteComponent in src/routes/*.tsx).');
    process.exit(1);
  }
  console.log(line);
}
