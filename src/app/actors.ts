/**
 * How a screen finds the actor it renders: by its name in the kiosk's actor tree (`actorPaths`:
 * the kiosk's children session, exam, document, proctor, connectivity; the session's children
 * payment (the exam fee: `feePayment`) and results, and the results' payment (`resultPayment`);
 * the exam's children tutorial and position). A connected screen reads `useSystemActor('exam')` and
 * subscribes to that actor alone with `useSelector` (from `@xstate/react`) through its machine's
 * pure `connect`, so a change in one actor re-renders only the screens bound to it.
 *
 * Why a path and not XState's `systemId`: the model-based tests explore the kiosk's graph with
 * pure transitions in one actor scope, where a child invoked with a systemId on two paths is
 * registered twice and throws ("Actor with system ID ... already exists"). The invoke ids are
 * unique among siblings, so a path names one actor just as well.
 *
 * The lookup re-runs on every change in the kiosk's system, but returns the same actor
 * reference until the child is invoked or stopped, so React re-renders nothing for it otherwise.
 */
import { createContext, createElement, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Actor, ActorRefFrom } from 'xstate';
import type { connectivityMachine } from '../../machines/connectivity/connectivity.machine.ts';
import type { documentMachine } from '../../machines/document/document.machine.ts';
import type { examMachine } from '../../machines/exam/exam.machine.ts';
import type { kioskMachine } from '../../machines/kiosk/kiosk.machine.ts';
import { watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import type { paymentMachine } from '../../machines/payment/payment.machine.ts';
import type { positionMachine } from '../../machines/position/position.machine.ts';
import type { proctorMachine } from '../../machines/proctor/proctor.machine.ts';
import type { resultsMachine } from '../../machines/results/results.machine.ts';
import type { sessionMachine } from '../../machines/session/session.machine.ts';
import type { tutorialMachine } from '../../machines/tutorial/tutorial.machine.ts';

export type KioskActor = Actor<typeof kioskMachine>;

/** The actors a screen may bind to, by name. */
export interface SystemActors {
  session: ActorRefFrom<typeof sessionMachine>;
  exam: ActorRefFrom<typeof examMachine>;
  document: ActorRefFrom<typeof documentMachine>;
  proctor: ActorRefFrom<typeof proctorMachine>;
  connectivity: ActorRefFrom<typeof connectivityMachine>;
  /** The exam fee's payment (pay-exam-fee). */
  feePayment: ActorRefFrom<typeof paymentMachine>;
  results: ActorRefFrom<typeof resultsMachine>;
  /** The result items' payment (pay-exam-result). */
  resultPayment: ActorRefFrom<typeof paymentMachine>;
  tutorial: ActorRefFrom<typeof tutorialMachine>;
  /** Where the pupil is in the running exam (the question on screen, the view around it). */
  examPosition: ActorRefFrom<typeof positionMachine>;
}
export type SystemId = keyof SystemActors;

/** Where each actor sits in the kiosk's tree: the invoke ids from the root down. */
export const actorPaths: { readonly [K in SystemId]: readonly string[] } = {
  session: ['session'],
  exam: ['exam'],
  document: ['document'],
  proctor: ['proctor'],
  connectivity: ['connectivity'],
  feePayment: ['session', 'payment'],
  results: ['session', 'results'],
  resultPayment: ['session', 'results', 'payment'],
  tutorial: ['exam', 'tutorial'],
  examPosition: ['exam', 'position'],
};

type AnyRef = { getSnapshot(): { children?: Record<string, AnyRef | undefined> } };

/** The actor at `path` under `root`, or undefined while one on the way does not run. */
export function actorAt(root: AnyRef, path: readonly string[]): unknown {
  let actor: AnyRef | undefined = root;
  for (const id of path) actor = actor?.getSnapshot().children?.[id];
  return actor;
}

const KioskContext = createContext<KioskActor | null>(null);

export function KioskProvider({ kiosk, children }: { kiosk: KioskActor; children: ReactNode }) {
  return createElement(KioskContext.Provider, { value: kiosk }, children);
}

/** The kiosk actor (the root): for events that belong to it (location, connectivity.requested). */
export function useKioskActor(): KioskActor {
  const kiosk = useContext(KioskContext);
  if (!kiosk) throw new Error('useKioskActor: no KioskProvider above this component');
  return kiosk;
}

/**
 * The running actor with this systemId, or undefined while none runs (and where no kiosk is
 * provided at all: a view rendered on its own, as the route tests do, binds to nothing).
 */
export function useSystemActor<K extends SystemId>(systemId: K): SystemActors[K] | undefined {
  const kiosk = useContext(KioskContext);
  // The same subscribe function while the kiosk is the same: a new one would make React
  // unsubscribe and subscribe again on every render of the screen.
  const subscribe = useCallback((onChange: () => void) => (kiosk ? watchKiosk(kiosk, onChange) : () => {}), [kiosk]);
  // The same getSnapshot too: a new one makes React schedule a passive effect (a task before the
  // next frame) on every render of the screen.
  const current = useCallback(
    () => (kiosk ? (actorAt(kiosk as unknown as AnyRef, actorPaths[systemId]) as SystemActors[K] | undefined) : undefined),
    [kiosk, systemId],
  );
  return useSyncExternalStore(subscribe, current);
}
