/**
 * /testing-menu: payment, take test, view results.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const testingMenuRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/testing-menu',
  component: lazyRouteComponent(() => import('../app/connect/testing-menu.tsx'), 'ConnectedTestingMenu'),
});
