/**
 * The document actor (machines/document/document.connect.ts) as the print routes see it: the
 * score report and certificate (`score-report-embed.tsx`) and the login slips (`login-slips.tsx`).
 *
 * `useDocument(page)` subscribes to the actor with `useSelector` and gives its pure `connect`;
 * until the kiosk runs the actor (it is judging the URL), that page's loading state.
 *
 * `useDocumentReady(status, error, needsMath)` sets `<html data-document-ready>` once what the
 * page shows is settled ("true", or "error" with `data-document-error` = the failure code), after
 * the fonts (and KaTeX, when the page has formulas) have loaded and two frames have painted: the
 * PDF renderer (server/documents/renderer.ts) waits for it before `page.pdf()`.
 */
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { connect, printedReport, type DocumentApi } from '../../../machines/document/document.connect.ts';
import { loadKatex } from '../../components/math/katex-loader.ts';
import { useSystemActor } from '../actors.ts';

function judging(page: DocumentApi['page']): DocumentApi {
  return {
    status: 'loading',
    page,
    report: null,
    slips: null,
    error: null,
    needsMath: false,
    canRetry: false,
    retry: () => undefined,
    scoreReport: printedReport('loading', null, null, undefined),
    certificate: null,
  };
}

export function useDocument(page: DocumentApi['page']): DocumentApi {
  const actor = useSystemActor('document');
  const snapshot = useSelector(actor, (current) => current);
  return actor && snapshot ? connect(snapshot, actor.send) : judging(page);
}

export function useDocumentReady(status: DocumentApi['status'], error: string | null, needsMath: boolean): void {
  useEffect(() => {
    if (status === 'loading') return;
    const root = document.documentElement;
    let live = true;
    const settled = Promise.all([document.fonts?.ready, needsMath ? loadKatex().catch(() => undefined) : undefined]);
    void settled.then(() => {
      // Two frames: React has committed what the fonts and formulas changed, and it is painted.
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
  }, [status, error, needsMath]);
}
