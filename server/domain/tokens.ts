/**
 * Bearer tokens: 256 random bits, base64url, handed to the client once at login. Only their
 * SHA-256 is stored, so a copy of the database does not log anyone in. A token is valid until
 * it expires or is revoked (logout, or an administrator's reset or move to another terminal).
 * Staff tokens (server/domain/staff.ts) are made, checked and revoked the same way, in staff_tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { authTokens, examinees, type staffTokens } from '../db/schema.ts';
import { DomainError } from './errors.ts';

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

/** A new token to hand out once, and the hash of it that is stored. */
export function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/** Where tokens are kept: a pupil's in auth_tokens, a staff member's in staff_tokens. */
type TokenTable = typeof authTokens | typeof staffTokens;

/** The row of `token` in `table` while it is neither revoked nor expired at `now`. */
export function liveToken(table: TokenTable, token: string, now: Date): SQL | undefined {
  return and(eq(table.tokenHash, hashToken(token)), isNull(table.revokedAt), gt(table.expiresAt, now));
}

export async function issueToken(
  tx: Tx,
  input: { examineeId: number; scheduleHistoryId: number | null; now: Date; ttlMs: number; loginType?: number },
): Promise<string> {
  const { token, tokenHash } = newToken();
  await tx.insert(authTokens).values({
    tokenHash,
    examineeId: input.examineeId,
    scheduleHistoryId: input.scheduleHistoryId,
    loginType: input.loginType ?? null,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + input.ttlMs),
  });
  return token;
}

/** The caller of a token the condition picks, its examinee enabled; undefined when none. */
async function principalWhere(tx: Tx, token: string, condition: SQL | undefined): Promise<Principal | undefined> {
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
    .where(and(condition, eq(examinees.disabled, false)))
    .limit(1);
  return row;
}

/** The principal of a token, or undefined when it is unknown, revoked, expired, or its examinee is disabled. */
export function authenticate(tx: Tx, token: string, now: Date): Promise<Principal | undefined> {
  return principalWhere(tx, token, liveToken(authTokens, token, now));
}

/**
 * The caller of a token a proctor's move revoked (reason 'moved'), unexpired, examinee enabled:
 * the terminal moved away from, which may still deliver answers given before the move
 * (server/domain/answers/ decides which). Undefined for any other token.
 */
export function authenticateMovedAway(tx: Tx, token: string, now: Date): Promise<Principal | undefined> {
  return principalWhere(tx, token, and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.revokedReason, 'moved'), gt(authTokens.expiresAt, now)));
}

/** Revokes one token, a pupil's or (with `table` staff_tokens) a staff member's: a logout. One revoked already keeps its time. */
export async function revokeToken(tx: Tx, tokenId: number, now: Date, table: TokenTable = authTokens): Promise<void> {
  await tx
    .update(table)
    .set({ revokedAt: now })
    .where(and(eq(table.id, tokenId), isNull(table.revokedAt)));
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

/**
 * The pupil calling with this token, or why a pupil call is refused: ER_SCHEDULE_HISTORY_RETAKE
 * after an administrator's reset, INCORRECT_DEVICE after a proctor moved the pupil to another
 * terminal (this terminal no longer holds the exam), else NOT_LOGGED_IN (a staff token too:
 * those live in another table).
 */
export async function pupilOf(tx: Tx, token: string | undefined, now: Date): Promise<Principal> {
  const principal = token ? await authenticate(tx, token, now) : undefined;
  if (principal) return principal;
  const revocation = token ? await administrativeRevocation(tx, token) : undefined;
  if (revocation === 'retake') throw new DomainError('ER_SCHEDULE_HISTORY_RETAKE');
  if (revocation === 'moved') throw new DomainError('INCORRECT_DEVICE', 'A proctor moved this exam to another terminal.');
  throw new DomainError('NOT_LOGGED_IN');
}
