/**
 * /404: page not found.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const notFoundRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/404',
  component: lazyRouteComponent(() => import('../app/connect/not-found.tsx'), 'ConnectedNotFound'),
});
