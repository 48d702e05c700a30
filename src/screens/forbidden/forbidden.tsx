/**
 * No access, at /403 (seed section 2, rule 7): the page needs a stored login and there is none.
 * It is the seed's "not logged in" view with the exam header (one `<main>`, one h1), saying why:
 * the page needs a login. One way on: the login page; the machine decides which one.
 */
import { Trans } from '@lingui/react/macro';
import { NotLoggedInScreen } from '../not-logged-in/not-logged-in.tsx';

export interface ForbiddenScreenProps {
  onGoToLogin(): void;
}

export function ForbiddenScreen({ onGoToLogin }: ForbiddenScreenProps) {
  return (
    <NotLoggedInScreen onGoToLogin={onGoToLogin}>
      <Trans>You need to log in to see this page.</Trans>
    </NotLoggedInScreen>
  );
}
