/**
 * /pay-exam-fee: Pay the exam fee.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedPayExamFee } from '../app/connect/payment.tsx';
import { rootRoute } from './__root.tsx';

export const payExamFeeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pay-exam-fee',
  component: ConnectedPayExamFee,
});
