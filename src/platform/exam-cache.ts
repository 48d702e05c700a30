/**
 * The browser's ExamCachePort (machines/exam/exam.types.ts): what a running exam needs to
 * resume after a reload without the network (its details, questions, the server's deadline,
 * the clock offset, the question on screen, the answers the server was known to hold), kept in
 * IndexedDB next to the answer outbox (its own database, so neither upgrades the other).
 *
 * Promises: one record per schedule history, written whole (a half-written exam is never read);
 * `put` forgets every record of another owner (another login: one pupil at a time on a shared
 * terminal); `get` answers null for another owner or sitting, and for a record that no longer
 * matches the contract (valibot, as everything read back at boot); `clear` forgets everything.
 * No correct answer is ever in it: the server never sends them.
 *
 * Writes are coalesced: the exam is put on every acknowledged answer, and a burst of them (the
 * outbox flushed after the network came back) would queue one IndexedDB transaction each. At
 * most one write is under way; puts arriving meanwhile replace one pending record, written as
 * soon as that write ends, so a burst costs two writes and a single put is written at once (no
 * delay, nothing held back). When the page is hidden or left (`visibilitychange`, `pagehide`:
 * a reload, a tab switch, closing), a pending record is written at once, beside the one under
 * way (IndexedDB runs the two in order). `get` sees every put before it; `clear` drops a
 * pending record, so nothing written before a logout reappears after it. A put's promise
 * settles when the write that carried it has.
 */
import type { DBSchema } from 'idb';
import { lazyDatabase } from './lazy-database.ts';
import * as v from 'valibot';
import type { CachedExam, ExamCachePort } from '../../machines/exam/exam.types.ts';
import { ExamDetailsSchema, QuestionSchema, SavedAnswerSchema } from '../../contract/exam.ts';

/** The database's name; the end-to-end tests read its record counts. */
export const EXAM_CACHE_DB = 'gradus-exam-cache';
const STORE = 'exams';

const CachedExamSchema = v.object({
  scheduleHistoryId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  owner: v.pipe(v.string(), v.minLength(1)),
  details: ExamDetailsSchema,
  questions: v.pipe(v.array(QuestionSchema), v.minLength(1)),
  answers: v.array(SavedAnswerSchema),
  deadlineAt: v.pipe(v.string(), v.isoTimestamp()),
  clockOffsetMs: v.pipe(v.number(), v.finite()),
  questionIndex: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

interface ExamCacheSchema extends DBSchema {
  exams: { key: number; value: CachedExam };
}

/** The cache in the global IndexedDB (tests install fake-indexeddb's). */
export function createIndexedDbExamCache(name = EXAM_CACHE_DB): ExamCachePort {
  const db = lazyDatabase<ExamCacheSchema>(name, 1, (database) => {
    database.createObjectStore(STORE, { keyPath: 'scheduleHistoryId' });
  });

  async function write(exam: CachedExam): Promise<void> {
    const database = await db();
    const tx = database.transaction(STORE, 'readwrite');
    const others = (await tx.store.getAll()).filter((kept) => kept.owner !== exam.owner);
    await Promise.all([...others.map((kept) => tx.store.delete(kept.scheduleHistoryId)), tx.store.put(structuredClone(exam)), tx.done]);
  }

  type Waiter = { resolve: () => void; reject: (error: unknown) => void };
  /** The newest record not yet handed to IndexedDB, and the puts it answers for. */
  let pending: { exam: CachedExam; waiters: Waiter[] } | null = null;
  /** The write under way (settles, never rejects: its waiters hear how it went). */
  let writing: Promise<void> | null = null;

  function writePending(): Promise<void> {
    const batch = pending;
    pending = null;
    if (!batch) return Promise.resolve();
    return write(batch.exam).then(
      () => batch.waiters.forEach((w) => w.resolve()),
      (error: unknown) => batch.waiters.forEach((w) => w.reject(error)),
    );
  }

  function drain(): void {
    if (writing || !pending) return;
    writing = writePending().finally(() => {
      writing = null;
      drain();
    });
  }

  let watching = false;
  function watchPage(): void {
    if (watching || typeof addEventListener !== 'function') return;
    watching = true;
    // Leaving or hiding the page: what is pending goes now, not after the write under way.
    const now = () => void writePending();
    addEventListener('pagehide', now);
    addEventListener('visibilitychange', () => {
      if (typeof document !== 'undefined' && document.visibilityState === 'hidden') now();
    });
  }

  return {
    put(exam) {
      watchPage();
      return new Promise<void>((resolve, reject) => {
        const waiters = pending?.waiters ?? [];
        waiters.push({ resolve, reject });
        pending = { exam, waiters };
        drain();
      });
    },
    async get(scheduleHistoryId, owner) {
      const database = await db();
      // A put not yet written is this terminal's newest word: read after it.
      while (writing || pending) {
        drain();
        await writing;
      }
      const parsed = v.safeParse(CachedExamSchema, await database.get(STORE, scheduleHistoryId));
      if (!parsed.success || parsed.output.owner !== owner || parsed.output.scheduleHistoryId !== scheduleHistoryId) return null;
      return parsed.output;
    },
    async clear() {
      // A record still waiting is forgotten with the rest (its puts are answered: nothing is to be kept).
      const dropped = pending;
      pending = null;
      dropped?.waiters.forEach((w) => w.resolve());
      const database = await db();
      await writing;
      await database.clear(STORE);
    },
  };
}
