/**
 * One IndexedDB database of this terminal, opened on first use and shared by later calls (the
 * answer outbox and the exam cache each keep one). When another tab upgrades the database, this
 * one lets it (closes) and opens again on its next call; a failed open is tried again next time.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export function lazyDatabase<Schema extends DBSchema>(
  name: string,
  version: number,
  upgrade: (database: IDBPDatabase<Schema>) => void,
): () => Promise<IDBPDatabase<Schema>> {
  let opened: Promise<IDBPDatabase<Schema>> | undefined;
  return () => {
    opened ??= openDB<Schema>(name, version, {
      upgrade: (database) => upgrade(database),
      blocking() {
        void opened?.then((d) => d.close());
        opened = undefined;
      },
    }).catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };
}
