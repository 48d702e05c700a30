/**
 * The boot skeleton: what the kiosk shows while it restores a session or judges a URL. It shows
 * nothing of any actor.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';

export function ConnectedBooting() {
  return <BootingScreen />;
}
