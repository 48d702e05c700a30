/**
 * The session's children that load on demand:
 * the exam fee's payment and the results (with their own payment). Each is its machine's module
 * and its real calls' module, loaded together the first time the session invokes it, or earlier:
 * `preloadSessionChildren` (src/app/preload.ts, once the first screen is idle; the tests, before
 * they run) makes every later invocation synchronous, exactly as if the definitions had been in
 * the first chunk. The session invokes them under the same ids (`payment`, `results`);
 * machines/shared/lazy-machine.ts has the rules of the short wait (no state, path or tag; the
 * events sent meanwhile are kept and replayed in order).
 */
import type { AnyStateMachine } from 'xstate';
import { resultsScreens } from '../results/results.routes.ts';
import { lazyMachine, lazyModule } from '../shared/lazy-machine.ts';

export const paymentModules = lazyModule(() => Promise.all([import('../payment/payment.machine.ts'), import('../payment/payment.actors.ts')]));
export const resultsModules = lazyModule(() => Promise.all([import('../results/results.machine.ts'), import('../results/results.actors.ts')]));

type Loaded<TModule> = TModule extends { current(): infer T | undefined } ? T : never;

/** The payment's logic (the exam fee's), loaded on demand. */
export function lazyPayment<TMachine extends AnyStateMachine>(build: (loaded: Loaded<typeof paymentModules>) => TMachine): TMachine {
  return lazyMachine(paymentModules, build);
}

/**
 * The results' logic, loaded on demand. Its states are the stand-in's for the route table
 * (`root`: machines/kiosk/routes.ts reads a child's paths from it), so the session's table has
 * the results' paths before their definition arrives; nothing else reads it.
 */
export function lazyResults<TMachine extends AnyStateMachine>(build: (loaded: Loaded<typeof resultsModules>) => TMachine): TMachine {
  return Object.assign(lazyMachine(resultsModules, build), { root: resultsScreens.root });
}

/** Loads both children of the session. */
export function preloadSessionChildren(): Promise<unknown> {
  return Promise.all([paymentModules.load(), resultsModules.load()]);
}
