/**
 * /login-slips/{schedule code}?token=&venue=: a test period's login slips for printing, opened by
 * the PDF renderer with the print's slips token (server/routes/exports.ts). Lazy: only the
 * renderer ever opens it.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const loginSlipsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login-slips/$code',
  component: lazyRouteComponent(() => import('../app/connect/login-slips.tsx'), 'ConnectedLoginSlips'),
});
