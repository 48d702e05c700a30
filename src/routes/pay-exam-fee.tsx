/**
 * /pay-exam-fee: Pay the exam fee.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const payExamFeeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pay-exam-fee',
  component: lazyRouteComponent(() => import('../app/connect/payment.tsx'), 'ConnectedPayExamFee'),
});
