/**
 * /403 bound to the session actor (seed section 2, rule 7): the forbidden message alongside the
 * "not logged in" view with the header; both lead to the login page, which the session chooses.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ForbiddenScreen } from '../../screens/forbidden/forbidden.tsx';
import { NotLoggedInScreen } from '../../screens/not-logged-in/not-logged-in.tsx';
import { useSession } from './use-session.ts';

export function ConnectedForbidden() {
  const api = useSession();
  if (!api) return <BootingScreen />;
  return (
    <>
      <NotLoggedInScreen onGoToLogin={api.goToLogin} />
      <ForbiddenScreen onGoToLogin={api.goToLogin} />
    </>
  );
}
