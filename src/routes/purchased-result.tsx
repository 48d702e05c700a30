/**
 * /purchased-result: What was bought: the score report and the certificate.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedPurchasedResult } from '../app/connect/purchased-result.tsx';
import { rootRoute } from './__root.tsx';

export const purchasedResultRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/purchased-result',
  component: ConnectedPurchasedResult,
});
