/**
 * Who may have which document (the same rules as the score report): the owner of the sitting
 * only; the result released (one week after the exam, seed section 9) and still viewable (two
 * years); the result sheet bought for the report; a passed result and the certificate bought for
 * the certificate. Domain rules, free of HTTP.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { results } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { ownedBy } from '../domain/purchases.ts';
import { RESULT_RELEASE_MS } from '../domain/session.ts';
import { loadOwnSitting } from '../domain/sitting.ts';
import type { Principal } from '../domain/tokens.ts';

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
