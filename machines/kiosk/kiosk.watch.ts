/**
 * Watching the whole kiosk: the root's own subscribers hear only the root, but a screen may
 * change because a child (session, exam) moved. This reports every snapshot change anywhere
 * in the kiosk's actor system, so views and the router see children move too.
 */
import type { Actor, AnyStateMachine, SnapshotFrom } from 'xstate';

type AnyKiosk = Actor<AnyStateMachine>;
type SnapshotOf<A extends AnyKiosk> = SnapshotFrom<A['logic']>;

export function watchKiosk<A extends AnyKiosk>(actor: A, listener: (snapshot: SnapshotOf<A>) => void): () => void {
  const subscription = actor.system.inspect((event) => {
    if (event.type === '@xstate.snapshot') listener(actor.getSnapshot() as SnapshotOf<A>);
  });
  return () => subscription.unsubscribe();
}

/** Resolves once the predicate holds for the kiosk (checked on every change in the system). */
export function waitForKiosk<A extends AnyKiosk>(
  actor: A,
  predicate: (snapshot: SnapshotOf<A>) => boolean,
  timeoutMs = 5000,
): Promise<SnapshotOf<A>> {
  return new Promise((resolve, reject) => {
    const current = actor.getSnapshot() as SnapshotOf<A>;
    if (predicate(current)) return resolve(current);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`waitForKiosk: condition not met within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = watchKiosk(actor, (snapshot) => {
      if (predicate(snapshot)) {
        clearTimeout(timer);
        stop();
        resolve(snapshot);
      }
    });
  });
}
