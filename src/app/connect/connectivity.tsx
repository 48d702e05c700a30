/**
 * The terminal check wired to the kiosk: the kiosk runs the connectivity machine as its child
 * while /checking-domain-connection is shown; this binding subscribes to that actor alone and the
 * screen renders its connect. Until the child runs (the kiosk is still judging the URL), the boot
 * skeleton.
 */
import { useSelector } from '@xstate/react';
import { connect } from '../../../machines/connectivity/connectivity.connect.ts';
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ConnectivityScreen } from '../../screens/connectivity/connectivity.tsx';
import { useSystemActor, type SystemActors } from '../actors.ts';

/** The screen bound to a connectivity actor: subscribed with `useSelector`, rendered from its `connect`. */
export function BoundConnectivity({ actor }: { actor: SystemActors['connectivity'] }) {
  const snapshot = useSelector(actor, (current) => current);
  return <ConnectivityScreen api={connect(snapshot, actor.send)} />;
}

export function ConnectedConnectivity() {
  const actor = useSystemActor('connectivity');
  return actor ? <BoundConnectivity actor={actor} /> : <BootingScreen />;
}
