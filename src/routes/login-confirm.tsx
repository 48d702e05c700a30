/**
 * /login-confirm: confirm the candidate, subject and level.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const loginConfirmRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login-confirm',
  component: lazyRouteComponent(() => import('../app/connect/login-confirm.tsx'), 'ConnectedLoginConfirm'),
});
