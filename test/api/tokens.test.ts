/**
 * Bearer tokens (server/domain/tokens.ts) at the domain's edge, on the database: what is stored
 * of a token, until when it is valid to the millisecond, and what revoking one, or all of a
 * pupil's, does and says afterwards.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authTokens, examinees } from '../../server/db/schema.ts';
import {
  administrativeRevocation,
  authenticate,
  hashToken,
  issueToken,
  revokeAllOfExaminee,
  revokeToken,
  TOKEN_PATTERN,
} from '../../server/domain/tokens.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const NOW = new Date('2026-06-01T09:00:00.000Z');
const HOUR = 3_600_000;

describe.each(kinds)('bearer tokens on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  const pupil = async () => {
    const sitting = await addSitting(database.db);
    const issue = (loginType?: number, ttlMs = HOUR) =>
      issueToken(database.db, {
        examineeId: sitting.examineeId,
        scheduleHistoryId: sitting.scheduleHistoryId,
        now: NOW,
        ttlMs,
        ...(loginType === undefined ? {} : { loginType }),
      });
    return { sitting, issue };
  };
  const rowOf = async (token: string) => {
    const [row] = await database.db.select().from(authTokens).where(eq(authTokens.tokenHash, hashToken(token)));
    return row;
  };

  test('a token is 43 base64url characters; only its SHA-256 is stored, with its expiry and login type', async () => {
    const { sitting, issue } = await pupil();
    const token = await issue(1);
    expect(token).toMatch(TOKEN_PATTERN);
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const row = await rowOf(token);
    expect(row).toMatchObject({
      examineeId: sitting.examineeId,
      scheduleHistoryId: sitting.scheduleHistoryId,
      loginType: 1,
      createdAt: NOW,
      expiresAt: new Date(NOW.getTime() + HOUR),
      revokedAt: null,
    });
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await rowOf(await issue()))?.loginType).toBeNull();
  });

  test('authenticates until the instant it expires, not at it', async () => {
    const { sitting, issue } = await pupil();
    const token = await issue(0);
    const expected = { examineeId: sitting.examineeId, scheduleHistoryId: sitting.scheduleHistoryId, loginType: 0 };
    expect(await authenticate(database.db, token, NOW)).toMatchObject(expected);
    expect(await authenticate(database.db, token, new Date(NOW.getTime() + HOUR - 1))).toMatchObject(expected);
    expect(await authenticate(database.db, token, new Date(NOW.getTime() + HOUR))).toBeUndefined();
  });

  test('an unknown, malformed, revoked token or one of a disabled pupil authenticates no one', async () => {
    const { sitting, issue } = await pupil();
    const token = await issue(0);
    expect(await authenticate(database.db, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, NOW)).toBeUndefined();
    expect(await authenticate(database.db, `${token}x`, NOW)).toBeUndefined();

    await database.db.update(examinees).set({ disabled: true }).where(eq(examinees.id, sitting.examineeId));
    expect(await authenticate(database.db, token, NOW)).toBeUndefined();
    await database.db.update(examinees).set({ disabled: false }).where(eq(examinees.id, sitting.examineeId));
    const principal = await authenticate(database.db, token, NOW);
    expect(principal).toBeDefined();

    await revokeToken(database.db, principal!.tokenId, NOW);
    expect(await authenticate(database.db, token, NOW)).toBeUndefined();
  });

  test('revoking a token keeps its first revocation time', async () => {
    const { issue } = await pupil();
    const token = await issue(0);
    const principal = await authenticate(database.db, token, NOW);
    await revokeToken(database.db, principal!.tokenId, NOW);
    await revokeToken(database.db, principal!.tokenId, new Date(NOW.getTime() + HOUR));
    expect((await rowOf(token))?.revokedAt).toEqual(NOW);
  });

  test('an administrator revokes every live token of a pupil, says how many, and why each one ended', async () => {
    const { sitting, issue } = await pupil();
    const other = await pupil();
    const [loggedOut, first, second] = [await issue(0), await issue(0), await issue(0)];
    const untouched = await other.issue(0);
    await revokeToken(database.db, (await authenticate(database.db, loggedOut, NOW))!.tokenId, NOW);

    const later = new Date(NOW.getTime() + 1000);
    expect(await revokeAllOfExaminee(database.db, sitting.examineeId, later, 'retake')).toBe(2);
    expect(await revokeAllOfExaminee(database.db, sitting.examineeId, later, 'moved')).toBe(0);

    expect(await administrativeRevocation(database.db, first)).toBe('retake');
    expect(await administrativeRevocation(database.db, second)).toBe('retake');
    expect((await rowOf(first))?.revokedAt).toEqual(later);
    // A logout is not an administrator's: the caller is just not logged in.
    expect(await administrativeRevocation(database.db, loggedOut)).toBeUndefined();
    expect((await rowOf(loggedOut))?.revokedAt).toEqual(NOW);
    expect(await authenticate(database.db, untouched, NOW)).toBeDefined();
    expect(await administrativeRevocation(database.db, untouched)).toBeUndefined();
  });

  test('a move to another terminal is told as such; unknown and malformed tokens say nothing', async () => {
    const { sitting, issue } = await pupil();
    const token = await issue(0);
    expect(await revokeAllOfExaminee(database.db, sitting.examineeId, NOW, 'moved')).toBe(1);
    expect(await administrativeRevocation(database.db, token)).toBe('moved');
    expect(await administrativeRevocation(database.db, 'A'.repeat(43))).toBeUndefined();
    expect(await administrativeRevocation(database.db, `${token}!`)).toBeUndefined();
  });

  test('TOKEN_PATTERN is exactly 43 base64url characters', () => {
    expect(TOKEN_PATTERN.test('A'.repeat(43))).toBe(true);
    expect(TOKEN_PATTERN.test('_-'.repeat(21) + '9')).toBe(true);
    for (const bad of ['A'.repeat(42), 'A'.repeat(44), `${'A'.repeat(42)}+`, `${'A'.repeat(42)}=`, ` ${'A'.repeat(42)}`]) {
      expect(TOKEN_PATTERN.test(bad), bad).toBe(false);
    }
  });
});
