/**
 * /score-report-embed/{id}?token=&locale=&document=report|certificate: the print version of the
 * score report, or the certificate, for the PDF renderer and the Android app (seed section 2).
 * Lazy: its screen is the only importer of the charts library.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const scoreReportEmbedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/score-report-embed/$id',
  component: lazyRouteComponent(() => import('../app/connect/score-report-embed.tsx'), 'ConnectedScoreReportEmbed'),
});
