/**
 * Watching the whole kiosk: the root's own subscribers hear only the root, but a screen may
 * change because a child (session, exam) moved. This reports every snapshot change anywhere
 * in the kiosk's actor system, so views and the router see children move too.
 */
import type { Actor, AnyStateMachine, SnapshotFrom } from 'xstate';

type AnyKiosk = Actor<AnyStateMachine>;

export function watchKiosk<A extends AnyKiosk>(actor: A, listener: (snapshot: SnapshotFrom<A['logic']>) => void): () => void {
  const subscription = actor.system.inspect((event) => {
    if (event.type === '@xstate.snapshot') listener(actor.getSnapshot());
  });
  return () => subscription.unsubscribe();
}

/** Resolves once the predicate holds for the kiosk (checked on every change in the system). */
export function waitForKiosk<A extends AnyKiosk>(
  actor: A,
  predicate: (snapshot: SnapshotFrom<A['logic']>) => boolean,
  timeoutMs = 5000,
): Promise<SnapshotFrom<A['logic']>> {
  return new Promise((resolve, reject) => {
    if (predicate(actor.getSnapshot())) return resolve(actor.getSnapshot());
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
