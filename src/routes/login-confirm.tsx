/**
 * /login-confirm: confirm the candidate, subject and level.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedLoginConfirm } from '../app/connect/login-confirm.tsx';
import { rootRoute } from './__root.tsx';

export const loginConfirmRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login-confirm',
  component: ConnectedLoginConfirm,
});
