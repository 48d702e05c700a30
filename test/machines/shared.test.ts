/**
 * The small shared pieces every machine leans on (machines/shared/): the failure a call rejects
 * with and how it is read, which failures are worth trying again, the terminal's version-4 UUIDs,
 * and the in-memory answer outbox's promises (the IndexedDB one is test/platform/outbox.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryOutbox } from '../../machines/shared/memory-outbox.ts';
import { ApiFailure, failureCodeOf, isTransientFailure } from '../../machines/shared/ports.ts';
import { uuidV4 } from '../../machines/shared/uuid.ts';

describe('ApiFailure and failureCodeOf', () => {
  it('an ApiFailure carries its code, status and name; its message defaults to the code', () => {
    const failure = new ApiFailure('TIME_END', 403);
    expect(failure).toBeInstanceOf(Error);
    expect(failure.name).toBe('ApiFailure');
    expect(failure.code).toBe('TIME_END');
    expect(failure.status).toBe(403);
    expect(failure.message).toBe('TIME_END');
    expect(new ApiFailure('NETWORK_ERROR', undefined, 'offline').message).toBe('offline');
    expect(new ApiFailure('NETWORK_ERROR').status).toBeUndefined();
  });

  it('reads the code of an ApiFailure, of anything with a string code, and GENERIC_ERROR otherwise', () => {
    expect(failureCodeOf(new ApiFailure('EXPIRED', 403))).toBe('EXPIRED');
    expect(failureCodeOf({ code: 'TIMEOUT' })).toBe('TIMEOUT');
    for (const error of [new Error('boom'), { code: 42 }, 'NETWORK_ERROR', null, undefined, {}]) {
      expect(failureCodeOf(error), String(error)).toBe('GENERIC_ERROR');
    }
  });
});

describe('isTransientFailure', () => {
  it('no answer, a time-out and the generic error may pass on another try; a refusal will not', () => {
    for (const code of [null, 'NETWORK_ERROR', 'TIMEOUT', 'GENERIC_ERROR'] as const) expect(isTransientFailure(code), String(code)).toBe(true);
    for (const code of ['TIME_END', 'NOT_LOGGED_IN', 'INCORRECT_DEVICE', 'ER_DUP_ENTRY'] as const) expect(isTransientFailure(code), code).toBe(false);
  });
});

describe('uuidV4', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sets the version (4) and the variant (10xx) bits whatever the random bytes are', () => {
    const fill = (byte: number) =>
      vi.spyOn(crypto, 'getRandomValues').mockImplementation(((array: Uint8Array) => array.fill(byte)) as typeof crypto.getRandomValues);
    fill(0xff);
    expect(uuidV4()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    vi.restoreAllMocks();
    fill(0x00);
    expect(uuidV4()).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('is a fresh RFC 4122 version-4 UUID each time', () => {
    const made = new Set(Array.from({ length: 50 }, () => uuidV4()));
    expect(made.size).toBe(50);
    for (const uuid of made) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('the in-memory outbox', () => {
  const entry = (key: string, questionId: number, answeredAt: string, scheduleHistoryId = 7) => ({
    scheduleHistoryId,
    questionId,
    value: key,
    key,
    answeredAt,
  });

  it('a newer answer to a question replaces the older ones; an older one does not replace a newer one', async () => {
    const outbox = createMemoryOutbox();
    await outbox.put(entry('k1', 101, '2026-06-01T09:01:00.000Z'));
    await outbox.put(entry('k2', 101, '2026-06-01T09:02:00.000Z'));
    expect((await outbox.list(7)).map((e) => e.key)).toEqual(['k2']);

    await outbox.put(entry('k0', 101, '2026-06-01T09:00:00.000Z'));
    expect((await outbox.list(7)).map((e) => e.key).sort()).toEqual(['k0', 'k2']);

    // The same instant: the later put is the newer revision, and it replaces every older one.
    await outbox.put(entry('k3', 101, '2026-06-01T09:02:00.000Z'));
    expect((await outbox.list(7)).map((e) => e.key)).toEqual(['k3']);
  });

  it('keeps other questions and other sittings apart', async () => {
    const outbox = createMemoryOutbox();
    await outbox.put(entry('a', 101, '2026-06-01T09:01:00.000Z'));
    await outbox.put(entry('b', 102, '2026-06-01T09:02:00.000Z'));
    await outbox.put(entry('c', 101, '2026-06-01T09:03:00.000Z', 8));
    expect((await outbox.list(7)).map((e) => e.key).sort()).toEqual(['a', 'b']);
    expect((await outbox.list(8)).map((e) => e.key)).toEqual(['c']);
    expect(await outbox.list(9)).toEqual([]);
  });

  it('hands out copies, and forgets a key (an unknown one is no error)', async () => {
    const outbox = createMemoryOutbox();
    const put = entry('a', 101, '2026-06-01T09:01:00.000Z');
    await outbox.put(put);
    put.value = 'changed after put';
    const [listed] = await outbox.list(7);
    expect(listed!.value).toBe('a');
    listed!.value = 'changed after list';
    expect((await outbox.list(7))[0]!.value).toBe('a');

    await outbox.remove('unknown');
    await outbox.remove('a');
    expect(await outbox.list(7)).toEqual([]);
    expect(outbox.entries.size).toBe(0);
  });
});
