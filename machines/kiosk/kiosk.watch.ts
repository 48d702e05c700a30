/**
 * Watching the whole kiosk: the root's own subscribers hear only the root, but a screen may
 * change because a child (session, exam) moved. This reports every snapshot change anywhere
 * in the kiosk's actor system but a quiet machine's (machines/shared/quiet.ts: the exam's
 * position, whose snapshot changes on every question swap), so views and the router see children
 * move too.
 *
 * One inspector per kiosk, however many watch it: XState hands every inspection event (each
 * event, microstep, action and snapshot) to every inspector, so one per watcher (the router, the
 * shell's values, each connected screen) would multiply that work on every change, a question
 * swap's included. The watchers are called in the order they started watching.
 */
import type { Actor, AnyStateMachine, SnapshotFrom } from 'xstate';
import { isQuiet } from '../shared/quiet.ts';

type AnyKiosk = Actor<AnyStateMachine>;

type SnapshotOf<A extends AnyKiosk> = SnapshotFrom<A['logic']>;

/** Per kiosk: its watchers, and how to stop its one inspector once none is left. */
const watched = new WeakMap<AnyKiosk, { listeners: Set<() => void>; stop: () => void }>();

export function watchKiosk<A extends AnyKiosk>(actor: A, listener: (snapshot: SnapshotOf<A>) => void): () => void {
  let entry = watched.get(actor);
  if (!entry) {
    const listeners = new Set<() => void>();
    const subscription = actor.system.inspect((event) => {
      if (event.type !== '@xstate.snapshot' || isQuiet(event.actorRef)) return;
      // A copy: a watcher may start while they are called (it hears the next change); one that
      // stops is not called again.
      for (const each of [...listeners]) if (listeners.has(each)) each();
    });
    entry = { listeners, stop: () => subscription.unsubscribe() };
    watched.set(actor, entry);
  }
  // Its own function, so the same listener given twice is two watchers, each stopped alone.
  const call = () => listener(actor.getSnapshot() as SnapshotOf<A>);
  const { listeners } = entry;
  listeners.add(call);
  return () => {
    if (!listeners.delete(call) || listeners.size > 0) return;
    entry.stop();
    watched.delete(actor);
  };
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
