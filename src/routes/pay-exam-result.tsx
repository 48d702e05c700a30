/**
 * /pay-exam-result: Choose and pay for the result sheet and certificate, with the payment terms.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const payExamResultRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pay-exam-result',
  component: lazyRouteComponent(() => import('../app/connect/payment.tsx'), 'ConnectedPayExamResult'),
});
