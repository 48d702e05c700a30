/**
 * /exam-tutorial: how the test works.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const examTutorialRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam-tutorial',
  component: lazyRouteComponent(() => import('../app/connect/exam-tutorial.tsx'), 'ConnectedExamTutorial'),
});
