/**
 * /exam: the exam list.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const examListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam',
  component: lazyRouteComponent(() => import('../app/connect/exam-list.tsx'), 'ConnectedExamList'),
});
