/**
 * An ExamCachePort in memory: for tests, and for browsers that refuse IndexedDB (the exam then
 * resumes offline only as long as the page lives). Same promises as the IndexedDB one
 * (src/platform/exam-cache.ts): one owner at a time, never another owner's or sitting's record.
 */
import type { CachedExam, ExamCachePort } from './exam.types.ts';

export function createMemoryExamCache(): ExamCachePort & { records: Map<number, CachedExam> } {
  const records = new Map<number, CachedExam>();
  return {
    records,
    put: async (exam) => {
      for (const [id, kept] of records) if (kept.owner !== exam.owner) records.delete(id);
      records.set(exam.scheduleHistoryId, structuredClone(exam));
    },
    get: async (scheduleHistoryId, owner) => {
      const kept = records.get(scheduleHistoryId);
      return kept && kept.owner === owner ? structuredClone(kept) : null;
    },
    clear: async () => records.clear(),
  };
}
