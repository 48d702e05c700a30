/**
 * /oauth: where every single sign-on ends (seed section 2, rule 1); no screen but the entry's progress or failure.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedEntry } from '../app/connect/entry.tsx';
import { OauthQuerySchema } from '../../contract/session.ts';
import { searchValidator } from './search.ts';
import { rootRoute } from './__root.tsx';

export const oauthRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/oauth',
  validateSearch: searchValidator(OauthQuerySchema),
  component: ConnectedEntry,
});
