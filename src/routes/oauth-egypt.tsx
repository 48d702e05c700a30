/**
 * /oauth-egypt: partner entry for Egypt, login type 7 (seed section 2, rule 3).
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedEntry } from '../app/connect/entry.tsx';
import { PartnerEntryQuerySchema } from '../../contract/session.ts';
import { searchValidator } from './search.ts';
import { rootRoute } from './__root.tsx';

export const oauthEgyptRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/oauth-egypt',
  validateSearch: searchValidator(PartnerEntryQuerySchema),
  component: ConnectedEntry,
});
