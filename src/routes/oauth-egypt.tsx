/**
 * /oauth-egypt: partner entry for Egypt, login type 7 (seed section 2, rule 3).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { PartnerEntryQuerySchema } from '../../contract/session.ts';
import { searchValidator } from './search.ts';
import { rootRoute } from './__root.tsx';

export const oauthEgyptRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/oauth-egypt',
  validateSearch: searchValidator(PartnerEntryQuerySchema),
  component: lazyRouteComponent(() => import('../app/connect/entry.tsx'), 'ConnectedEntry'),
});
