/**
 * The booting screen wired to the kiosk machine: its props come from useScreen('booting').
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedBooting() {
  return <BootingScreen {...useScreen('booting')} />;
}
