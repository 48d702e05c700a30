/**
 * /oauth-kaigen-philippine: partner entry for the Philippines (seed section 2, rule 2).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { PartnerEntryQuerySchema } from '../../contract/session.ts';
import { searchValidator } from './search.ts';
import { rootRoute } from './__root.tsx';

export const oauthKaigenPhilippineRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/oauth-kaigen-philippine',
  validateSearch: searchValidator(PartnerEntryQuerySchema),
  component: lazyRouteComponent(() => import('../app/connect/entry.tsx'), 'ConnectedEntry'),
});
