/**
 * /login-code: login with a login code. In the entry chunk: the first screen; every other route but
 * / and the catch-all loads its view lazily (lazyRouteComponent; src/app/preload.ts loads them ahead).
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedLoginCode } from '../app/connect/login-code.tsx';
import { rootRoute } from './__root.tsx';

export const loginCodeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login-code',
  component: ConnectedLoginCode,
});
