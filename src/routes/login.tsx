/**
 * /login: login with login ID and password (or an examinee account).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { LoginPageQuerySchema } from '../../machines/session/session.rules.ts';
import { searchValidator } from './search.ts';
import { rootRoute } from './__root.tsx';

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: searchValidator(LoginPageQuerySchema),
  component: lazyRouteComponent(() => import('../app/connect/login.tsx'), 'ConnectedLogin'),
});
