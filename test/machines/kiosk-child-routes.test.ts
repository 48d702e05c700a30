/**
 * The route tables the kiosk keeps for the children it loads on demand (machines/kiosk/
 * child-routes.ts, and the session's results in machines/results/results.routes.ts) are the machines' own: equal to `routeTableOf(machine)`, read from each
 * machine's `meta.path` and routable states. A path added to a machine and not to the table
 * fails here.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { CHECK_PATH, connectivityMachine } from '../../machines/connectivity/connectivity.machine.ts';
import { documentMachine } from '../../machines/document/document.machine.ts';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { connectivityRouteTable, examRouteTable, proctorRouteTable, TERMINAL_CHECK_PATH } from '../../machines/kiosk/child-routes.ts';
import { knownPaths } from '../../machines/kiosk/kiosk.machine.ts';
import { routeTableOf, type RouteTable } from '../../machines/kiosk/routes.ts';
import { proctorMachine } from '../../machines/proctor/proctor.machine.ts';
import { resultsMachine } from '../../machines/results/results.machine.ts';
import { resultsRouteTable } from '../../machines/results/results.routes.ts';

const plain = (table: RouteTable) => ({ routable: [...table.routable].sort(), paths: [...table.paths].sort() });

describe("the lazily loaded children's route tables", () => {
  it.each([
    ['exam', examMachine, examRouteTable],
    ['proctor', proctorMachine, proctorRouteTable],
    ['connectivity', connectivityMachine, connectivityRouteTable],
    // The session's child, loaded on demand too (machines/session/session.lazy.ts).
    ['results', resultsMachine, resultsRouteTable],
  ] as const)('the %s table is the one its machine defines', (_name, machine, table) => {
    expect(plain(table)).toEqual(plain(routeTableOf(machine as AnyStateMachine)));
  });

  it('the document machine shows no path of its own (the print route is the session\'s rule 7 otherwise)', () => {
    expect(plain(routeTableOf(documentMachine as AnyStateMachine))).toEqual({ routable: [], paths: [] });
  });

  it("the terminal check's path is the connectivity machine's", () => {
    expect(TERMINAL_CHECK_PATH).toBe(CHECK_PATH);
  });

  it('every path of those tables is known to the kiosk', () => {
    for (const table of [examRouteTable, proctorRouteTable, connectivityRouteTable, resultsRouteTable]) {
      for (const path of table.paths) expect(knownPaths.has(path)).toBe(true);
    }
  });
});
