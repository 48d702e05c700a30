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
  return {
    async put(exam) {
      const database = await db();
      const tx = database.transaction(STORE, 'readwrite');
      const others = (await tx.store.getAll()).filter((kept) => kept.owner !== exam.owner);
      await Promise.all([...others.map((kept) => tx.store.delete(kept.scheduleHistoryId)), tx.store.put(structuredClone(exam)), tx.done]);
    },
    async get(scheduleHistoryId, owner) {
      const database = await db();
      const parsed = v.safeParse(CachedExamSchema, await database.get(STORE, scheduleHistoryId));
      if (!parsed.success || parsed.output.owner !== owner || parsed.output.scheduleHistoryId !== scheduleHistoryId) return null;
      return parsed.output;
    },
    async clear() {
      const database = await db();
      await database.clear(STORE);
    },
  };
}
