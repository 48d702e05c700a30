/**
 * Any other path: the machine treats it as unknown and moves to /404 (seed section 2); until it has, the boot skeleton.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedBooting } from '../app/connect/booting.tsx';
import { rootRoute } from './__root.tsx';

export const catchAllRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  component: ConnectedBooting,
});
