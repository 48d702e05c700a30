/**
 * The login page (ID and password) bound to the session actor (machines/session/session.connect.ts);
 * "Check this terminal" is the kiosk's (machines/kiosk/kiosk.connect.ts).
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { LoginScreen } from '../../screens/login/login.tsx';
import { useCheckTerminal } from '../use-kiosk.ts';
import { useSession } from './use-session.ts';

export function ConnectedLogin() {
  const kiosk = useCheckTerminal();
  const api = useSession()?.login;
  if (!api) return <BootingScreen />;
  return <LoginScreen api={api} kiosk={kiosk} />;
}
