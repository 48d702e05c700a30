/**
 * The login screen wired to the kiosk machine: its props come from useScreen('login').
 */
import { LoginScreen } from '../../screens/login/login.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedLogin() {
  return <LoginScreen {...useScreen('login')} />;
}
