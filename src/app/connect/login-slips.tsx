/**
 * The login slips' print route (`/login-slips/{code}?token=&venue=`) bound to the document actor
 * (machines/document/document.connect.ts). Once the slips are loaded, the catalog and the date
 * data of every language on them are loaded too (several at once: each slip is in its pupil's
 * language), each into a Lingui instance of its own; the page's own language is left alone. The
 * connect's `connectLoginSlips` says what the screen shows of both.
 *
 * When the slips are on the page with their fonts, `useDocumentReady` tells the PDF renderer
 * (server/documents/renderer.ts) so.
 */
import { setupI18n, type I18n } from '@lingui/core';
import { useEffect, useState } from 'react';
import { catalogOf, intlLocale, type CatalogKey } from '../../../contract/languages.ts';
import { connectLoginSlips, type SlipCatalogs } from '../../../machines/document/document.connect.ts';
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
  const documentApi = useDocument('slips');
  const [catalogs, setCatalogs] = useState<SlipCatalogs<I18n> | null>(null);
  const slips = documentApi.slips;

  useEffect(() => {
    if (!slips) return;
    let live = true;
    loadSlipCatalogs(slips.slips.map((slip) => slip.locale)).then(
      (map) => live && setCatalogs({ for: slips, catalogs: map }),
      () => live && setCatalogs({ for: slips, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [slips]);

  const api = connectLoginSlips(documentApi, catalogs);
  useDocumentReady(api.status, api.error, false);
  return <LoginSlipsScreen api={api} />;
}
