/**
 * Loads one locale's compiled catalog at a time, in two parts (scripts/lib/catalog-parts-plugin.ts):
 * the first screen's messages (`first-screen`, loaded before the first paint) and every other
 * message (`later`, which the first part loads). Each part of each language is its own chunk,
 * so a pupil downloads only theirs, and the first screen waits only for its own few messages.
 */
import type { Messages } from '@lingui/core';
import type { CatalogKey } from '../../contract/languages.ts';

export type CatalogPart = 'first-screen' | 'later';

type FirstScreenPart = { messages: Messages; later: () => Promise<{ messages: Messages }> };
const firstScreenParts = import.meta.glob<FirstScreenPart>('../../locales/*/messages.po', { query: '?first-screen' });

/** One part of a catalog, or (no part) the whole catalog. */
export async function loadCatalog(catalog: CatalogKey, part?: CatalogPart): Promise<Messages> {
  const load = firstScreenParts[`../../locales/${catalog}/messages.po`];
  if (!load) throw new Error(`No catalog for ${catalog}`);
  const first = await load();
  if (part === 'first-screen') return first.messages;
  const { messages: later } = await first.later();
  return part === 'later' ? later : { ...first.messages, ...later };
}
