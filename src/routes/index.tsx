/**
 * / : the machine decides where a pupil starts; until it has, the boot skeleton.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedBooting } from '../app/connect/booting.tsx';
import { rootRoute } from './__root.tsx';

export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: ConnectedBooting,
});
