/**
 * /short-result: Short result: score, passed or not, correct rate.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const shortResultRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/short-result',
  component: lazyRouteComponent(() => import('../app/connect/short-result.tsx'), 'ConnectedShortResult'),
});
