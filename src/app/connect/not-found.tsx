/**
 * /404 bound to the session actor (machines/session/session.connect.ts): one way on, the login
 * page the session chooses.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { NotFoundScreen } from '../../screens/not-found/not-found.tsx';
import { useSession } from './use-session.ts';

export function ConnectedNotFound() {
  const api = useSession();
  return api ? <NotFoundScreen api={api} /> : <BootingScreen />;
}
