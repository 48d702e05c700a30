/**
 * Stored password hashes (server/domain/passwords.ts) as a login by ID meets them: the scrypt
 * parameters travel with each hash (a hash made with other parameters still lets its pupil in,
 * up to the cap), and a stored hash that is not one of ours (another scheme, no salt, no hash,
 * a cost out of bounds, a truncated key) refuses the login as a wrong password
 * (INCORRECT_ID_PASSWORD, seed section 8) instead of failing the request or stalling the process.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { examinees } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'tall giraffe 7';

/** A hash in the stored format (`scrypt$N$r$p$salt$key`), made here with the parameters given. */
function storedHash(password: string, N: number, r: number, p: number): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 32, { N, r, p, maxmem: 256 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe.each(kinds)('stored password hashes on %s', (kind) => {
  const api = useApi(kind);

  /** Logs in by ID with `password` a pupil whose stored hash is `passwordHash`. */
  async function loginWithStored(passwordHash: string, password = PASSWORD) {
    const pupil = await addSitting(api.db, { password: 'not the one stored' });
    await api.db.update(examinees).set({ passwordHash }).where(eq(examinees.id, pupil.examineeId));
    return api.call('POST', '/api/login', { body: { login_type: 1, login_id: pupil.loginId, password, org_code: pupil.orgCode } });
  }

  test.each([
    ['the least cost (N = 2)', 2, 8, 1],
    ['other parameters (N = 1024, r = 4, p = 2)', 1024, 4, 2],
    ['the largest cost allowed (N = 2^17, r = 2)', 1 << 17, 2, 1],
  ])('a hash made with %s lets its pupil in, and only with the right password', async (_, N, r, p) => {
    const hash = storedHash(PASSWORD, N, r, p);
    expect((await loginWithStored(hash)).status).toBe(200);
    const wrong = await loginWithStored(hash, `${PASSWORD}!`);
    expect(wrong.status).toBe(401);
    expect(errorOf(wrong).code).toBe('INCORRECT_ID_PASSWORD');
  });

  const [, n, r, p, salt, key] = storedHash(PASSWORD, 1024, 8, 1).split('$') as [string, string, string, string, string, string];
  test.each([
    ['another scheme', ['bcrypt', n, r, p, salt, key]],
    ['no salt', ['scrypt', n, r, p, '', key]],
    ['no key', ['scrypt', n, r, p, salt, '']],
    ['a cost that is not a number', ['scrypt', 'x', r, p, salt, key]],
    ['a cost below 2 (N = 1)', ['scrypt', '1', r, p, salt, key]],
    ['a cost above the cap (N = 2^18)', ['scrypt', String(1 << 18), r, p, salt, key]],
    ['a truncated key', ['scrypt', n, r, p, salt, key.slice(0, 20)]],
  ])('a stored hash with %s refuses the right password as INCORRECT_ID_PASSWORD', async (_, parts) => {
    const response = await loginWithStored(parts.join('$'));
    expect(response.status).toBe(401);
    expect(errorOf(response).code).toBe('INCORRECT_ID_PASSWORD');
  });
});
