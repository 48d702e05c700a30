/**
 * The proctor page wired to the kiosk: the kiosk runs the proctor machine as its child while the
 * location is /proctor, and the proctor runs its child `administration` for an administrator.
 * This binding subscribes to both with `useSelector`, re-reads this terminal's clock every second
 * (the roster's "last seen" and time left), and the screen renders what the proctor connect gives
 * for them. Until the child runs (the kiosk is still judging the URL), the boot skeleton.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { administrationMachine } from '../../../machines/administration/administration.machine.ts';
import { connect } from '../../../machines/proctor/proctor.connect.ts';
import { useNow } from '../../platform/clock.ts';
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ProctorScreen } from '../../screens/proctor/proctor.tsx';
import { useSystemActor, type SystemActors } from '../actors.ts';

type AdministrationActor = ActorRefFrom<typeof administrationMachine>;

/** The page bound to a proctor actor (and its console, for an administrator): subscribed, rendered from its `connect`. */
export function BoundProctor({ actor }: { actor: SystemActors['proctor'] }) {
  const snapshot = useSelector(actor, (current) => current);
  // Spawned by the proctor machine for an administrator only (machines/administration).
  const child = snapshot.children.administration as AdministrationActor | undefined;
  const administration = useSelector(child, (current) => current);
  const now = useNow(1_000);
  const administrationChild = child && administration ? { snapshot: administration, send: child.send } : null;
  return <ProctorScreen api={connect(snapshot, actor.send, now, administrationChild)} />;
}

export function ConnectedProctor() {
  const actor = useSystemActor('proctor');
  return actor ? <BoundProctor actor={actor} /> : <BootingScreen />;
}
