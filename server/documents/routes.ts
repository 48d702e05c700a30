/**
 * GET /score-report/pdf-report and GET /get-certificate: the score report and the certificate as
 * PDFs (application/pdf, with a file name), printed by Chromium from the app's print route.
 *
 * The caller's rights are checked first (server/documents/access.ts); then a token of a few
 * minutes is issued for the same examinee and sitting, and only Chromium sees it: it opens
 * `${PUBLIC_ORIGIN or this server's own loopback address}/score-report-embed/{id}?token=...`.
 * Never the request's Host header: a forged Host must not receive a token.
 */
import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import { DocumentQuerySchema } from '../../contract/documents.ts';
import { catalogKeys, languages, type LanguageKey } from '../../contract/languages.ts';
import { DomainError } from '../domain/errors.ts';
import { issueToken } from '../domain/tokens.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { parseWith } from '../http/validate.ts';
import { grantDocument, type DocumentKind } from './access.ts';
import { sharedRenderer, type DocumentRenderer } from './renderer.ts';

/** How long the renderer's token lives: enough to open and print one page. */
export const DOCUMENT_TOKEN_TTL_MS = 5 * 60_000;

export type DocumentRouteOptions = {
  /** Default: the process's shared Chromium renderer. */
  renderer?: DocumentRenderer;
  /** Where Chromium opens the app (env PUBLIC_ORIGIN); default: this server on 127.0.0.1. */
  publicOrigin?: string;
};

const selectable: readonly string[] = [...catalogKeys, 'ar-nu-arab'];

function languageOf(...candidates: (string | null | undefined)[]): LanguageKey {
  for (const candidate of candidates) if (candidate && selectable.includes(candidate)) return candidate as LanguageKey;
  return 'en';
}

/** Where Chromium reaches this server: the configured origin, else this server's own loopback port (never the Host header). */
export function ownOrigin(c: Context<AppEnv>, configured: string | undefined): string {
  if (configured) return new URL(configured).origin;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const port = incoming?.socket?.localPort;
  if (!port) throw new DomainError('DOCUMENT_UNAVAILABLE', 'Set PUBLIC_ORIGIN: the PDF renderer cannot tell where this server listens.');
  return `http://127.0.0.1:${port}`;
}

export function documentRoutes(deps: AppDeps, options: DocumentRouteOptions = {}): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const login = requireLogin(deps);
  const publicOrigin = options.publicOrigin ?? process.env.PUBLIC_ORIGIN;

  async function pdf(c: Context<AppEnv>, kind: DocumentKind) {
    const query = parseWith(DocumentQuerySchema, c.req.query(), 'query');
    const principal = c.get('principal');
    const now = c.get('now');
    const grant = await grantDocument(deps.db, principal, query.schedule_history_id, kind, now);
    const language = languageOf(query.locale, c.get('headers').locale, grant.examLocale);
    const origin = ownOrigin(c, publicOrigin);
    const token = await issueToken(deps.db, {
      examineeId: principal.examineeId,
      scheduleHistoryId: grant.scheduleHistoryId,
      now,
      ttlMs: DOCUMENT_TOKEN_TTL_MS,
      ...(principal.loginType === null ? {} : { loginType: principal.loginType }),
    });
    const search = new URLSearchParams({ token, locale: language, document: kind });
    const renderer = options.renderer ?? sharedRenderer(deps.logger);
    const body = await renderer.render({
      url: `${origin}/score-report-embed/${grant.scheduleHistoryId}?${search}`,
      landscape: kind === 'certificate',
      browserLocale: languages[language].tag,
    });
    const name = kind === 'certificate' ? `certificate-${grant.scheduleHistoryId}.pdf` : `score-report-${grant.scheduleHistoryId}.pdf`;
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
    });
  }

  routes.get('/score-report/pdf-report', login, (c) => pdf(c, 'report'));
  routes.get('/get-certificate', login, (c) => pdf(c, 'certificate'));
  return routes;
}
