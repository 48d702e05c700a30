/**
 * /oauth: where every single sign-on ends (seed section 2, rule 1); no screen but the entry's progress or failure.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { OauthQuerySchema } from '../../contract/session.ts';
import { searchValidator } from './search.ts';
import { rootRoute } from './__root.tsx';

export const oauthRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/oauth',
  validateSearch: searchValidator(OauthQuerySchema),
  component: lazyRouteComponent(() => import('../app/connect/entry.tsx'), 'ConnectedEntry'),
});
