/**
 * An administrator for server tests, written straight to the database: `addAdministrator` makes
 * the account (a fresh login id per call, no organisation), `createAdminToken` also hands out a
 * staff bearer token for it, as POST /admin/login would, so a test can call the administrators'
 * API at once (`Authorization: Bearer <token>`).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../server/db/client.ts';
import { staff, staffTokens } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/domain/passwords.ts';
import { newToken } from '../../server/domain/tokens.ts';

/** A password that meets the staff length rule (12 to 128 characters). */
export const ADMIN_PASSWORD = 'admin-pass-12345';

export type TestAdministrator = { staffId: number; loginId: string; name: string; password: string };

const HOUR_MS = 3_600_000;

/** A new administrator (role admin, no organisation). */
export async function addAdministrator(db: Db, options: { loginId?: string; disabled?: boolean } = {}): Promise<TestAdministrator> {
  const tag = randomUUID().slice(0, 8);
  const loginId = options.loginId ?? `admin.${tag}`;
  const name = `Administrator ${tag}`;
  const [row] = await db
    .insert(staff)
    .values({ organizationId: null, role: 'admin', loginId, name, passwordHash: await hashPassword(ADMIN_PASSWORD), disabled: options.disabled ?? false })
    .returning({ id: staff.id });
  return { staffId: row!.id, loginId, name, password: ADMIN_PASSWORD };
}

/**
 * A new administrator and a bearer token of theirs. The token is issued at `now` (default: the
 * real time) and lives 12 hours past the later of `now` and the real time, so it works on a test
 * clock set in the past (server-api.ts TEST_START) as well as on the system clock.
 */
export async function createAdminToken(db: Db, now: Date = new Date()): Promise<string> {
  return (await createAdminWithToken(db, now)).token;
}

/** `createAdminToken`, with the account it belongs to. */
export async function createAdminWithToken(db: Db, now: Date = new Date()): Promise<TestAdministrator & { token: string }> {
  const admin = await addAdministrator(db);
  const { token, tokenHash } = newToken();
  await db.insert(staffTokens).values({
    tokenHash,
    staffId: admin.staffId,
    createdAt: now,
    expiresAt: new Date(Math.max(now.getTime(), Date.now()) + 12 * HOUR_MS),
  });
  return { ...admin, token };
}
