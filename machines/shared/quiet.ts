/**
 * Machines that declare themselves quiet: the kiosk-wide watchers (machines/kiosk/kiosk.watch.ts:
 * the router, the shell, the screens' actor lookups) never hear their snapshots. A quiet machine
 * runs no actor of its own and shows no path; the one screen that shows it subscribes to it
 * directly. Declared beside the machine, as data: `export const x = quiet(setup(...).createMachine(...))`.
 */
const quietLogic = new WeakSet<object>();

/** Declares a machine's logic quiet; returns it unchanged. */
export function quiet<T extends object>(logic: T): T {
  quietLogic.add(logic);
  return logic;
}

/** Whether an actor runs the logic of a quiet machine. */
export function isQuiet(actor: object): boolean {
  const logic: unknown = 'logic' in actor ? actor.logic : undefined;
  return typeof logic === 'object' && logic !== null && quietLogic.has(logic);
}
