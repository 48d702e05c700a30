/**
 * /403: a page that needs a stored login, opened without one (seed section 2, rule 7).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const forbiddenRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/403',
  component: lazyRouteComponent(() => import('../app/connect/forbidden.tsx'), 'ConnectedForbidden'),
});
