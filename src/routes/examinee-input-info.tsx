/**
 * /examinee-input-info: basic information registration: name, grade, email.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedExamineeInputInfo } from '../app/connect/examinee-input-info.tsx';
import { rootRoute } from './__root.tsx';

export const examineeInputInfoRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/examinee-input-info',
  component: ConnectedExamineeInputInfo,
});
