/**
 * Bearer tokens: 256 random bits, base64url, handed to the client once at login. Only their
 * SHA-256 is stored, so a copy of the database does not log anyone in. A token is valid until
 * it expires or is revoked (logout, or an administrator's reset or move to another terminal).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { authTokens, examinees } from '../db/schema.ts';

/** Who is calling: established from a valid token. */
export type Principal = {
  tokenId: number;
  examineeId: number;
  /** The schedule history a schedule-history login (code login) is bound to; null for examinee-wide logins. */
  scheduleHistoryId: number | null;
  /** The login type the token was issued for (seed section 3); null when not recorded. */
  loginType: number | null;
};

/** The shape of a token we issue: 32 bytes as base64url, 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function issueToken(
  tx: Tx,
  input: { examineeId: number; scheduleHistoryId: number | null; now: Date; ttlMs: number; loginType?: number },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(authTokens).values({
    tokenHash: hashToken(token),
    examineeId: input.examineeId,
    scheduleHistoryId: input.scheduleHistoryId,
    loginType: input.loginType ?? null,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + input.ttlMs),
  });
  return token;
}

/** The principal of a token, or undefined when it is unknown, revoked, expired, or its examinee is disabled. */
export async function authenticate(tx: Tx, token: string, now: Date): Promise<Principal | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await tx
    .select({
      tokenId: authTokens.id,
      examineeId: authTokens.examineeId,
      scheduleHistoryId: authTokens.scheduleHistoryId,
      loginType: authTokens.loginType,
    })
    .from(authTokens)
    .innerJoin(examinees, eq(examinees.id, authTokens.examineeId))
    .where(
      and(
        eq(authTokens.tokenHash, hashToken(token)),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, now),
        eq(examinees.disabled, false),
      ),
    )
    .limit(1);
  return row;
}

export async function revokeToken(tx: Tx, tokenId: number, now: Date): Promise<void> {
  await tx
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.id, tokenId), isNull(authTokens.revokedAt)));
}

/**
 * Why an administrator revoked a pupil's tokens: 'retake' (a reset: the pupil must log in again,
 * told with ER_SCHEDULE_HISTORY_RETAKE) or 'moved' (a proctor moved the pupil to another
 * terminal: the old terminal is told INCORRECT_DEVICE).
 */
export type RevocationReason = 'retake' | 'moved';

/** Revokes every live token of an examinee (an administrator's reset or move); returns how many. */
export async function revokeAllOfExaminee(tx: Tx, examineeId: number, now: Date, reason: RevocationReason): Promise<number> {
  const rows = await tx
    .update(authTokens)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(authTokens.examineeId, examineeId), isNull(authTokens.revokedAt)))
    .returning({ id: authTokens.id });
  return rows.length;
}

/**
 * Why an administrator revoked this token ('retake' or 'moved'), or undefined (unknown, live,
 * expired or logged out): the caller is then told why rather than just NOT_LOGGED_IN.
 */
export async function administrativeRevocation(tx: Tx, token: string): Promise<RevocationReason | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await tx
    .select({ reason: authTokens.revokedReason })
    .from(authTokens)
    .where(eq(authTokens.tokenHash, hashToken(token)))
    .limit(1);
  return row?.reason === 'retake' || row?.reason === 'moved' ? row.reason : undefined;
}

