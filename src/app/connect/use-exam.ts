/**
 * The exam's screens read the exam actor this way: found by name in the kiosk's tree
 * (useSystemActor), subscribed to that actor alone, and turned into what they render by the
 * exam's pure `connect` (machines/exam/exam.connect.ts), with the exam's `position` child (the
 * question on screen) while it runs. Undefined while no exam runs. A snapshot
 * in error is thrown, as `@xstate/react`'s `useSelector` does.
 *
 * Each screen reads one part of the connect, so a snapshot makes only the part read
 * (`connectLazily`), once per snapshot however often the screen renders: a question swap makes
 * the exam screen's part alone.
 *
 * The subscription is React state set by the actor's own observer, not `useSyncExternalStore`
 * (which `useSelector` is built on): React gives a store whose snapshot changed a passive effect
 * on every render, and so schedules a task of its own before the next frame on every change of
 * the exam, every question swap's included; measured in the question-swap bench. The
 * exam renders synchronously (no transitions), so there is nothing for that effect to guard.
 */
import { useLayoutEffect, useMemo, useState } from 'react';
import { connectLazily, type ExamApi, type ExamSnapshot } from '../../../machines/exam/exam.connect.ts';
import { useSystemActor } from '../actors.ts';

interface Observed<S> {
  getSnapshot(): S;
  subscribe(observer: { next(): void; error(): void }): { unsubscribe(): void };
}

/**
 * The actor's snapshot, rendered again when it changes; undefined without an actor. Another actor
 * is read at once, in the render that first sees it (never a render of the old one's snapshot).
 */
export function useActorSnapshot<S>(actor: Observed<S> | undefined): S | undefined {
  const [seen, setSeen] = useState(() => ({ actor, snapshot: actor?.getSnapshot() }));
  const snapshot = seen.actor === actor ? seen.snapshot : actor?.getSnapshot();
  // A layout effect: subscribed before the browser can deliver the pupil's next event.
  useLayoutEffect(() => {
    if (!actor) return;
    const update = () => {
      const next = actor.getSnapshot();
      setSeen((before) => (before.actor === actor && before.snapshot === next ? before : { actor, snapshot: next }));
    };
    update(); // a change between the render and now
    const subscription = actor.subscribe({ next: update, error: update });
    return () => subscription.unsubscribe();
  }, [actor]);
  return snapshot;
}

/**
 * The exam's connect, with its `position` child while the pupil answers: the question on screen
 * and the view around it are that child's, and a swap changes its snapshot alone.
 */
export function useExam(): ExamApi | undefined {
  const actor = useSystemActor('exam');
  const positionActor = useSystemActor('examPosition');
  const snapshot: ExamSnapshot | undefined = useActorSnapshot(actor);
  const position = useActorSnapshot(positionActor);
  if (snapshot?.status === 'error') throw snapshot.error;
  if (position?.status === 'error') throw position.error;
  const send = actor?.send;
  const sendPosition = positionActor?.send;
  return useMemo(
    () =>
      send && snapshot
        ? connectLazily(snapshot, send, position && sendPosition ? { snapshot: position, send: sendPosition } : undefined)
        : undefined,
    [snapshot, send, position, sendPosition],
  );
}
