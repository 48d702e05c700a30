/**
 * /score-report/{id}: the score report of a released, paid result (seed section 2). Lazy: the
 * charts library is loaded only here and on the print route.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const scoreReportRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/score-report/$id',
  component: lazyRouteComponent(() => import('../app/connect/score-report.tsx'), 'ConnectedScoreReport'),
});
