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
import { eq } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Db } from '../db/client.ts';
import { namedParameters, prepare } from '../db/prepared.ts';
import { results } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { ownedBy } from '../domain/purchases.ts';
import { RESULT_RELEASE_MS } from '../domain/session.ts';
import { loadOwnSitting, MAX_ID } from '../domain/sitting.ts';
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

/** grantStoredDocument's statement's values, by name (server/db/prepared.ts). */
const GRANT = namedParameters<{
  tokenHash: string;
  sittingId: number;
  kind: string;
  purchaseKind: string;
  /** The language asked for, or null for the exam's. */
  locale: string | null;
  /** The languages a document is made in, comma-separated: the exam's language when it is one of them, else English. */
  selectable: string;
  now: Date;
  releasedBy: Date;
  viewableFrom: Date;
  pending: number;
}>({
  tokenHash: 'text',
  sittingId: 'int',
  kind: 'text',
  purchaseKind: 'text',
  locale: 'text',
  selectable: 'text',
  now: 'timestamptz',
  releasedBy: 'timestamptz',
  viewableFrom: 'timestamptz',
  pending: 'int',
});

type GrantRow = { tokenId: number; examineeId: number; boundTo: number | null; loginType: number | null; locale: string; etag: string };

/** grantDocument's rules, the token's and the stored document, as one prepared statement. */
const GRANT_STORED_DOCUMENT = {
  name: 'grant_stored_document',
  text: `select t.id as "tokenId", t.examinee_id as "examineeId", t.schedule_history_id as "boundTo",
      t.login_type as "loginType", d.locale, d.etag
    from auth_tokens t
    join examinees e on e.id = t.examinee_id
    join schedule_histories h on h.id = ${GRANT.sql.sittingId} and h.examinee_id = t.examinee_id
    join results r on r.schedule_history_id = h.id
    join documents d on d.schedule_history_id = h.id and d.kind = ${GRANT.sql.kind}
      and d.locale = coalesce(${GRANT.sql.locale},
        case when h.locale = any(string_to_array(${GRANT.sql.selectable}, ',')) then h.locale else 'en' end)
    where t.token_hash = ${GRANT.sql.tokenHash} and t.revoked_at is null and t.expires_at > ${GRANT.sql.now}
      and not e.disabled
      and (t.schedule_history_id is null or t.schedule_history_id = h.id)
      -- A sitting still to be taken may be step-locked: that one goes the long way.
      and h.status <> ${GRANT.sql.pending}
      and (r.released_at <= ${GRANT.sql.now} or (r.released_at is null and h.finished_at <= ${GRANT.sql.releasedBy}))
      and (h.finished_at is null or h.finished_at >= ${GRANT.sql.viewableFrom})
      and (${GRANT.sql.kind} <> 'certificate' or r.passed)
      and exists (select 1 from purchases p where p.schedule_history_id = h.id and p.kind = ${GRANT.sql.purchaseKind})
    limit 1`,
};

/**
 * The token's principal and the stored document when the token's pupil may download it now, in
 * one round trip (one prepared statement); undefined otherwise (refused, not stored in that
 * language yet, or a handle that prepares nothing). `locale` is the language asked for (a catalog
 * key), or undefined for the language of the exam (`examLocale` of the grant, English when it is
 * none of `selectable`).
 */
export async function grantStoredDocument(
  db: Db,
  request: { token: string; scheduleHistoryId: number; kind: DocumentKind; locale: string | undefined; now: Date; selectable: readonly string[] },
): Promise<StoredDocumentGrant | undefined> {
  const { token, scheduleHistoryId, kind, now } = request;
  if (!TOKEN_PATTERN.test(token) || !Number.isSafeInteger(scheduleHistoryId) || scheduleHistoryId < 1 || scheduleHistoryId > MAX_ID) return undefined;
  const statement = prepare<GrantRow>(db, GRANT_STORED_DOCUMENT);
  if (!statement) return undefined;
  const [row] = await statement.run(
    GRANT.values({
      tokenHash: hashToken(token),
      sittingId: scheduleHistoryId,
      kind,
      purchaseKind: kind === 'report' ? 'result_sheet' : 'certificate',
      locale: request.locale ?? null,
      selectable: request.selectable.join(','),
      now,
      releasedBy: new Date(now.getTime() - RESULT_RELEASE_MS),
      viewableFrom: new Date(now.getTime() - VIEWABLE_MS),
      pending: ScheduleHistoryStatus.PENDING,
    }),
  );
  if (!row) return undefined;
  return {
    principal: { tokenId: row.tokenId, examineeId: row.examineeId, scheduleHistoryId: row.boundTo, loginType: row.loginType },
    locale: row.locale,
    etag: row.etag,
  };
}
