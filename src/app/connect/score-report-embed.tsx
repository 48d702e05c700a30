/**
 * The print route (seed section 2, `score-report-embed/{id}`) wired to the kiosk machine: the
 * score report's print variant or the certificate, whichever the URL asked for. Loaded lazily
 * by its route, so visx (imported only by the score report screen) stays out of every other page.
 *
 * When the document is on the page with its fonts and formulas, `<html data-document-ready>` is
 * set ("true", or "error" with `data-document-error` = the failure code): the PDF renderer
 * (server/documents/) waits for it before `page.pdf()`.
 */
import { useEffect } from 'react';
import { loadKatex } from '../../components/math/katex-loader.ts';
import { CertificateDocument } from '../../screens/certificate/certificate.tsx';
import { ScoreReportScreen } from '../../screens/score-report/score-report.tsx';
import { useScreen } from '../kiosk-bindings.ts';

function useDocumentReady(status: 'loading' | 'ready' | 'error', error: string | null, needsMath: boolean) {
  useEffect(() => {
    if (status === 'loading') return;
    const root = document.documentElement;
    let live = true;
    const settled = Promise.all([document.fonts?.ready, needsMath ? loadKatex().catch(() => undefined) : undefined]);
    void settled.then(() => {
      // Two frames: React has committed what the formulas and fonts changed, and it is painted.
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

export function ConnectedScoreReportEmbed() {
  const view = useScreen('score-report-embed');
  const needsMath = view.document === 'report' && Boolean(view.report?.wrong_answer_example?.math);
  useDocumentReady(view.status, view.error, needsMath);
  if (view.document === 'certificate' && view.status === 'ready' && view.report) return <CertificateDocument report={view.report} />;
  return <ScoreReportScreen variant="print" status={view.status} report={view.report} error={view.error} onRetry={view.onRetry} />;
}
