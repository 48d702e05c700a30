/**
 * The browser's OutboxPort (machines/shared/ports.ts): answers kept in IndexedDB, one record
 * per idempotency key, indexed by schedule history, until the server acknowledged them.
 *
 * Promises: `put` resolves only after its transaction committed (the answer survives a
 * reload, a crash or power loss from then on); records of another schedule history are never
 * listed; `remove` of an unknown key is not an error.
 */
import type { DBSchema } from 'idb';
import { lazyDatabase } from './lazy-database.ts';
import type { OutboxEntry, OutboxPort } from '../../machines/shared/ports.ts';

/** The database's name; the e2e tests read its record counts. */
export const OUTBOX_DB = 'gradus-outbox';
const STORE = 'answers';
const BY_SITTING = 'by-schedule-history';

interface OutboxSchema extends DBSchema {
  answers: {
    key: string;
    value: OutboxEntry;
    indexes: { 'by-schedule-history': number };
  };
}

/** The outbox in the global IndexedDB (tests install fake-indexeddb's). */
export function createIndexedDbOutbox(name = OUTBOX_DB): OutboxPort {
  const db = lazyDatabase<OutboxSchema>(name, 1, (database) => {
    const store = database.createObjectStore(STORE, { keyPath: 'key' });
    store.createIndex(BY_SITTING, 'scheduleHistoryId');
  });
  return {
    async put(entry) {
      const database = await db();
      const tx = database.transaction(STORE, 'readwrite', { durability: 'strict' });
      // Older revisions of the same question are replaced: the newest answer is the one to send.
      const older = (await tx.store.index(BY_SITTING).getAll(entry.scheduleHistoryId)).filter(
        (kept) => kept.questionId === entry.questionId && kept.answeredAt <= entry.answeredAt && kept.key !== entry.key,
      );
      await Promise.all([...older.map((kept) => tx.store.delete(kept.key)), tx.store.put({ ...entry }), tx.done]);
    },
    async list(scheduleHistoryId) {
      const database = await db();
      return database.getAllFromIndex(STORE, BY_SITTING, scheduleHistoryId);
    },
    async remove(key) {
      const database = await db();
      const tx = database.transaction(STORE, 'readwrite');
      await Promise.all([tx.store.delete(key), tx.done]);
    },
  };
}
