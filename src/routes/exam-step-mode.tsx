/**
 * /exam-step-mode: the exam list in step mode.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedExamList } from '../app/connect/exam-list.tsx';
import { rootRoute } from './__root.tsx';

export const examListStepModeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/exam-step-mode',
  component: ConnectedExamList,
});
