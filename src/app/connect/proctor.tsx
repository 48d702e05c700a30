/**
 * The proctor page wired to the kiosk: the kiosk runs the proctor machine as its child while the
 * location is /proctor, and the page subscribes to that actor itself. Until the child runs (the
 * kiosk is still judging the URL), the boot skeleton.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ProctorScreen } from '../../screens/proctor/proctor.tsx';
import { useSystemActor } from '../actors.ts';

export function ConnectedProctor() {
  const actor = useSystemActor('proctor');
  return actor ? <ProctorScreen actor={actor} /> : <BootingScreen />;
}
