/**
 * /examinee-info: the registered basic information.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedExamineeInfo } from '../app/connect/examinee-info.tsx';
import { rootRoute } from './__root.tsx';

export const examineeInfoRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/examinee-info',
  component: ConnectedExamineeInfo,
});
