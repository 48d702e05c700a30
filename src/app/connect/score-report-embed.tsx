/**
 * The print route (seed section 2, `score-report-embed/{id}`) bound to the document actor
 * (machines/document/document.connect.ts): the score report's print variant or the certificate,
 * whichever the URL asked for. Loaded lazily by its route, so visx (imported only by the score
 * report screen) stays out of every other page.
 *
 * When the document is on the page with its fonts and formulas, `useDocumentReady` tells the
 * PDF renderer (server/documents/) so.
 */
import { CertificateDocument } from '../../screens/certificate/certificate.tsx';
import { ScoreReportScreen } from '../../screens/score-report/score-report.tsx';
import { useDocument, useDocumentReady } from './use-document.ts';

export function ConnectedScoreReportEmbed() {
  const api = useDocument('report');
  useDocumentReady(api.status, api.error, api.needsMath);
  if (api.certificate) return <CertificateDocument api={api.certificate} />;
  return <ScoreReportScreen api={api.scoreReport} />;
}
