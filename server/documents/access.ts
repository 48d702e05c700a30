/**
 * Who may have which document (the same rules as the score report): the owner of the sitting
 * only; the result released (one week after the exam, seed section 9) and still viewable (two
 * years); the result sheet bought for the report; a passed result and the certificate bought for
 * the certificate. Domain rules, free of HTTP.
 *
 * `grantStoredDocument` is the same rules and the bearer token's own (live, not revoked, examinee
 * enabled, bound to this sitting or to none) in one statement that also finds the stored
 * document: the download's usual way. It grants only where `grantDocument` would; anything it does
 * not grant goes the long way (authentication, then `grantDocument`), which tells why.
 */
import { and, eq, exists, gt, gte, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Db } from '../db/client.ts';
import { authTokens, documents, examinees, purchases, results, scheduleHistories } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { ownedBy } from '../domain/purchases.ts';
import { RESULT_RELEASE_MS } from '../domain/session.ts';
import { loadOwnSitting } from '../domain/sitting.ts';
import { hashToken, TOKEN_PATTERN, type Principal } from '../domain/tokens.ts';

export type DocumentKind = 'report' | 'certificate';

/** Results are viewable for two years after the exam (seed section 9). */
const VIEWABLE_MS = 2 * 365 * 86_400_000 + 86_400_000;

export type DocumentGrant = {
  scheduleHistoryId: number;
  /** The language the pupil sat the exam in (X-Locale at Start), a default for the document. */
  examLocale: string | null;
};

export async function grantDocument(db: Db, principal: Principal, scheduleHistoryId: number, kind: DocumentKind, now: Date): Promise<DocumentGrant> {
  const sitting = await loadOwnSitting(db, principal, scheduleHistoryId);
  const [result] = await db.select().from(results).where(eq(results.scheduleHistoryId, scheduleHistoryId)).limit(1);
  const finishedAt = sitting.history.finishedAt;
  const releasedAt = result?.releasedAt ?? (finishedAt ? new Date(finishedAt.getTime() + RESULT_RELEASE_MS) : null);
  if (!result || !releasedAt || now < releasedAt) {
    throw new DomainError('RESULT_NOT_RELEASED', 'Results can be viewed from one week after the exam.');
  }
  if (finishedAt && now.getTime() > finishedAt.getTime() + VIEWABLE_MS) {
    throw new DomainError('RESULT_VIEW_EXPIRED', 'Results can be viewed for two years after the exam.');
  }
  const owned = await ownedBy(db, scheduleHistoryId);
  if (kind === 'report' && owned.items.result_sheet !== 2) {
    throw new DomainError('PAYMENT_REQUIRED', 'The result sheet has not been paid for.');
  }
  if (kind === 'certificate') {
    if (!result.passed) throw new DomainError('NOT_PASSED', 'A certificate is issued only for a passed result.');
    if (owned.items.certificate !== 2) throw new DomainError('PAYMENT_REQUIRED', 'The certificate has not been paid for.');
  }
  return { scheduleHistoryId, examLocale: sitting.history.locale };
}

export type StoredDocumentGrant = {
  principal: Principal;
  /** The stored document's locale and strong ETag (server/documents/store.ts). */
  locale: string;
  etag: string;
};

/**
 * The token's principal and the stored document when the token's pupil may download it now, in
 * one round trip; undefined otherwise (refused, or not stored in that language yet). `locale` is
 * the language asked for (a catalog key), or undefined for the language of the exam (`examLocale`
 * of the grant, English when it is none of `selectable`).
 */
export async function grantStoredDocument(
  db: Db,
  request: { token: string; scheduleHistoryId: number; kind: DocumentKind; locale: string | undefined; now: Date; selectable: readonly string[] },
): Promise<StoredDocumentGrant | undefined> {
  const { token, scheduleHistoryId, kind, now } = request;
  if (!TOKEN_PATTERN.test(token) || !Number.isSafeInteger(scheduleHistoryId) || scheduleHistoryId < 1) return undefined;
  const examLocale = sql`case when ${scheduleHistories.locale} in (${sql.join(request.selectable.map((key) => sql`${key}`), sql`, `)}) then ${scheduleHistories.locale} else 'en' end`;
  const locale: SQL = request.locale === undefined ? examLocale : sql`${request.locale}`;
  const bought = db
    .select({ one: sql`1` })
    .from(purchases)
    .where(and(eq(purchases.scheduleHistoryId, scheduleHistories.id), eq(purchases.kind, kind === 'report' ? 'result_sheet' : 'certificate')));
  const [row] = await db
    .select({
      tokenId: authTokens.id,
      examineeId: authTokens.examineeId,
      boundTo: authTokens.scheduleHistoryId,
      loginType: authTokens.loginType,
      locale: documents.locale,
      etag: documents.etag,
    })
    .from(authTokens)
    .innerJoin(examinees, eq(examinees.id, authTokens.examineeId))
    .innerJoin(scheduleHistories, and(eq(scheduleHistories.id, scheduleHistoryId), eq(scheduleHistories.examineeId, authTokens.examineeId)))
    .innerJoin(results, eq(results.scheduleHistoryId, scheduleHistories.id))
    .innerJoin(documents, and(eq(documents.scheduleHistoryId, scheduleHistories.id), eq(documents.kind, kind), eq(documents.locale, locale)))
    .where(
      and(
        eq(authTokens.tokenHash, hashToken(token)),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, now),
        eq(examinees.disabled, false),
        or(isNull(authTokens.scheduleHistoryId), eq(authTokens.scheduleHistoryId, scheduleHistoryId)),
        // A sitting still to be taken may be step-locked: that one goes the long way.
        ne(scheduleHistories.status, ScheduleHistoryStatus.PENDING),
        or(lte(results.releasedAt, now), and(isNull(results.releasedAt), lte(scheduleHistories.finishedAt, new Date(now.getTime() - RESULT_RELEASE_MS)))),
        or(isNull(scheduleHistories.finishedAt), gte(scheduleHistories.finishedAt, new Date(now.getTime() - VIEWABLE_MS))),
        kind === 'certificate' ? eq(results.passed, true) : undefined,
        exists(bought),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  return {
    principal: { tokenId: row.tokenId, examineeId: row.examineeId, scheduleHistoryId: row.boundTo, loginType: row.loginType },
    locale: row.locale,
    etag: row.etag,
  };
}
