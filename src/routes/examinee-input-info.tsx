/**
 * /examinee-input-info: basic information registration: name, grade, email.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const examineeInputInfoRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/examinee-input-info',
  component: lazyRouteComponent(() => import('../app/connect/examinee-input-info.tsx'), 'ConnectedExamineeInputInfo'),
});
