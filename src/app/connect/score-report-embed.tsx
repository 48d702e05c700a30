/**
 * The print route (seed section 2, `score-report-embed/{id}`) bound to the document actor
 * (machines/document/document.connect.ts): the score report's print variant or the certificate,
 * whichever the URL asked for. Loaded lazily by its route, so visx (imported only by the score
 * report screen) stays out of every other page.
 *
 * When the document is on the page with its fonts and formulas, `<html data-document-ready>` is
 * set ("true", or "error" with `data-document-error` = the failure code): the PDF renderer
 * (server/documents/) waits for it before `page.pdf()`.
 */
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { loadKatex } from '../../components/math/katex-loader.ts';
import { CertificateDocument } from '../../screens/certificate/certificate.tsx';
import { ScoreReportScreen } from '../../screens/score-report/score-report.tsx';
import { connect, type DocumentApi } from '../../../machines/document/document.connect.ts';
import { useSystemActor } from '../actors.ts';

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

/** Until the kiosk runs the document actor (it is judging the URL), the report's loading state. */
const judging: DocumentApi = {
  status: 'loading',
  page: 'report',
  report: null,
  slips: null,
  error: null,
  needsMath: false,
  canRetry: false,
  retry: () => undefined,
};

/** The document actor through its pure `connect`, subscribed with `useSelector`. */
function useDocument(): DocumentApi {
  const actor = useSystemActor('document');
  const snapshot = useSelector(actor, (current) => current);
  return actor && snapshot ? connect(snapshot, actor.send) : judging;
}

export function ConnectedScoreReportEmbed() {
  const api = useDocument();
  useDocumentReady(api.status, api.error, api.needsMath);
  if (api.page === 'certificate' && api.report) return <CertificateDocument report={api.report} />;
  return <ScoreReportScreen variant="print" status={api.status} report={api.report} error={api.error} onRetry={api.canRetry ? api.retry : undefined} />;
}
