/**
 * /exam-end: the end of the test.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedExamEnd } from '../app/connect/exam-end.tsx';
import { rootRoute } from './__root.tsx';

export const examEndRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam-end',
  component: ConnectedExamEnd,
});
