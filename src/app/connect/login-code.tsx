/**
 * The login-code screen wired to the kiosk machine: its props come from useScreen('login-code').
 */
import { LoginCodeScreen } from '../../screens/login-code/login-code.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedLoginCode() {
  return <LoginCodeScreen {...useScreen('login-code')} />;
}
