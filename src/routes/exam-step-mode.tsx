/**
 * /exam-step-mode: the exam list in step mode.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const examListStepModeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam-step-mode',
  component: lazyRouteComponent(() => import('../app/connect/exam-list.tsx'), 'ConnectedExamList'),
});
