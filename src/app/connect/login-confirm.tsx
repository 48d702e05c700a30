/**
 * The login-confirm screen wired to the kiosk machine: its props come from useScreen('login-confirm').
 */
import { LoginConfirmScreen } from '../../screens/login-confirm/login-confirm.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedLoginConfirm() {
  return <LoginConfirmScreen {...useScreen('login-confirm')} />;
}
