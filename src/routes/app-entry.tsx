/**
 * /app-entry: the Android app's entry; needs organization_code (seed section 2, rule 4).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { AppEntryQuerySchema } from '../../contract/session.ts';
import { searchValidator } from './search.ts';
import { rootRoute } from './__root.tsx';

export const appEntryRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/app-entry',
  validateSearch: searchValidator(AppEntryQuerySchema),
  component: lazyRouteComponent(() => import('../app/connect/entry.tsx'), 'ConnectedEntry'),
});
