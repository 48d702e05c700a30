/**
 * The one Web Storage stand-in of the tests (machines/shared/ports.ts StoragePort): a Map the
 * test can read (`items`), or all of it at once as a plain object (`dump()`), optionally filled
 * with `initial`.
 */
import type { StoragePort } from '../../machines/shared/ports.ts';

export function memoryStorage(initial: Record<string, string> = {}): StoragePort & { items: Map<string, string>; dump(): Record<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    dump: () => Object.fromEntries(items),
  };
}
