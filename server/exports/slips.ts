/**
 * The login slips of a test period (optionally of one classroom): one slip per pupil who sits it,
 * with the pupil's name, class, classroom, login code and language, the school, the test
 * period's dates and the address where a pupil types the code. Chromium prints them from the
 * app's print route (/login-slips/<code>), which reads this data with a slips token.
 *
 * The slips token: what Chromium holds while it prints, as narrow as the score report's: it
 * reads the slips of this one test period and classroom, for DOCUMENT_TOKEN_TTL_MS, and nothing
 * else (no staff token is issued). It is granted by the print's own audit entry (action
 * slips_print, written before the print): the entry's detail keeps the token's SHA-256, so the
 * grant is recorded where the print is, on every API process, without a table of its own.
 */
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { LoginSlipsResponse } from '../../contract/exports.ts';
import { catalogKeys, type CatalogKey } from '../../contract/languages.ts';
import type { Tx } from '../db/client.ts';
import { auditLog, examinees, scheduleHistories, venues } from '../db/schema.ts';
import { DOCUMENT_TOKEN_TTL_MS } from '../documents/routes.ts';
import { DomainError } from '../domain/errors.ts';
import { hashToken, newToken, TOKEN_PATTERN } from '../domain/tokens.ts';
import { auditExport, classListOrder, pupilColumns, sittingsInScope, type ExportScope } from './scope.ts';

/** The language of a pupil's slip: the roster's catalog key, the Arabic numerals variant as Arabic, else English. */
export function slipLocale(locale: string | null): CatalogKey {
  if (locale === 'ar-nu-arab') return 'ar';
  return locale !== null && (catalogKeys as readonly string[]).includes(locale) ? (locale as CatalogKey) : 'en';
}

/** Where a pupil types the login code: the login code page of the server's public origin. */
export function loginUrlOf(origin: string): string {
  return `${new URL(origin).origin}/login-code`;
}

export async function loginSlips(db: Tx, scope: ExportScope, loginUrl: string): Promise<Omit<LoginSlipsResponse, 'server_time'>> {
  const pupils = await db
    .selectDistinct({ id: examinees.id, ...pupilColumns, locale: examinees.locale })
    .from(scheduleHistories)
    .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
    .leftJoin(venues, eq(venues.id, examinees.venueId))
    .where(sittingsInScope(scope))
    .orderBy(...classListOrder, asc(examinees.id));
  return {
    school: { code: scope.school.code, name: scope.school.name },
    schedule: {
      code: scope.schedule.code,
      name: scope.schedule.name,
      starts_at: scope.schedule.startsAt.toISOString(),
      ends_at: scope.schedule.endsAt.toISOString(),
    },
    venue: scope.venue,
    login_url: loginUrl,
    slips: pupils.map((p) => ({
      name: p.name,
      class_name: p.className,
      classroom: p.classroom,
      login_code: p.loginCode,
      locale: slipLocale(p.locale),
    })),
  };
}

/**
 * Records the print (audit slips_print: who, which test period and classroom, how many slips)
 * and grants the slips token for it. Returns the token, to hand to Chromium only.
 */
export async function grantSlipsPrint(db: Tx, input: { scope: ExportScope; staffId: number | null; now: Date; slips: number }): Promise<string> {
  const { token, tokenHash } = newToken();
  await auditExport(db, {
    at: input.now,
    staffId: input.staffId,
    action: 'slips_print',
    scope: input.scope,
    detail: { slips: input.slips, token_sha256: tokenHash, token_expires_at: new Date(input.now.getTime() + DOCUMENT_TOKEN_TTL_MS).toISOString() },
  });
  return token;
}

/**
 * Whether `token` is a live slips token for exactly this test period and classroom; else
 * NOT_LOGGED_IN (an unknown, expired or other print's token, or a staff or pupil token), and
 * nothing is said about the test period.
 */
export async function assertSlipsToken(db: Tx, token: string | undefined, now: Date, scope: () => Promise<ExportScope>): Promise<ExportScope> {
  if (token === undefined || !TOKEN_PATTERN.test(token)) throw new DomainError('NOT_LOGGED_IN');
  const [grant] = await db
    .select({ scheduleId: auditLog.scheduleId, detail: auditLog.detail })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'slips_print'),
        gte(auditLog.at, new Date(now.getTime() - DOCUMENT_TOKEN_TTL_MS)),
        sql`${auditLog.detail}->>'token_sha256' = ${hashToken(token)}`,
      ),
    )
    .limit(1);
  if (!grant) throw new DomainError('NOT_LOGGED_IN');
  const asked = await scope().catch((error: unknown) => {
    throw error instanceof DomainError && error.code === 'NOT_FOUND' ? new DomainError('NOT_LOGGED_IN') : error;
  });
  if (grant.scheduleId !== asked.schedule.id || (grant.detail.venue_id ?? null) !== (asked.venue?.id ?? null)) throw new DomainError('NOT_LOGGED_IN');
  return asked;
}
