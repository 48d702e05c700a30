/**
 * The terminal check wired to the kiosk: the kiosk runs the connectivity machine as its child
 * while /checking-domain-connection is shown, and the page subscribes to that actor itself. Until
 * the child runs (the kiosk is still judging the URL), the boot skeleton.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ConnectivityScreen } from '../../screens/connectivity/connectivity.tsx';
import { useSystemActor } from '../actors.ts';

export function ConnectedConnectivity() {
  const actor = useSystemActor('connectivity');
  return actor ? <ConnectivityScreen actor={actor} /> : <BootingScreen />;
}
