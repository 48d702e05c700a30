/**
 * No access, at /403 (seed section 2, rule 7): the page needs a stored login and there is none.
 * It is the seed's "not logged in" view with the exam header (one `<main>`, one h1), saying why:
 * the page needs a login. One way on: the login page; the machine decides which one.
 */
import { Trans } from '@lingui/react/macro';
import type { SessionApi } from '../../../machines/session/session.connect.ts';
import { NotLoggedInScreen } from '../not-logged-in/not-logged-in.tsx';

export function ForbiddenScreen({ api }: { api: Pick<SessionApi, 'goToLogin'> }) {
  return (
    <NotLoggedInScreen onGoToLogin={api.goToLogin}>
      <Trans>You need to log in to see this page.</Trans>
    </NotLoggedInScreen>
  );
}
