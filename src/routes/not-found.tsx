/**
 * /404: page not found.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedNotFound } from '../app/connect/not-found.tsx';
import { rootRoute } from './__root.tsx';

export const notFoundRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/404',
  component: ConnectedNotFound,
});
