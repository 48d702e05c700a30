/**
 * /purchased-result: What was bought: the score report and the certificate.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const purchasedResultRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/purchased-result',
  component: lazyRouteComponent(() => import('../app/connect/purchased-result.tsx'), 'ConnectedPurchasedResult'),
});
