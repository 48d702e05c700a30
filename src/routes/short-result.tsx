/**
 * /short-result: Short result: score, passed or not, correct rate.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedShortResult } from '../app/connect/short-result.tsx';
import { rootRoute } from './__root.tsx';

export const shortResultRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/short-result',
  component: ConnectedShortResult,
});
