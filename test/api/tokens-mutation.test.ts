/**
 * Only a token of the shape we issue (server/domain/tokens.ts, TOKEN_PATTERN: 43 base64url
 * characters) is ever looked up: a string of any other shape authenticates no one and names no
 * administrator's revocation, even when the hash of that very string were in auth_tokens (a row
 * written here by hand; login never stores one). Written for the mutation run (README.md,
 * "Mutation testing"): with the shape check gone, the hand-written row would let it in.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authTokens } from '../../server/db/schema.ts';
import { administrativeRevocation, authenticate, hashToken, TOKEN_PATTERN } from '../../server/domain/tokens.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const NOW = new Date('2026-06-01T09:00:00.000Z');
const HOUR = 3_600_000;

describe.each(kinds)('the shape of a token on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A row for `token` written straight to auth_tokens, live for an hour, or revoked for `reason`. */
  const storeByHand = async (token: string, reason?: 'retake' | 'moved') => {
    const pupil = await addSitting(database.db);
    await database.db.insert(authTokens).values({
      tokenHash: hashToken(token),
      examineeId: pupil.examineeId,
      scheduleHistoryId: pupil.scheduleHistoryId,
      loginType: 0,
      createdAt: NOW,
      expiresAt: new Date(NOW.getTime() + HOUR),
      ...(reason ? { revokedAt: NOW, revokedReason: reason } : {}),
    });
    return pupil;
  };

  test('a string of another shape authenticates no one, even with its hash stored', async () => {
    const forged = 'A'.repeat(42);
    expect(TOKEN_PATTERN.test(forged)).toBe(false);
    await storeByHand(forged);
    expect(await authenticate(database.db, forged, NOW)).toBeUndefined();
    // The same row for a string of the right shape does authenticate: the shape alone decides.
    const shaped = 'B'.repeat(43);
    const pupil = await storeByHand(shaped);
    expect(await authenticate(database.db, shaped, NOW)).toMatchObject({ examineeId: pupil.examineeId });
  });

  test('a string of another shape names no revocation, even with its hash stored as revoked by an administrator', async () => {
    const forged = 'C'.repeat(44);
    await storeByHand(forged, 'retake');
    expect(await administrativeRevocation(database.db, forged)).toBeUndefined();
    const shaped = 'D'.repeat(43);
    await storeByHand(shaped, 'moved');
    expect(await administrativeRevocation(database.db, shaped)).toBe('moved');
  });
});
