/**
 * /checking-domain-connection: the terminal check (seed section 2), public. The
 * kiosk machine decides that it is shown; the connectivity machine decides what it shows.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
// The path without the connectivity machine, which loads on demand (machines/kiosk/kiosk.lazy.ts).
import { TERMINAL_CHECK_PATH } from '../../machines/kiosk/child-routes.ts';
import { rootRoute } from './__root.tsx';

export const checkingDomainConnectionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: TERMINAL_CHECK_PATH,
  component: lazyRouteComponent(() => import('../app/connect/connectivity.tsx'), 'ConnectedConnectivity'),
});
