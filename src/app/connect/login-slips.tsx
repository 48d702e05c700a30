/**
 * The login slips' print route (`/login-slips/{code}?token=&venue=`) bound to the document actor
 * (machines/document/document.connect.ts). Once the slips are loaded, the catalog and the date
 * data of every language on them are loaded too (several at once: each slip is in its pupil's
 * language), each into a Lingui instance of its own; the page's own language is left alone.
 *
 * When the slips are on the page with their fonts, `<html data-document-ready>` is set ("true",
 * or "error" with `data-document-error` = the failure code): the PDF renderer
 * (server/documents/renderer.ts) waits for it before `page.pdf()`.
 */
import { setupI18n, type I18n } from '@lingui/core';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { catalogOf, intlLocale, type CatalogKey } from '../../../contract/languages.ts';
import { connect, type DocumentApi } from '../../../machines/document/document.connect.ts';
import { loadCatalog } from '../../i18n/catalog.ts';
import { loadIntlPolyfills } from '../../i18n/intl-polyfills.ts';
import { LoginSlipsScreen } from '../../screens/login-slips/login-slips.tsx';
import { useSystemActor } from '../actors.ts';

/** Until the kiosk runs the document actor (it is judging the URL): loading. */
const judging: DocumentApi = {
  status: 'loading',
  page: 'slips',
  report: null,
  slips: null,
  error: null,
  needsMath: false,
  canRetry: false,
  retry: () => undefined,
};

function useDocument(): DocumentApi {
  const actor = useSystemActor('document');
  const snapshot = useSelector(actor, (current) => current);
  return actor && snapshot ? connect(snapshot, actor.send) : judging;
}

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
  const api = useDocument();
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

  useEffect(() => {
    if (status === 'loading') return;
    const root = document.documentElement;
    let live = true;
    void Promise.resolve(document.fonts?.ready).then(() => {
      // Two frames: React has committed the slips and they are painted.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (!live) return;
          root.dataset.documentReady = status === 'ready' ? 'true' : 'error';
          if (error) root.dataset.documentError = error;
        }),
      );
    });
    return () => {
      live = false;
      delete root.dataset.documentReady;
      delete root.dataset.documentError;
    };
  }, [status, error]);

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
