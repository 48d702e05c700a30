/**
 * /oauth-kenya: partner entry for Kenya; its token is exchanged first (seed section 2, rule 2).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { PartnerEntryQuerySchema } from '../../contract/session.ts';
import { searchValidator } from './search.ts';
import { rootRoute } from './__root.tsx';

export const oauthKenyaRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/oauth-kenya',
  validateSearch: searchValidator(PartnerEntryQuerySchema),
  component: lazyRouteComponent(() => import('../app/connect/entry.tsx'), 'ConnectedEntry'),
});
