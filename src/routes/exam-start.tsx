/**
 * /exam-start: the confirmation that the test cannot be started over.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedExamStart } from '../app/connect/exam-start.tsx';
import { rootRoute } from './__root.tsx';

export const examStartRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam-start',
  component: ConnectedExamStart,
});
