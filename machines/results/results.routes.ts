/**
 * The results' screens' paths, written out. The kiosk judges every URL from the first moment,
 * a reload on /score-report/42 included, before the results' definition has loaded, so the
 * session's route table must hold them without it: `resultsScreens` is a stand-in whose states
 * carry exactly these paths, which machines/kiosk/routes.ts `routeTableOf` walks in place of the
 * results machine (the session's `results` state hands its screens to its child, `screensOf`).
 * The results machine's states use the same constants.
 */
import { createMachine } from 'xstate';
import type { RouteTable } from '../kiosk/routes.ts';

export const SHORT_RESULT_PATH = '/short-result';
export const PAY_EXAM_RESULT_PATH = '/pay-exam-result';
export const PURCHASED_RESULT_PATH = '/purchased-result';
export const SCORE_REPORT_PATH = '/score-report/$id';

/** Every path a results screen shows, in the machine's order; none is routable (the session's child). */
export const resultsRouteTable: RouteTable = {
  routable: new Map(),
  paths: new Set([SHORT_RESULT_PATH, PAY_EXAM_RESULT_PATH, PURCHASED_RESULT_PATH, SCORE_REPORT_PATH]),
};

/** The results' screens as states (one per path, `meta.path`), for the route table only: it never runs. */
export const resultsScreens = createMachine({
  id: 'resultsScreens',
  type: 'parallel',
  states: Object.fromEntries([...resultsRouteTable.paths].map((path, index) => [`screen${index}`, { meta: { path } }])),
});
