/**
 * Documents at rest: a released sitting's score report and certificate are printed once per
 * language and kept in `documents` (bytes and a strong ETag, the SHA-256 of the bytes); downloads
 * are served from there (server/documents/routes.ts). A released result never changes, so a
 * stored document never goes stale.
 *
 * Promises:
 * - `printDocument` prints through the renderer (Chromium) with a token of a few minutes for the
 *   sitting's own pupil; it is never called inside a transaction (Chromium reads this server);
 * - `storeDocument` keeps the first copy of (sitting, kind, locale): a second print of the same
 *   document (two servers healing at once) is dropped and the stored one returned, so every
 *   server serves the same bytes under the same ETag;
 * - `renderReleasedDocuments` (the `document` job) prints what the pupil may download in the
 *   language they sat the exam in: the score report once the result sheet is bought, the
 *   certificate once a passed result's certificate is bought; nothing before the release; and
 *   keeps each as a file too when the server keeps files, so the first download streams it.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { catalogKeys, languages, type LanguageKey } from '../../contract/languages.ts';
import type { Db, Tx } from '../db/client.ts';
import { documents, results, scheduleHistories } from '../db/schema.ts';
import { ownedBy } from '../domain/purchases.ts';
import { issueToken } from '../domain/tokens.ts';
import { enqueueJob } from '../jobs/queue.ts';
import type { DocumentKind } from './access.ts';
import type { DocumentFiles } from './files.ts';
import type { DocumentRenderer } from './renderer.ts';

/** How long the renderer's token lives: enough to open and print one page. */
export const DOCUMENT_TOKEN_TTL_MS = 5 * 60_000;

export type StoredDocument = { bytes: Uint8Array; etag: string };

/**
 * What printing needs: the renderer, where Chromium reaches this server (undefined: not known
 * yet), and where the server keeps its documents as files (server/documents/files.ts), if it does.
 */
export type DocumentPrinting = { renderer: DocumentRenderer; origin: () => string | undefined; files?: DocumentFiles };

/** The languages a document is printed in. */
export const documentLanguages: readonly string[] = [...catalogKeys, 'ar-nu-arab'];

/** The first of the candidates that is a language of the app, if one is. */
export function chosenLanguage(...candidates: (string | null | undefined)[]): LanguageKey | undefined {
  for (const candidate of candidates) if (candidate && documentLanguages.includes(candidate)) return candidate as LanguageKey;
  return undefined;
}

/** The first of the candidates that is a language of the app; English when none is. */
export function languageOf(...candidates: (string | null | undefined)[]): LanguageKey {
  return chosenLanguage(...candidates) ?? 'en';
}

/** A strong validator: the quoted base64url SHA-256 of the bytes. */
export function etagOf(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

export async function findDocument(db: Db | Tx, scheduleHistoryId: number, kind: DocumentKind, locale: string): Promise<StoredDocument | undefined> {
  // As base64 text, decoded natively: PGlite's own bytea decoding costs tens of milliseconds per 100 KB.
  const [row] = await db
    .select({ base64: sql<string>`encode(${documents.bytes}, 'base64')`, etag: documents.etag })
    .from(documents)
    .where(and(eq(documents.scheduleHistoryId, scheduleHistoryId), eq(documents.kind, kind), eq(documents.locale, locale)))
    .limit(1);
  return row && { bytes: Buffer.from(row.base64, 'base64'), etag: row.etag };
}

/** Keeps the document unless one is stored already; returns the stored one. */
export async function storeDocument(
  db: Db | Tx,
  document: { scheduleHistoryId: number; kind: DocumentKind; locale: string; bytes: Uint8Array; now: Date },
): Promise<StoredDocument> {
  const etag = etagOf(document.bytes);
  const inserted = await db
    .insert(documents)
    .values({ scheduleHistoryId: document.scheduleHistoryId, kind: document.kind, locale: document.locale, bytes: document.bytes, etag, createdAt: document.now })
    .onConflictDoNothing()
    .returning({ etag: documents.etag });
  if (inserted.length > 0) return { bytes: document.bytes, etag };
  const stored = await findDocument(db, document.scheduleHistoryId, document.kind, document.locale);
  if (!stored) throw new Error(`document ${document.kind} ${document.locale} of ${document.scheduleHistoryId} vanished`);
  return stored;
}

/** Prints one document of the sitting through the renderer (outside any transaction). */
export async function printDocument(
  db: Db,
  printing: { renderer: DocumentRenderer; origin: string },
  document: { examineeId: number; scheduleHistoryId: number; kind: DocumentKind; locale: LanguageKey; now: Date; loginType?: number | null },
): Promise<Uint8Array> {
  const token = await issueToken(db, {
    examineeId: document.examineeId,
    scheduleHistoryId: document.scheduleHistoryId,
    now: document.now,
    ttlMs: DOCUMENT_TOKEN_TTL_MS,
    ...(document.loginType === null || document.loginType === undefined ? {} : { loginType: document.loginType }),
  });
  const search = new URLSearchParams({ token, locale: document.locale, document: document.kind });
  return printing.renderer.render({
    url: `${printing.origin}/score-report-embed/${document.scheduleHistoryId}?${search}`,
    landscape: document.kind === 'certificate',
    browserLocale: languages[document.locale].tag,
  });
}

/** Asks for the sitting's documents to be printed (idempotent while one is pending). */
export async function enqueueDocuments(tx: Tx, scheduleHistoryId: number, now: Date): Promise<void> {
  await enqueueJob(tx, { kind: 'document', key: `document:${scheduleHistoryId}`, payload: { scheduleHistoryId }, runAt: now });
}

export type PrintedDocument = { kind: DocumentKind; locale: LanguageKey; bytes: Uint8Array };

/**
 * The `document` job's printing (outside its transaction): the released sitting's bought
 * documents in the exam's language that are not stored yet. Throws when printing fails (the job
 * is retried with backoff); prints nothing without a renderer (documents are then printed on
 * their first download).
 */
export async function renderReleasedDocuments(db: Db, scheduleHistoryId: number, now: Date, printing: DocumentPrinting | undefined): Promise<PrintedDocument[]> {
  if (!printing) return [];
  const [sitting] = await db
    .select({ examineeId: scheduleHistories.examineeId, locale: scheduleHistories.locale, releasedAt: results.releasedAt, passed: results.passed })
    .from(scheduleHistories)
    .innerJoin(results, eq(results.scheduleHistoryId, scheduleHistories.id))
    .where(eq(scheduleHistories.id, scheduleHistoryId))
    .limit(1);
  if (!sitting?.releasedAt) return [];
  const owned = await ownedBy(db, scheduleHistoryId);
  const wanted: DocumentKind[] = [];
  if (owned.items.result_sheet === 2) wanted.push('report');
  if (sitting.passed && owned.items.certificate === 2) wanted.push('certificate');
  const locale = languageOf(sitting.locale);
  const printed: PrintedDocument[] = [];
  for (const kind of wanted) {
    if (await findDocument(db, scheduleHistoryId, kind, locale)) continue;
    const origin = printing.origin();
    if (!origin) throw new Error('The document renderer does not know where this server listens yet.');
    const bytes = await printDocument(db, { renderer: printing.renderer, origin }, { examineeId: sitting.examineeId, scheduleHistoryId, kind, locale, now });
    // The file is a copy named by its content: a failure to write it leaves the first download to write it.
    await printing.files?.keep(etagOf(bytes), bytes).catch(() => false);
    printed.push({ kind, locale, bytes });
  }
  return printed;
}
