/**
 * /exam-end: the end of the test.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const examEndRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam-end',
  component: lazyRouteComponent(() => import('../app/connect/exam-end.tsx'), 'ConnectedExamEnd'),
});
