/**
 * /examinee-info: the registered basic information.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const examineeInfoRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/examinee-info',
  component: lazyRouteComponent(() => import('../app/connect/examinee-info.tsx'), 'ConnectedExamineeInfo'),
});
