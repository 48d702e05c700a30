/**
 * Serves the built client (Vite's dist/) beside the API, for `npm start`:
 * - /assets/* are content-hashed: cached for a year, immutable; a missing one is a plain 404;
 * - other files as they are, revalidated on every use;
 * - any other GET is a client-side route (/start, /login-code...): index.html, never cached
 *   without revalidation, so a reload on any screen works and a new release is picked up at once.
 * /api is never touched here: its unknown routes are JSON 404s from the API itself.
 *
 * Compression: the build writes a brotli (`.br`) and a gzip (`.gz`) copy
 * beside every text file worth it (scripts/lib/compress-plugin.ts). A request gets the copy its
 * Accept-Encoding takes (brotli first; server/http/compression.ts), with `Content-Encoding`, or
 * the file itself; every answer of such a file says `Vary: Accept-Encoding`, so a cache never
 * hands brotli to a browser that asked for none. Each variant has its own strong ETag (the
 * file's SHA-256, plus `-br` / `-gz`), the same in every API process; a request whose
 * If-None-Match names it (or whose If-Modified-Since is not older than the file) is a 304
 * without a body. Files are streamed from disk, looked up on each request (a rebuild under a
 * running server is served at once); the hash of a file is kept until the file changes.
 * Range requests are answered with the whole file (allowed by RFC 9110, 14.2).
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { chooseEncoding, type Encoding } from './compression.ts';
import type { AppEnv } from './env.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Extensions the build may have compressed copies of (text, and fonts that are not compressed already). */
export const COMPRESSIBLE_EXTENSIONS = ['.html', '.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml', '.ttf', '.map'];
/** The suffix of each encoding's copy. */
export const ENCODED_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

type Variant = { file: string; size: number; etag: string };
type Entry = { mtimeMs: number; size: number; identity: Variant; encoded: Partial<Record<Encoding, Variant>>; compressible: boolean };

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Whether an If-None-Match header names this ETag (weak comparison, a list, or `*`). */
function matches(ifNoneMatch: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === bare;
  });
}

export function serveClient(app: Hono<AppEnv>, distDir: string): void {
  const root = path.resolve(distDir);
  if (!existsSync(path.join(root, 'index.html'))) {
    app.get('*', (c) => c.text('The client is not built yet: run `npm run build`, then start the server again.', 503));
    return;
  }

  const entries = new Map<string, Entry>();
  /** The file's entry (variants and ETags), rebuilt when the file changed; undefined when there is no such file. */
  const entryOf = (file: string): Entry | undefined => {
    const stats = statOf(file);
    if (!stats?.isFile()) return undefined;
    const known = entries.get(file);
    if (known && known.mtimeMs === stats.mtimeMs && known.size === stats.size) return known;
    const hash = createHash('sha256').update(readFileSync(file)).digest('base64url').slice(0, 27);
    const compressible = COMPRESSIBLE_EXTENSIONS.includes(path.extname(file).toLowerCase());
    const encoded: Entry['encoded'] = {};
    if (compressible) {
      for (const [encoding, suffix] of Object.entries(ENCODED_SUFFIX) as [Encoding, string][]) {
        const copy = statOf(file + suffix);
        // A copy older than the file is left over from an earlier build: never serve it.
        if (copy?.isFile() && copy.mtimeMs >= stats.mtimeMs) {
          encoded[encoding] = { file: file + suffix, size: copy.size, etag: `"${hash}-${suffix.slice(1)}"` };
        }
      }
    }
    const entry: Entry = { mtimeMs: stats.mtimeMs, size: stats.size, identity: { file, size: stats.size, etag: `"${hash}"` }, encoded, compressible };
    entries.set(file, entry);
    return entry;
  };

  /** The file a request path names inside dist/, or undefined (outside it, malformed, a directory without index.html). */
  const fileFor = (requestPath: string): string | undefined => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(requestPath);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0') || /(?:^|[/\\])\.{1,2}(?:$|[/\\])|[/\\]{2,}|\\/.test(decoded)) return undefined;
    let file = path.join(root, decoded);
    if (file !== root && !file.startsWith(root + path.sep)) return undefined;
    if (statOf(file)?.isDirectory()) file = path.join(file, 'index.html');
    return file;
  };

  const send = (c: Context<AppEnv>, file: string, cacheControl: string): Response | undefined => {
    const entry = entryOf(file);
    if (!entry) return undefined;
    const offered = (['br', 'gzip'] as const).filter((encoding) => entry.encoded[encoding] !== undefined);
    const encoding = offered.length > 0 ? chooseEncoding(c.req.header('Accept-Encoding'), offered) : undefined;
    const variant = encoding === undefined ? entry.identity : entry.encoded[encoding]!;
    const headers: Record<string, string> = {
      'Content-Type': getMimeType(file) ?? 'application/octet-stream',
      'Cache-Control': cacheControl,
      ETag: variant.etag,
      'Last-Modified': new Date(entry.mtimeMs).toUTCString(),
    };
    if (entry.compressible && offered.length > 0) headers.Vary = 'Accept-Encoding';
    const ifNoneMatch = c.req.header('If-None-Match');
    const ifModifiedSince = c.req.header('If-Modified-Since');
    const notModified =
      ifNoneMatch !== undefined
        ? matches(ifNoneMatch, variant.etag)
        : ifModifiedSince !== undefined && Math.floor(entry.mtimeMs / 1000) * 1000 <= Date.parse(ifModifiedSince);
    if (notModified) return c.body(null, 304, headers);
    if (encoding !== undefined) headers['Content-Encoding'] = encoding;
    headers['Content-Length'] = String(variant.size);
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    const stream = Readable.toWeb(createReadStream(variant.file)) as ReadableStream<Uint8Array>;
    return c.body(stream, 200, headers);
  };

  const files =
    (cacheControl: string): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      const file = fileFor(c.req.path);
      const response = file === undefined ? undefined : send(c, file, cacheControl);
      return response ?? next();
    };
  const indexHtml: MiddlewareHandler<AppEnv> = async (c, next) => send(c, path.join(root, 'index.html'), REVALIDATE) ?? next();
  const notFound: MiddlewareHandler<AppEnv> = async (c) => {
    c.header('Cache-Control', REVALIDATE);
    return c.text('Not found', 404);
  };
  app.get('/assets/*', files(IMMUTABLE), notFound);
  app.get('*', files(REVALIDATE), indexHtml, notFound);
}
