/**
 * /start: the exam itself (seed section 2).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const startRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/start',
  component: lazyRouteComponent(() => import('../app/connect/exam.tsx'), 'ConnectedExam'),
});
