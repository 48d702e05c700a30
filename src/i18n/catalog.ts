/**
 * Loads one locale's compiled catalog at a time. The PO file is compiled by @lingui/vite-plugin
 * when it is imported, and each catalog becomes its own chunk, so a pupil downloads only theirs.
 */
import type { Messages } from '@lingui/core';
import type { CatalogKey } from '../../contract/languages.ts';

export async function loadCatalog(catalog: CatalogKey): Promise<Messages> {
  const module = (await import(`../../locales/${catalog}/messages.po`)) as { messages: Messages };
  return module.messages;
}
