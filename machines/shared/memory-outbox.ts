/**
 * An OutboxPort in memory: for tests, and for browsers that refuse IndexedDB (the answers then
 * last as long as the page). Same promises as the IndexedDB one, minus durability.
 */
import type { OutboxEntry, OutboxPort } from './ports.ts';

export function createMemoryOutbox(): OutboxPort & { entries: Map<string, OutboxEntry> } {
  const entries = new Map<string, OutboxEntry>();
  return {
    entries,
    put: async (entry) => {
      // A newer revision of the same question replaces the older ones (see OutboxPort.put).
      for (const [key, kept] of entries) {
        if (kept.scheduleHistoryId === entry.scheduleHistoryId && kept.questionId === entry.questionId && kept.answeredAt <= entry.answeredAt) {
          entries.delete(key);
        }
      }
      entries.set(entry.key, { ...entry });
    },
    list: async (id) => [...entries.values()].filter((e) => e.scheduleHistoryId === id).map((e) => ({ ...e })),
    remove: async (key) => void entries.delete(key),
  };
}
