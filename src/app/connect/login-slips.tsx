/**
 * The login slips' print route (`/login-slips/{code}?token=&venue=`) bound to the document actor
 * (machines/document/document.connect.ts). Once the slips are loaded, the catalog and the date
 * data of every language on them are loaded too (several at once: each slip is in its pupil's
 * language), each into a Lingui instance of its own; the page's own language is left alone.
 *
 * When the slips are on the page with their fonts, `useDocumentReady` tells the PDF renderer
 * (server/documents/renderer.ts) so.
 */
import { setupI18n, type I18n } from '@lingui/core';
import { useEffect, useState } from 'react';
import { catalogOf, intlLocale, type CatalogKey } from '../../../contract/languages.ts';
import type { DocumentApi } from '../../../machines/document/document.connect.ts';
import { loadCatalog } from '../../i18n/catalog.ts';
import { loadIntlPolyfills } from '../../i18n/intl-polyfills.ts';
import { LoginSlipsScreen } from '../../screens/login-slips/login-slips.tsx';
import { useDocument, useDocumentReady } from './use-document.ts';

/** A Lingui instance per language on the slips, each with its catalog and date data; null while loading. */
async function loadSlipCatalogs(locales: readonly CatalogKey[]): Promise<Map<string, I18n>> {
  const entries = await Promise.all(
    [...new Set(locales)].map(async (language) => {
      const [messages] = await Promise.all([loadCatalog(catalogOf(language)), loadIntlPolyfills(language)]);
      const locale = intlLocale(language);
      return [language, setupI18n({ locale, messages: { [locale]: messages } })] as const;
    }),
  );
  return new Map(entries);
}

export function ConnectedLoginSlips() {
  const api = useDocument('slips');
  const [catalogs, setCatalogs] = useState<{ for: DocumentApi['slips']; map: Map<string, I18n> } | { for: DocumentApi['slips']; failed: true } | null>(null);
  const slips = api.slips;

  useEffect(() => {
    if (!slips) return;
    let live = true;
    loadSlipCatalogs(slips.slips.map((slip) => slip.locale)).then(
      (map) => live && setCatalogs({ for: slips, map }),
      () => live && setCatalogs({ for: slips, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [slips]);

  const loaded = catalogs && catalogs.for === slips ? catalogs : null;
  const failed = loaded !== null && 'failed' in loaded;
  const status = api.status === 'ready' ? (failed ? 'error' : loaded ? 'ready' : 'loading') : api.status;
  const error = failed ? 'GENERIC_ERROR' : api.error;

  useDocumentReady(status, error, false);

  return (
    <LoginSlipsScreen
      status={status}
      slips={slips}
      catalogs={loaded && !('failed' in loaded) ? loaded.map : null}
      error={error}
      onRetry={api.canRetry ? api.retry : undefined}
    />
  );
}
