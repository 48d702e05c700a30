/**
 * /pay-exam-result: Choose and pay for the result sheet and certificate, with the payment terms.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedPayExamResult } from '../app/connect/payment.tsx';
import { rootRoute } from './__root.tsx';

export const payExamResultRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pay-exam-result',
  component: ConnectedPayExamResult,
});
