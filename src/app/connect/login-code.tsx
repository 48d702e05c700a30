/**
 * The login-code screen bound to the session actor (machines/session/session.connect.ts); "Check
 * this terminal" is the kiosk's (machines/kiosk/kiosk.connect.ts).
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { LoginCodeScreen } from '../../screens/login-code/login-code.tsx';
import { useCheckTerminal } from '../use-kiosk.ts';
import { useSession } from './use-session.ts';

export function ConnectedLoginCode() {
  const kiosk = useCheckTerminal();
  const api = useSession()?.loginCode;
  if (!api) return <BootingScreen />;
  return <LoginCodeScreen api={api} kiosk={kiosk} />;
}
