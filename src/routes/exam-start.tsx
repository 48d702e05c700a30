/**
 * /exam-start: the confirmation that the test cannot be started over.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const examStartRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam-start',
  component: lazyRouteComponent(() => import('../app/connect/exam-start.tsx'), 'ConnectedExamStart'),
});
