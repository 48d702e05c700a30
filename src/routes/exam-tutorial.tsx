/**
 * /exam-tutorial: how the test works.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedExamTutorial } from '../app/connect/exam-tutorial.tsx';
import { rootRoute } from './__root.tsx';

export const examTutorialRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam-tutorial',
  component: ConnectedExamTutorial,
});
