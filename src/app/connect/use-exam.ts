/**
 * The exam's screens read the exam actor this way: found by name in the kiosk's tree
 * (useSystemActor), subscribed to that actor alone (its snapshot through React's
 * `useSyncExternalStore`, as `@xstate/react`'s `useSelector` does, without a selector's extra
 * work), and turned into what they render by the exam's pure `connect`
 * (machines/exam/exam.connect.ts). Undefined while no exam runs. A snapshot in error is thrown, as
 * `useSelector` does.
 *
 * Each screen reads one part of the connect, so a snapshot makes only the part read
 * (`connectLazily`), once per snapshot however often the screen renders: a question swap makes
 * the exam screen's part alone (issue 12).
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { connectLazily, type ExamApi, type ExamSnapshot } from '../../../machines/exam/exam.connect.ts';
import { useSystemActor } from '../actors.ts';

export function useExam(): ExamApi | undefined {
  const actor = useSystemActor('exam');
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!actor) return () => {};
      const subscription = actor.subscribe({ next: onChange, error: onChange });
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  const current = useCallback((): ExamSnapshot | undefined => actor?.getSnapshot(), [actor]);
  const snapshot = useSyncExternalStore(subscribe, current);
  if (snapshot?.status === 'error') throw snapshot.error;
  const send = actor?.send;
  return useMemo(() => (send && snapshot ? connectLazily(snapshot, send) : undefined), [snapshot, send]);
}
