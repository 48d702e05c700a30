/**
 * The kiosk's children that load on demand: the exam (with its tutorial), the
 * proctor page, the terminal check and the print route's document. Each is its machine's module
 * and its real calls' module, loaded together the first time the kiosk invokes it, or earlier:
 * `preloadKioskChildren` (src/main.tsx, once the first screen is up; the tests, before they run)
 * makes every later invocation synchronous, exactly as if the definitions had been in the first
 * chunk. The decisions stay in the machines; machines/shared/lazy-machine.ts has the rules of
 * the short wait.
 */
import { lazyModule } from '../shared/lazy-machine.ts';

export const examModules = lazyModule(() => Promise.all([import('../exam/exam.machine.ts'), import('../exam/exam.actors.ts')]));
export const proctorModules = lazyModule(() => Promise.all([import('../proctor/proctor.machine.ts'), import('../proctor/proctor.actors.ts')]));
export const connectivityModules = lazyModule(() =>
  Promise.all([import('../connectivity/connectivity.machine.ts'), import('../connectivity/connectivity.actors.ts')]),
);
export const documentModules = lazyModule(() => Promise.all([import('../document/document.machine.ts'), import('../document/document.actors.ts')]));

/** Loads every lazily loaded child of the kiosk, the exam first. */
export function preloadKioskChildren(): Promise<unknown> {
  return Promise.all([examModules.load(), proctorModules.load(), connectivityModules.load(), documentModules.load()]);
}
