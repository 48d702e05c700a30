/**
 * Whose sitting it is and when it may be entered (server/domain/sitting.ts), at the domain's edge:
 * the owner check (anything else is NOT_FOUND, so other pupils' ids cannot be probed), step
 * mode, the suspension window, the device binding of a started exam, and who pays online.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { scheduleHistories } from '../../server/db/schema.ts';
import {
  assertDevice,
  assertOwnDevice,
  isStepLocked,
  isSuspended,
  loadOwnSitting,
  loadSittingsOfExaminee,
  MAX_ID,
  paysOnline,
  type Sitting,
} from '../../server/domain/sitting.ts';
import type { Principal } from '../../server/domain/tokens.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { addAnotherSitting, addSitting, type TestSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

const principalOf = (sitting: TestSitting, bound = true): Principal => ({
  tokenId: 1,
  examineeId: sitting.examineeId,
  scheduleHistoryId: bound ? sitting.scheduleHistoryId : null,
  loginType: bound ? 0 : 5,
});

/** The code a promise rejects with. */
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: { code?: string }) => error.code ?? String(error));

describe.each(kinds)('sittings on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });
  const setHistory = (id: number, values: Partial<typeof scheduleHistories.$inferInsert>) =>
    database.db.update(scheduleHistories).set(values).where(eq(scheduleHistories.id, id));

  test('a pupil loads their own sitting, by a bound or an examinee-wide token', async () => {
    const pupil = await addSitting(database.db);
    for (const bound of [true, false]) {
      const sitting = await loadOwnSitting(database.db, principalOf(pupil, bound), pupil.scheduleHistoryId);
      expect(sitting.history.id).toBe(pupil.scheduleHistoryId);
      expect(sitting.examinee.id).toBe(pupil.examineeId);
    }
  });

  test("another pupil's sitting, another sitting than the token's, and ids that cannot exist are NOT_FOUND", async () => {
    const pupil = await addSitting(database.db);
    const other = await addSitting(database.db);
    const second = await addAnotherSitting(database.db, pupil, { examCode: 'CALC-1' });
    expect(await codeOf(loadOwnSitting(database.db, principalOf(pupil), other.scheduleHistoryId))).toBe('NOT_FOUND');
    expect(await codeOf(loadOwnSitting(database.db, principalOf(pupil, false), other.scheduleHistoryId))).toBe('NOT_FOUND');
    expect(await codeOf(loadOwnSitting(database.db, principalOf(pupil), second))).toBe('NOT_FOUND');
    expect((await loadOwnSitting(database.db, principalOf(pupil, false), second)).history.id).toBe(second);
    for (const id of [0, -1, 1.5, MAX_ID + 1, Number.NaN]) {
      expect(await codeOf(loadOwnSitting(database.db, principalOf(pupil, false), id)), String(id)).toBe('NOT_FOUND');
    }
    // The largest id there can be is looked up (and here there is none).
    expect(await codeOf(loadOwnSitting(database.db, principalOf(pupil, false), MAX_ID))).toBe('NOT_FOUND');
    expect(MAX_ID).toBe(2 ** 31 - 1);
  });

  test('step mode: a later level waits while an earlier one of the subject is still to be taken', async () => {
    const pupil = await addSitting(database.db, { organization: { enableModeStep: true } });
    const level2 = await addAnotherSitting(database.db, pupil, { examCode: 'EN-2' });
    const calc2 = await addAnotherSitting(database.db, pupil, { examCode: 'CALC-2' });
    const wide = principalOf(pupil, false);
    expect(await codeOf(loadOwnSitting(database.db, wide, level2))).toBe('ER_SCHEDULE_HISTORY_STEP_MODE');
    // Another subject's later level is not held back by English, nor is the first level itself.
    expect((await loadOwnSitting(database.db, wide, calc2)).history.id).toBe(calc2);
    expect((await loadOwnSitting(database.db, wide, pupil.scheduleHistoryId)).history.id).toBe(pupil.scheduleHistoryId);

    await setHistory(pupil.scheduleHistoryId, { status: S.DOING });
    expect(await codeOf(loadOwnSitting(database.db, wide, level2))).toBe('ER_SCHEDULE_HISTORY_STEP_MODE');
    // Once the earlier level is done (or can never be: cancelled, expired), the next one opens.
    for (const status of [S.COMPLETED, S.CANCELED_PENDING, S.EXPIRED]) {
      await setHistory(pupil.scheduleHistoryId, { status });
      expect((await loadOwnSitting(database.db, wide, level2)).history.id, String(status)).toBe(level2);
    }
  });

  test('step mode holds back only a sitting still to be started, and only where the organisation uses it', async () => {
    const pupil = await addSitting(database.db, { organization: { enableModeStep: true } });
    const level2 = await addAnotherSitting(database.db, pupil, { examCode: 'EN-2', status: S.DOING });
    expect((await loadOwnSitting(database.db, principalOf(pupil, false), level2)).history.id).toBe(level2);

    const plain = await addSitting(database.db);
    const plain2 = await addAnotherSitting(database.db, plain, { examCode: 'EN-2' });
    expect((await loadOwnSitting(database.db, principalOf(plain, false), plain2)).history.id).toBe(plain2);
  });

  test('isStepLocked, sitting by sitting', async () => {
    const pupil = await addSitting(database.db, { organization: { enableModeStep: true } });
    await addAnotherSitting(database.db, pupil, { examCode: 'EN-2' });
    await addAnotherSitting(database.db, pupil, { examCode: 'EN-3' });
    const all = await loadSittingsOfExaminee(database.db, pupil.examineeId);
    expect(all.map((s) => s.history.id)).toEqual([...all.map((s) => s.history.id)].sort((a, b) => b - a));
    const byLevel = (position: number) => all.find((s) => s.level.position === position)!;
    const positions = all.map((s) => s.level.position).sort();
    const [first, second, third] = positions.map(byLevel);
    expect(isStepLocked(first!, all)).toBe(false);
    expect(isStepLocked(second!, all)).toBe(true);
    expect(isStepLocked(third!, all)).toBe(true);
    // Only earlier levels count: the last one alone locks nothing.
    expect(isStepLocked(second!, [second!, third!])).toBe(false);
    const off = { ...second!, organization: { ...second!.organization, enableModeStep: false } };
    expect(isStepLocked(off, all)).toBe(false);
  });

  test('the device check by id: a DOING exam belongs to the terminal that started it', async () => {
    const pupil = await addSitting(database.db);
    const other = await addSitting(database.db);
    const check = (principal: Principal, id: number, device: string | undefined) => codeOf(assertOwnDevice(database.db, principal, id, device));
    await setHistory(pupil.scheduleHistoryId, { status: S.DOING, deviceToken: 'terminal-a' });
    expect(await check(principalOf(pupil), pupil.scheduleHistoryId, 'terminal-a')).toBe('resolved');
    expect(await check(principalOf(pupil), pupil.scheduleHistoryId, 'terminal-b')).toBe('INCORRECT_DEVICE');
    expect(await check(principalOf(pupil), pupil.scheduleHistoryId, undefined)).toBe('INCORRECT_DEVICE');
    // Not the caller's, or no such id: the call itself answers (NOT_FOUND), not the device check.
    expect(await check(principalOf(other), pupil.scheduleHistoryId, 'terminal-b')).toBe('resolved');
    expect(await check(principalOf(other, false), pupil.scheduleHistoryId, 'terminal-b')).toBe('resolved');
    expect(await check(principalOf(pupil), 0, 'terminal-b')).toBe('resolved');
    expect(await check(principalOf(pupil, false), MAX_ID, 'terminal-b')).toBe('resolved');

    await setHistory(pupil.scheduleHistoryId, { status: S.COMPLETED });
    expect(await check(principalOf(pupil), pupil.scheduleHistoryId, 'terminal-b')).toBe('resolved');
    await setHistory(pupil.scheduleHistoryId, { status: S.DOING, deviceToken: null });
    expect(await check(principalOf(pupil), pupil.scheduleHistoryId, 'terminal-b')).toBe('resolved');
  });
});

/** A sitting as loaded, with only what these rules read. */
function sittingWith(change: { status?: number; deviceToken?: string | null; isMyPageLogin?: boolean; foreignPaymentMethod?: boolean }): Sitting {
  return {
    history: { id: 1, status: change.status ?? S.DOING, deviceToken: change.deviceToken ?? null },
    examinee: { isMyPageLogin: change.isMyPageLogin ?? false },
    organization: { foreignPaymentMethod: change.foreignPaymentMethod ?? false },
  } as unknown as Sitting;
}

describe('the rules of a loaded sitting', () => {
  it('assertDevice: only a DOING exam bound to another terminal (or to one, when none is sent) is refused', () => {
    const refused = (sitting: Sitting, device: string | undefined) => {
      try {
        assertDevice(sitting, device);
        return undefined;
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    expect(refused(sittingWith({ deviceToken: 'a' }), 'a')).toBeUndefined();
    expect(refused(sittingWith({ deviceToken: 'a' }), 'b')).toBe('INCORRECT_DEVICE');
    expect(refused(sittingWith({ deviceToken: 'a' }), undefined)).toBe('INCORRECT_DEVICE');
    expect(refused(sittingWith({ deviceToken: null }), 'b')).toBeUndefined();
    for (const status of [S.PENDING, S.COMPLETED]) expect(refused(sittingWith({ status, deviceToken: 'a' }), 'b')).toBeUndefined();
  });

  it('paysOnline: my-page logins and pupils of foreign-payment organisations', () => {
    expect(paysOnline(sittingWith({}))).toBe(false);
    expect(paysOnline(sittingWith({ isMyPageLogin: true }))).toBe(true);
    expect(paysOnline(sittingWith({ foreignPaymentMethod: true }))).toBe(true);
  });

  it('isSuspended: from the start of the suspension, up to (not at) its end; never without both ends', () => {
    const from = new Date('2026-06-01T10:00:00Z');
    const until = new Date('2026-06-01T11:00:00Z');
    const at = (ms: number) => new Date(from.getTime() + ms);
    const schedule = { suspendedFrom: from, suspendedUntil: until } as Sitting['schedule'];
    expect(isSuspended(schedule, at(-1))).toBe(false);
    expect(isSuspended(schedule, from)).toBe(true);
    expect(isSuspended(schedule, at(30 * 60_000))).toBe(true);
    expect(isSuspended(schedule, at(60 * 60_000 - 1))).toBe(true);
    expect(isSuspended(schedule, until)).toBe(false);
    expect(isSuspended({ ...schedule, suspendedFrom: null }, from)).toBe(false);
    expect(isSuspended({ ...schedule, suspendedUntil: null }, from)).toBe(false);
  });
});
