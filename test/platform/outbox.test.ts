/**
 * The IndexedDB outbox (src/platform/outbox.ts) on fake-indexeddb: what is put is listed per
 * schedule history until removed, survives a new connection (a reload), and a newer revision
 * of the same question replaces the older one.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../machines/shared/ports.ts';
import { createIndexedDbOutbox } from '../../src/platform/outbox.ts';

let databases = 0;
const freshName = () => `outbox-test-${++databases}`;

const entry = (questionId: number, key: string, answeredAt: string, scheduleHistoryId = 7): OutboxEntry => ({
  scheduleHistoryId,
  questionId,
  value: `v-${key}`,
  key,
  answeredAt,
});

describe('IndexedDB outbox', () => {
  it('lists what was put for one schedule history, until its key is removed', async () => {
    const outbox = createIndexedDbOutbox(freshName());
    await outbox.put(entry(101, 'k1', '2026-11-22T09:01:00.000Z'));
    await outbox.put(entry(102, 'k2', '2026-11-22T09:02:00.000Z'));
    await outbox.put(entry(101, 'k3', '2026-11-22T09:03:00.000Z', 8));
    expect((await outbox.list(7)).map((e) => e.key).sort()).toEqual(['k1', 'k2']);
    expect((await outbox.list(8)).map((e) => e.key)).toEqual(['k3']);
    await outbox.remove('k1');
    await outbox.remove('no-such-key');
    expect((await outbox.list(7)).map((e) => e.key)).toEqual(['k2']);
  });

  it('keeps entries across connections, as after a reload', async () => {
    const name = freshName();
    await createIndexedDbOutbox(name).put(entry(101, 'k1', '2026-11-22T09:01:00.000Z'));
    const reopened = createIndexedDbOutbox(name);
    expect(await reopened.list(7)).toEqual([entry(101, 'k1', '2026-11-22T09:01:00.000Z')]);
  });

  it('replaces an older revision of the same question, never a newer one', async () => {
    const outbox = createIndexedDbOutbox(freshName());
    await outbox.put(entry(101, 'old', '2026-11-22T09:01:00.000Z'));
    await outbox.put(entry(101, 'new', '2026-11-22T09:05:00.000Z'));
    expect((await outbox.list(7)).map((e) => e.key)).toEqual(['new']);
    // A late write of an older revision does not remove the newer one.
    await outbox.put(entry(101, 'older', '2026-11-22T09:00:00.000Z'));
    expect((await outbox.list(7)).map((e) => e.key).sort()).toEqual(['new', 'older']);
  });
});
