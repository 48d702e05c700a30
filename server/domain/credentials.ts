/**
 * Password checks with the account lock (seed sections 8 and 9: "Account locked, retry in 1
 * minute"). The count of wrong passwords and the lock live on the examinee's row and change in
 * single UPDATE statements, so any number of API processes agree on them:
 * - while locked, every password login of the account is ACCOUNT_LOCKED, the right password too;
 * - the 5th wrong password in a row locks the account for 1 minute (and says so);
 * - a right password (outside a lock) resets the count.
 */
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { examinees } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { verifyPassword } from './passwords.ts';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MS = 60_000;

/** The columns of an examinee that a password check reads. */
export type PasswordAccount = {
  id: number;
  passwordHash: string | null;
  failedLoginCount: number;
  lockedUntil: Date | null;
};

export const passwordAccountColumns = {
  id: examinees.id,
  passwordHash: examinees.passwordHash,
  failedLoginCount: examinees.failedLoginCount,
  lockedUntil: examinees.lockedUntil,
};

export function wrongCredentials(): DomainError {
  return new DomainError('INCORRECT_ID_PASSWORD', 'Incorrect test ID or password.');
}

function locked(): DomainError {
  return new DomainError('ACCOUNT_LOCKED', 'Account locked, retry in 1 minute.');
}

/** Resolves when the password is right; otherwise records the failure and throws. */
export async function checkPassword(db: Db, account: PasswordAccount, password: string, now: Date): Promise<void> {
  if (account.lockedUntil !== null && account.lockedUntil > now) throw locked();
  if (await verifyPassword(password, account.passwordHash)) {
    if (account.failedLoginCount > 0 || account.lockedUntil !== null) {
      await db.update(examinees).set({ failedLoginCount: 0, lockedUntil: null }).where(eq(examinees.id, account.id));
    }
    return;
  }

  const lockUntil = new Date(now.getTime() + LOCK_MS).toISOString();
  const reaches = sql`${examinees.failedLoginCount} + 1 >= ${MAX_FAILED_LOGINS}`;
  const [row] = await db
    .update(examinees)
    .set({
      failedLoginCount: sql`case when ${reaches} then 0 else ${examinees.failedLoginCount} + 1 end`,
      lockedUntil: sql`case when ${reaches} then ${lockUntil}::timestamptz else null end`,
    })
    // Another process may have locked the account meanwhile: then this failure changes nothing.
    .where(and(eq(examinees.id, account.id), or(isNull(examinees.lockedUntil), lte(examinees.lockedUntil, now))))
    .returning({ lockedUntil: examinees.lockedUntil });
  if (!row || (row.lockedUntil !== null && row.lockedUntil > now)) throw locked();
  throw wrongCredentials();
}
