/**
 * Password checks. The seed's lock (sections 8 and 9: "Account locked, retry in 1 minute": the
 * 5th wrong password in a row locks for 1 minute, even against the right password; a right one
 * resets the count) is kept by the login throttle (server/security/throttle.ts), per client
 * address AND login ID, not on the examinee's row, so someone who knows a login ID cannot lock
 * that pupil out from anywhere. The row's failed_login_count and locked_until columns are not
 * written for pupils. MAX_FAILED_LOGINS and LOCK_MS are the
 * lock's numbers, for the throttle and for staff accounts (server/domain/staff.ts).
 */
import { examinees } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { verifyPassword } from './passwords.ts';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MS = 60_000;

/** The columns of an examinee that a password check reads. */
export type PasswordAccount = {
  id: number;
  passwordHash: string | null;
};

export const passwordAccountColumns = {
  id: examinees.id,
  passwordHash: examinees.passwordHash,
};

export function wrongCredentials(): DomainError {
  return new DomainError('INCORRECT_ID_PASSWORD', 'Incorrect test ID or password.');
}

/** Resolves when the password is right; otherwise throws INCORRECT_ID_PASSWORD (the throttle counts it). */
export async function checkPassword(account: PasswordAccount, password: string): Promise<void> {
  if (await verifyPassword(password, account.passwordHash)) return;
  throw wrongCredentials();
}
