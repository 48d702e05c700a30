/**
 * A Vite plugin that precompresses the build: after everything else has
 * written dist/ (the service worker included: `closeBundle`, order `post`), every text file
 * worth it gets a brotli copy (`<file>.br`) and a gzip copy (`<file>.gz`, level 9) beside it,
 * which server/http/client-files.ts sends to browsers that take them. Brotli's densest quality
 * (11) is 7 % smaller than quality 9 on the main chunk but 16 times slower (2.4 s for 630 kB here),
 * so it goes where every terminal pays: index.html and the files it names (the entry chunk, its
 * preloads and stylesheet); every other file (lazily loaded chunks, catalogs, Adyen, KaTeX) gets
 * quality 9. That keeps the step to a few seconds of the build. Source maps are left out (only developer tools read them), and so are files under
 * MIN_BYTES and copies that would save less than 5 %: those go out as they are. Work runs on
 * zlib's thread pool, a few files at a time. Prints what it did: files, bytes before, after.
 */
import { availableParallelism } from 'node:os';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files and uncompressed fonts; .woff2 and images are compressed already. */
const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|webmanifest|txt|xml|ttf)$/i;
const MIN_BYTES = 512;
const WORTH_IT = 0.95;

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** index.html and the files it loads or preloads (`src` and `href` attributes naming our own files). */
async function firstScreenFiles(directory: string): Promise<Set<string>> {
  const index = path.join(directory, 'index.html');
  const named = new Set<string>([index]);
  let html: string;
  try {
    html = await readFile(index, 'utf8');
  } catch {
    return named;
  }
  for (const match of html.matchAll(/\s(?:src|href)="\/([^"?#]+)"/g)) named.add(path.join(directory, match[1]!));
  return named;
}

export type CompressionSummary = { files: number; bytes: number; brotliBytes: number; gzipBytes: number };

/** Writes the .br and .gz copies of the compressible files under `directory` (also used by tests). */
export async function precompressDirectory(directory: string): Promise<CompressionSummary> {
  const files = (await filesUnder(directory)).filter((file) => COMPRESSIBLE.test(file));
  const densest = await firstScreenFiles(directory);
  const summary: CompressionSummary = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if ((await stat(file)).size < MIN_BYTES) continue;
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: densest.has(file) ? constants.BROTLI_MAX_QUALITY : 9,
            [constants.BROTLI_PARAM_MODE]: /\.ttf$/i.test(file) ? constants.BROTLI_MODE_FONT : constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      let written = false;
      if (br.byteLength < content.byteLength * WORTH_IT) {
        await writeFile(`${file}.br`, br);
        summary.brotliBytes += br.byteLength;
        written = true;
      }
      if (gz.byteLength < content.byteLength * WORTH_IT) {
        await writeFile(`${file}.gz`, gz);
        summary.gzipBytes += gz.byteLength;
        written = true;
      }
      if (written) {
        summary.files++;
        summary.bytes += content.byteLength;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
  return summary;
}

export function compressPlugin(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'gradus-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!config || config.build.ssr || config.build.write === false) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const started = performance.now();
        const s = await precompressDirectory(outDir);
        const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
        config.logger.info(
          `precompressed ${s.files} files (${kb(s.bytes)}): brotli ${kb(s.brotliBytes)}, gzip ${kb(s.gzipBytes)} ` +
            `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      },
    },
  };
}
