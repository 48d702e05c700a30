/**
 * Pupils' login codes: drawn, never derived. Promises:
 * - A code is three groups of four characters of LOGIN_CODE_ALPHABET (the form
 *   normalizeLoginCode gives), each character drawn with node:crypto's randomInt: no sequence,
 *   no pattern, nothing a pupil could guess from a classmate's code.
 * - Codes handed out are unique: against every stored code (checked inside the caller's
 *   transaction, drawn again on a collision) and against the others drawn in the same batch;
 *   the column's unique index is the last word.
 * - A re-issued code replaces the pupil's code at once: the old one logs nobody in from then on.
 *   A terminal already signed in with the old code keeps its exam if that exam is running (a
 *   pupil mid-exam is never cut off); every other live session of the pupil is signed out, so a
 *   finder of a lost slip who signed in is out too. The change is audited ('code_reissue').
 */
import { randomInt } from 'node:crypto';
import { and, eq, isNull, notInArray, or, sql } from 'drizzle-orm';
import { LOGIN_CODE_ALPHABET } from '../../contract/session.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog, authTokens, examinees, organizations, scheduleHistories } from '../db/schema.ts';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { queryRows } from './plan.ts';

/** One code in the normalised form XXXX-XXXX-XXXX. */
export function drawLoginCode(): string {
  let compact = '';
  for (let i = 0; i < 12; i++) compact += LOGIN_CODE_ALPHABET[randomInt(LOGIN_CODE_ALPHABET.length)];
  return `${compact.slice(0, 4)}-${compact.slice(4, 8)}-${compact.slice(8)}`;
}

/** `count` codes, all different and none stored yet. */
export async function drawUniqueLoginCodes(tx: Tx, count: number): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < count) {
    const fresh = new Set<string>();
    while (fresh.size < count - codes.size) {
      const code = drawLoginCode();
      if (!codes.has(code)) fresh.add(code);
    }
    const taken = await queryRows<{ login_code: string }>(tx, sql`select login_code from ${examinees} where login_code = any(${sql.param([...fresh])}::text[])`);
    for (const row of taken) fresh.delete(row.login_code);
    for (const code of fresh) codes.add(code);
  }
  return [...codes];
}

export type ReissueResult = { ok: true; examineeId: number; loginCode: string; previous: string; signedOut: number } | { ok: false };

/**
 * Gives the pupil a new code (see the module comment). `scope`: a proctor's organisation, or
 * null for an administrator; a pupil outside it is not found.
 */
export async function reissueLoginCode(
  db: Db,
  examineeId: number,
  context: { now: Date; staffId: number | null; reason: string; organizationId?: number | null },
): Promise<ReissueResult> {
  return db.transaction(async (tx) => {
    const [pupil] = await tx
      .select({ id: examinees.id, loginCode: examinees.loginCode, organizationId: examinees.organizationId, externalId: examinees.externalId, orgCode: organizations.code })
      .from(examinees)
      .innerJoin(organizations, eq(organizations.id, examinees.organizationId))
      .where(eq(examinees.id, examineeId))
      .for('update', { of: examinees });
    if (!pupil || (context.organizationId != null && pupil.organizationId !== context.organizationId)) return { ok: false };
    const [loginCode] = await drawUniqueLoginCodes(tx, 1);
    await tx.update(examinees).set({ loginCode }).where(eq(examinees.id, pupil.id));
    const running = tx.select({ id: scheduleHistories.id }).from(scheduleHistories).where(and(eq(scheduleHistories.examineeId, pupil.id), eq(scheduleHistories.status, ScheduleHistoryStatus.DOING)));
    const signedOut = await tx
      .update(authTokens)
      .set({ revokedAt: context.now, revokedReason: 'code_reissue' })
      .where(
        and(
          eq(authTokens.examineeId, pupil.id),
          isNull(authTokens.revokedAt),
          or(isNull(authTokens.scheduleHistoryId), notInArray(authTokens.scheduleHistoryId, running)),
        ),
      )
      .returning({ id: authTokens.id });
    await tx.insert(auditLog).values({
      at: context.now,
      staffId: context.staffId,
      action: 'code_reissue',
      entity: `pupil:${pupil.orgCode}/${pupil.externalId ?? `#${pupil.id}`}`,
      before: { login_code: pupil.loginCode },
      after: { login_code: loginCode! },
      detail: { signed_out: signedOut.length },
      reason: context.reason,
    });
    return { ok: true, examineeId: pupil.id, loginCode: loginCode!, previous: pupil.loginCode, signedOut: signedOut.length };
  });
}
