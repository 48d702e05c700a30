/**
 * The IndexedDB exam cache (src/platform/exam-cache.ts) on fake-indexeddb: what a running exam
 * keeps to resume offline is read back after a new connection (a reload), only by the login
 * that wrote it and only for its sitting; a new login's write forgets the last one's; clear
 * forgets everything; a record that no longer matches the contract is not read. Writes are
 * coalesced (a burst of puts is two writes, the newest wins), a logout's clear drops a put not
 * yet written, and leaving the page writes a pending record at once.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CachedExam } from '../../machines/exam/exam.types.ts';
import { createIndexedDbExamCache } from '../../src/platform/exam-cache.ts';
import { demoQuestions } from '../helpers/fake-api.ts';

let databases = 0;
const freshName = () => `exam-cache-test-${++databases}`;

const exam = (overrides: Partial<CachedExam> = {}): CachedExam => ({
  scheduleHistoryId: 7,
  owner: '0f0e0d0c-0b0a-4908-8706-050403020100',
  details: {
    schedule_history_id: 7,
    examinee_name: 'Aiko Tanaka',
    subject: { id: 1, name: 'English' },
    level: { id: 1, name: 'Level 1' },
    exam: { id: 1, title: 'English 1', question_count: 3, time_limit_seconds: 2400 },
    status: 6,
    started_at: '2026-11-22T09:00:00.000Z',
    deadline_at: '2026-11-22T09:40:00.000Z',
    server_time: '2026-11-22T09:00:00.000Z',
  },
  questions: demoQuestions,
  answers: [{ question_id: 101, value: 'a', answered_at: '2026-11-22T09:01:00.000Z' }],
  deadlineAt: '2026-11-22T09:45:00.000Z',
  clockOffsetMs: -1_250,
  questionIndex: 2,
  ...overrides,
});

describe('IndexedDB exam cache', () => {
  it('reads back what was put, after a new connection (a reload)', async () => {
    const name = freshName();
    await createIndexedDbExamCache(name).put(exam());
    expect(await createIndexedDbExamCache(name).get(7, exam().owner)).toEqual(exam());
  });

  it("never gives one login's exam to another login, or another sitting's", async () => {
    const cache = createIndexedDbExamCache(freshName());
    await cache.put(exam());
    expect(await cache.get(7, '11111111-2222-4333-8444-555555555555')).toBeNull();
    expect(await cache.get(8, exam().owner)).toBeNull();
  });

  it("forgets the last login's exam when another login keeps one, and keeps one login's sittings side by side", async () => {
    const cache = createIndexedDbExamCache(freshName());
    await cache.put(exam());
    await cache.put(exam({ scheduleHistoryId: 9, details: { ...exam().details, schedule_history_id: 9 } }));
    expect(await cache.get(7, exam().owner)).not.toBeNull();
    const next = '11111111-2222-4333-8444-555555555555';
    await cache.put(exam({ owner: next, questionIndex: 0 }));
    expect(await cache.get(9, exam().owner)).toBeNull();
    expect(await cache.get(7, exam().owner)).toBeNull();
    expect((await cache.get(7, next))?.questionIndex).toBe(0);
  });

  it('replaces the record of a sitting with the newer one', async () => {
    const cache = createIndexedDbExamCache(freshName());
    await cache.put(exam());
    await cache.put(exam({ questionIndex: 0, deadlineAt: '2026-11-22T09:50:00.000Z' }));
    expect(await cache.get(7, exam().owner)).toMatchObject({ questionIndex: 0, deadlineAt: '2026-11-22T09:50:00.000Z' });
  });

  it('forgets everything on clear (the exam flow ended, or logout)', async () => {
    const name = freshName();
    const cache = createIndexedDbExamCache(name);
    await cache.put(exam());
    await cache.clear();
    expect(await createIndexedDbExamCache(name).get(7, exam().owner)).toBeNull();
  });

  it('does not read a record that no longer matches the contract', async () => {
    const name = freshName();
    const cache = createIndexedDbExamCache(name);
    await cache.put(exam());
    const database = await openDB(name, 1);
    await database.put('exams', { ...exam(), deadlineAt: 'not a time' });
    database.close();
    expect(await createIndexedDbExamCache(name).get(7, exam().owner)).toBeNull();
  });

  describe('coalesced writes', () => {
    afterEach(() => {
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
    });

    it('writes a burst of puts in at most two writes, the newest last, and every put hears when it is written', async () => {
      const name = freshName();
      const cache = createIndexedDbExamCache(name);
      await cache.put(exam({ questionIndex: 0 })); // opens the database
      const transactions = vi.spyOn(IDBDatabase.prototype, 'transaction');
      const puts = [1, 2, 3, 4, 5, 6, 7, 8].map((questionIndex) => cache.put(exam({ questionIndex })));
      await Promise.all(puts);
      expect(transactions.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(transactions.mock.calls.length).toBeLessThanOrEqual(2);
      expect((await createIndexedDbExamCache(name).get(7, exam().owner))?.questionIndex).toBe(8);
    });

    it('reads its own puts, written or not', async () => {
      const cache = createIndexedDbExamCache(freshName());
      void cache.put(exam({ questionIndex: 1 }));
      void cache.put(exam({ questionIndex: 2 }));
      expect((await cache.get(7, exam().owner))?.questionIndex).toBe(2);
    });

    it('forgets a put not yet written when cleared (a logout), so nothing of it reappears', async () => {
      const name = freshName();
      const cache = createIndexedDbExamCache(name);
      const first = cache.put(exam({ questionIndex: 1 }));
      const waiting = cache.put(exam({ questionIndex: 2 }));
      await cache.clear();
      await Promise.all([first, waiting]);
      expect(await createIndexedDbExamCache(name).get(7, exam().owner)).toBeNull();
    });

    it('writes a pending record at once when the page is left, beside the write under way', async () => {
      const listeners = new Map<string, () => void>();
      vi.stubGlobal('addEventListener', (type: string, listener: () => void) => listeners.set(type, listener));
      const name = freshName();
      const cache = createIndexedDbExamCache(name);
      await cache.put(exam({ questionIndex: 0 }));
      await new Promise((resolve) => setTimeout(resolve, 0)); // that write is over
      const transactions = vi.spyOn(IDBDatabase.prototype, 'transaction');
      // Microtasks only: fake-indexeddb completes a transaction in a later macrotask.
      const ticks = async () => {
        for (let i = 0; i < 10; i++) await Promise.resolve();
      };
      const underWay = cache.put(exam({ questionIndex: 1 }));
      const pending = cache.put(exam({ questionIndex: 2 }));
      await ticks();
      expect(transactions).toHaveBeenCalledTimes(1); // the second waits for the first...
      listeners.get('pagehide')!();
      await ticks();
      expect(transactions).toHaveBeenCalledTimes(2); // ...unless the page is left
      await Promise.all([underWay, pending]);
      expect((await createIndexedDbExamCache(name).get(7, exam().owner))?.questionIndex).toBe(2);
    });
  });
});
