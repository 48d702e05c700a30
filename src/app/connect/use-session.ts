/**
 * The session's screens read the session actor this way: found by name in the kiosk's tree
 * (useSystemActor), subscribed with `useSelector`, and turned into what they render by the
 * session's pure `connect` (machines/session/session.connect.ts). A change in another actor (an
 * answer given in the exam) re-renders nothing here. Undefined while no session runs.
 */
import { useSelector } from '@xstate/react';
import { connect, type SessionApi } from '../../../machines/session/session.connect.ts';
import { useSystemActor } from '../actors.ts';

export function useSession(): SessionApi | undefined {
  const actor = useSystemActor('session');
  const snapshot = useSelector(actor, (current) => current);
  return actor && snapshot ? connect(snapshot, actor.send) : undefined;
}
