/**
 * GET /score-report/pdf-report and GET /get-certificate: the score report and the certificate as
 * PDFs (application/pdf, with a file name).
 *
 * The caller's rights are checked first (server/documents/access.ts), on every request; then the
 * document is served from the database (server/documents/store.ts), where the `document` job put
 * it at the release, with a strong ETag (304 on a matching If-None-Match), its length, and
 * `Cache-Control: private` (the pupil's own browser may keep it, no shared cache). Chromium only
 * heals a missing document (another language, or a job that has not run yet): it prints it
 * once (one print per document at a time in this process), stores it, and it is served.
 *
 * Chromium opens `${PUBLIC_ORIGIN or this server's own loopback address}/score-report-embed/{id}`
 * with a token of a few minutes for the same pupil and sitting. Never the request's Host header:
 * a forged Host must not receive a token.
 */
import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import { DocumentQuerySchema } from '../../contract/documents.ts';
import { DomainError } from '../domain/errors.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { parseWith } from '../http/validate.ts';
import { grantDocument, type DocumentKind } from './access.ts';
import { sharedRenderer, type DocumentRenderer } from './renderer.ts';
import { findDocument, languageOf, printDocument, storeDocument, type StoredDocument } from './store.ts';

export { DOCUMENT_TOKEN_TTL_MS } from './store.ts';

export type DocumentRouteOptions = {
  /** Default: the process's shared Chromium renderer. */
  renderer?: DocumentRenderer;
  /** Where Chromium opens the app (env PUBLIC_ORIGIN); default: this server on 127.0.0.1. */
  publicOrigin?: string;
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
  const login = requireLogin(deps);
  const publicOrigin = options.publicOrigin ?? process.env.PUBLIC_ORIGIN;

  /** Prints in flight in this process, so concurrent first downloads print once. */
  const healing = new Map<string, Promise<StoredDocument>>();

  async function pdf(c: Context<AppEnv>, kind: DocumentKind) {
    const query = parseWith(DocumentQuerySchema, c.req.query(), 'query');
    const principal = c.get('principal');
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
    const name = kind === 'certificate' ? `certificate-${grant.scheduleHistoryId}.pdf` : `score-report-${grant.scheduleHistoryId}.pdf`;
    const headers = { ETag: stored.etag, 'Cache-Control': 'private, no-cache', Vary: 'Authorization' };
    if (matches(c.req.header('If-None-Match'), stored.etag)) return c.body(null, 304, headers);
    return c.body(stored.bytes as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Type': 'application/pdf',
      'Content-Length': String(stored.bytes.byteLength),
      'Content-Disposition': `attachment; filename="${name}"`,
    });
  }

  routes.get('/score-report/pdf-report', login, (c) => pdf(c, 'report'));
  routes.get('/get-certificate', login, (c) => pdf(c, 'certificate'));
  return routes;
}
