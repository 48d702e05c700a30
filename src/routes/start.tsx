/**
 * /start: the exam itself (seed section 2).
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedExam } from '../app/connect/exam.tsx';
import { rootRoute } from './__root.tsx';

export const startRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/start',
  component: ConnectedExam,
});
