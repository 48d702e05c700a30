/**
 * /exam: the exam list.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedExamList } from '../app/connect/exam-list.tsx';
import { rootRoute } from './__root.tsx';

export const examListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam',
  component: ConnectedExamList,
});
