/**
 * A machine whose definition is loaded when it is first needed, so the first screen's JavaScript
 * does not carry it (the exam, the proctor page, the terminal check). The parent invokes the lazy logic exactly as it would the machine: same id,
 * same actor reference, same events. Nothing decides differently while it loads.
 *
 * - Loaded already (the app preloads these chunks once the first screen is up; the tests load
 *   them before they run): the logic is the machine's own, step for step, with no delay at all.
 * - Not loaded yet: the actor starts "pending": no state, no tags, no meta (so no path and no
 *   screen: the kiosk shows no new URL, the router keeps the screen it has), and every event it
 *   receives waits in order. Once the definition arrives the actor takes the machine's initial
 *   snapshot (its entry actions and invocations run then, with this actor as `self`) and the
 *   waiting events are replayed in order; only then does it show a path.
 * - The chunk fails to load (offline before the service worker had precached it): tried again
 *   with the one backoff (1 s, doubling, at most 30 s) while the actor runs.
 * - Stopped while pending: it ends, and a late load changes nothing.
 */
import type { ActorScope, AnyEventObject, AnyStateMachine, Snapshot } from 'xstate';
import { backoffMs } from './backoff.ts';

/** The internal event that tells a pending actor its definition has arrived. */
const LOADED = 'lazy.loaded';
/** The longest wait between two attempts to load a definition. */
const RETRY_MAX_MS = 30_000;

/** What a pending actor holds, and what the kiosk's selectors read of it (no state, path or tag). */
export type PendingSnapshot = {
  status: 'active' | 'stopped';
  output: undefined;
  error: undefined;
  pending: { input: unknown; events: readonly AnyEventObject[] };
  value: null;
  context: Record<string, never>;
  children: Record<string, never>;
  matches(): false;
  hasTag(): false;
  can(): false;
  getMeta(): Record<string, never>;
};

function pendingSnapshot(input: unknown, events: readonly AnyEventObject[], status: 'active' | 'stopped' = 'active'): Snapshot<unknown> {
  const snapshot: PendingSnapshot = {
    status,
    output: undefined,
    error: undefined,
    pending: { input, events },
    value: null,
    context: {},
    children: {},
    matches: () => false,
    hasTag: () => false,
    can: () => false,
    getMeta: () => ({}),
  };
  return snapshot as Snapshot<unknown>;
}

export function isPendingSnapshot(snapshot: unknown): snapshot is PendingSnapshot {
  return typeof snapshot === 'object' && snapshot !== null && 'pending' in snapshot;
}

/** A module (or several) loaded by dynamic import, once; again after a failure. */
export interface LazyModule<TModule> {
  /** Loads it (the same promise while one is under way); resolves with the module. */
  load(): Promise<TModule>;
  /** The module, once loaded; undefined before. */
  current(): TModule | undefined;
}

/** `importer` is a dynamic import of the module (its own chunk in the build). */
export function lazyModule<TModule>(importer: () => Promise<TModule>): LazyModule<TModule> {
  let module: TModule | undefined;
  let loading: Promise<TModule> | undefined;
  return {
    load: () =>
      (loading ??= importer().then(
        (loaded) => (module = loaded),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
    current: () => module,
  };
}

/** Two lazily loaded modules as one: loaded together, current once both are. */
export function bothModules<A, B>(a: LazyModule<A>, b: LazyModule<B>): LazyModule<[A, B]> {
  return {
    load: () => Promise.all([a.load(), b.load()]),
    current: () => {
      const [first, second] = [a.current(), b.current()];
      return first === undefined || second === undefined ? undefined : [first, second];
    },
  };
}

/**
 * The logic of the machine `build` makes from `module` (typed as that machine, so the parent's
 * children keep their types): the machine itself once the module is loaded, pending before.
 */
export function lazyMachine<TModule, TMachine extends AnyStateMachine>(module: LazyModule<TModule>, build: (loaded: TModule) => TMachine): TMachine {
  let built: TMachine | undefined;
  const machineNow = (): TMachine | undefined => {
    const loaded = module.current();
    if (!built && loaded !== undefined) built = build(loaded);
    return built;
  };

  type Scope = ActorScope<Snapshot<unknown>, AnyEventObject>;
  const loadFor = (scope: Scope, attempt = 0): void => {
    module.load().then(
      () => {
        if (scope.self.getSnapshot().status === 'active') scope.self.send({ type: LOADED });
      },
      () => {
        setTimeout(() => {
          if (scope.self.getSnapshot().status === 'active') loadFor(scope, attempt + 1);
        }, backoffMs(attempt, { maxMs: RETRY_MAX_MS }));
      },
    );
  };

  const logic = {
    config: undefined,
    getInitialSnapshot(scope: Scope, input: unknown): Snapshot<unknown> {
      const machine = machineNow();
      return machine ? machine.getInitialSnapshot(scope as never, input) : pendingSnapshot(input, []);
    },
    start(snapshot: Snapshot<unknown>, scope: Scope): void {
      if (isPendingSnapshot(snapshot)) loadFor(scope);
      else machineNow()?.start(snapshot as never);
    },
    transition(snapshot: Snapshot<unknown>, event: AnyEventObject, scope: Scope): Snapshot<unknown> {
      const machine = machineNow();
      if (!isPendingSnapshot(snapshot)) return machine!.transition(snapshot as never, event, scope as never);
      if (event.type === 'xstate.stop') return pendingSnapshot(snapshot.pending.input, [], 'stopped');
      if (event.type !== LOADED || !machine) return pendingSnapshot(snapshot.pending.input, [...snapshot.pending.events, event]);
      // The machine's first snapshot, as if it had been invoked now: its entry actions run, and
      // the children it invokes start once this step is over (XState defers their start).
      let next = machine.getInitialSnapshot(scope as never, snapshot.pending.input) as Snapshot<unknown>;
      for (const waiting of snapshot.pending.events) {
        if (next.status !== 'active') break;
        next = machine.transition(next as never, waiting, scope as never) as Snapshot<unknown>;
      }
      return next;
    },
    getPersistedSnapshot(snapshot: Snapshot<unknown>, options?: unknown): Snapshot<unknown> {
      return isPendingSnapshot(snapshot) ? snapshot : (machineNow()!.getPersistedSnapshot as (snapshot: unknown, options?: unknown) => Snapshot<unknown>)(snapshot, options);
    },
  };

  return logic as unknown as TMachine;
}
