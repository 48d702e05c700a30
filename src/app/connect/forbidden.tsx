/**
 * /403 bound to the session actor (seed section 2, rule 7): the "not logged in" view with the
 * header, saying the page needs a login; it leads to the login page, which the session chooses.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ForbiddenScreen } from '../../screens/forbidden/forbidden.tsx';
import { useSession } from './use-session.ts';

export function ConnectedForbidden() {
  const api = useSession();
  return api ? <ForbiddenScreen api={api} /> : <BootingScreen />;
}
