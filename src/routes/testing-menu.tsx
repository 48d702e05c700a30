/**
 * /testing-menu: payment, take test, view results.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedTestingMenu } from '../app/connect/testing-menu.tsx';
import { rootRoute } from './__root.tsx';

export const testingMenuRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/testing-menu',
  component: ConnectedTestingMenu,
});
