/**
 * GET /score-report/pdf-report and GET /get-certificate: the score report and the certificate as
 * PDFs (application/pdf, with a file name).
 *
 * The caller's rights are checked on every request, before anything else is answered: usually
 * in one statement with the token and the stored document's ETag (grantStoredDocument,
 * server/documents/access.ts); whatever that does not grant goes the long way (authentication,
 * grantDocument), which answers why. Then the document is served with a strong ETag (304 on a
 * matching If-None-Match, before any byte is read), its length and `Cache-Control: private` (the
 * pupil's own browser may keep it, no shared cache): streamed from its file under `directory`
 * (server/documents/files.ts) the way a static file is, the file written from the database row
 * when it is missing; without `directory`, from the row itself. Chromium only heals a missing
 * document (another language, or a job that has not run yet): it prints it once (one print per
 * document at a time in this process), stores it, and it is served.
 *
 * Chromium opens `${PUBLIC_ORIGIN or this server's own loopback address}/score-report-embed/{id}`
 * with a token of a few minutes for the same pupil and sitting. Never the request's Host header:
 * a forged Host must not receive a token.
 */
import { createReadStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { DocumentQuerySchema } from '../../contract/documents.ts';
import { DomainError } from '../domain/errors.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { authenticatePupil, bearerToken } from '../http/middleware.ts';
import { parseWith } from '../http/validate.ts';
import { grantDocument, grantStoredDocument, type DocumentKind } from './access.ts';
import { documentFiles } from './files.ts';
import { sharedRenderer, type DocumentRenderer } from './renderer.ts';
import { chosenLanguage, documentLanguages, findDocument, languageOf, printDocument, storeDocument, type StoredDocument } from './store.ts';

export { DOCUMENT_TOKEN_TTL_MS } from './store.ts';

export type DocumentRouteOptions = {
  /** Default: the process's shared Chromium renderer. */
  renderer?: DocumentRenderer;
  /** Where Chromium opens the app (env PUBLIC_ORIGIN); default: this server on 127.0.0.1. */
  publicOrigin?: string;
  /** Where stored documents are kept as files (server/documents/files.ts); none: served from the database. */
  directory?: string;
};

/** Where Chromium reaches this server: the configured origin, else this server's own loopback port (never the Host header). */
export function ownOrigin(c: Context<AppEnv>, configured: string | undefined): string {
  if (configured) return new URL(configured).origin;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const port = incoming?.socket?.localPort;
  if (!port) throw new DomainError('DOCUMENT_UNAVAILABLE', 'Set PUBLIC_ORIGIN: the PDF renderer cannot tell where this server listens.');
  return `http://127.0.0.1:${port}`;
}

/** True when the If-None-Match header names this ETag (or is `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

export function documentRoutes(deps: AppDeps, options: DocumentRouteOptions = {}): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const publicOrigin = options.publicOrigin ?? process.env.PUBLIC_ORIGIN;
  const files = options.directory === undefined ? undefined : documentFiles(options.directory);

  /** Prints in flight in this process, so concurrent first downloads print once. */
  const healing = new Map<string, Promise<StoredDocument>>();

  /** The long way: who is calling (or why not), their rights (or why not), the document (printed if missing). */
  async function grantedAndStored(c: Context<AppEnv>, kind: DocumentKind) {
    const principal = await authenticatePupil(deps, c);
    c.set('principal', principal);
    const query = parseWith(DocumentQuerySchema, c.req.query(), 'query');
    const now = c.get('now');
    const grant = await grantDocument(deps.db, principal, query.schedule_history_id, kind, now);
    const locale = languageOf(query.locale, c.get('headers').locale, grant.examLocale);
    let stored = await findDocument(deps.db, grant.scheduleHistoryId, kind, locale);
    if (!stored) {
      const key = `${grant.scheduleHistoryId}:${kind}:${locale}`;
      let printing = healing.get(key);
      if (!printing) {
        const origin = ownOrigin(c, publicOrigin);
        const renderer = options.renderer ?? sharedRenderer(deps.logger);
        printing = printDocument(deps.db, { renderer, origin }, {
          examineeId: principal.examineeId,
          scheduleHistoryId: grant.scheduleHistoryId,
          kind,
          locale,
          now,
          loginType: principal.loginType,
        })
          .then((bytes) => storeDocument(deps.db, { scheduleHistoryId: grant.scheduleHistoryId, kind, locale, bytes, now }))
          .finally(() => healing.delete(key));
        healing.set(key, printing);
      }
      stored = await printing;
    }
    return { scheduleHistoryId: grant.scheduleHistoryId, locale, stored };
  }

  async function pdf(c: Context<AppEnv>, kind: DocumentKind) {
    // The usual way: rights and the stored document's ETag in one statement.
    const query = v.safeParse(DocumentQuerySchema, c.req.query());
    const token = bearerToken(c.get('headers').authorization);
    const fast =
      query.success && token
        ? await grantStoredDocument(deps.db, {
            token,
            scheduleHistoryId: query.output.schedule_history_id,
            kind,
            locale: chosenLanguage(query.output.locale, c.get('headers').locale),
            now: c.get('now'),
            selectable: documentLanguages,
          })
        : undefined;
    let document: { scheduleHistoryId: number; locale: string; etag: string; bytes?: Uint8Array };
    if (fast && query.success) {
      c.set('principal', fast.principal);
      document = { scheduleHistoryId: query.output.schedule_history_id, locale: fast.locale, etag: fast.etag };
    } else {
      const { scheduleHistoryId, locale, stored } = await grantedAndStored(c, kind);
      document = { scheduleHistoryId, locale, etag: stored.etag, bytes: stored.bytes };
    }

    const name = kind === 'certificate' ? `certificate-${document.scheduleHistoryId}.pdf` : `score-report-${document.scheduleHistoryId}.pdf`;
    const headers = { ETag: document.etag, 'Cache-Control': 'private, no-cache', Vary: 'Authorization' };
    if (matches(c.req.header('If-None-Match'), document.etag)) return c.body(null, 304, headers);
    const pdfHeaders = { ...headers, 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"` };

    const file = files?.find(document.etag);
    if (file) {
      const length = { 'Content-Length': String(file.size) };
      if (c.req.method === 'HEAD') return c.body(null, 200, { ...pdfHeaders, ...length });
      return c.body(Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array<ArrayBuffer>>, 200, { ...pdfHeaders, ...length });
    }
    const bytes = document.bytes ?? (await findDocument(deps.db, document.scheduleHistoryId, kind, document.locale))?.bytes;
    if (!bytes) throw new DomainError('DOCUMENT_UNAVAILABLE');
    if (files) {
      try {
        await files.keep(document.etag, bytes);
      } catch (error) {
        deps.logger.error(`${kind} ${document.locale} of ${document.scheduleHistoryId}: keeping its file failed`, error);
      }
    }
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { ...pdfHeaders, 'Content-Length': String(bytes.byteLength) });
  }

  routes.get('/score-report/pdf-report', (c) => pdf(c, 'report'));
  routes.get('/get-certificate', (c) => pdf(c, 'certificate'));
  return routes;
}
