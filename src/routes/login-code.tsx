/**
 * /login-code: login with a login code.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedLoginCode } from '../app/connect/login-code.tsx';
import { rootRoute } from './__root.tsx';

export const loginCodeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login-code',
  component: ConnectedLoginCode,
});
