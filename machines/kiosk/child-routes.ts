/**
 * The route tables of the kiosk's children whose definitions load on demand (see
 * machines/shared/lazy-machine.ts). The kiosk judges every URL from the first moment (known or
 * unknown, routable or not), before any of them has loaded, so their tables are written out
 * here; test/machines/kiosk-child-routes.test.ts holds each equal to `routeTableOf(machine)`,
 * the table read from the machine's own states (`meta.path`, `route: {}`).
 */
import type { RouteTable } from './routes.ts';

/** The exam's screens; a URL may enter "Is this you?" and the tutorial (routable states). */
export const examRouteTable: RouteTable = {
  routable: new Map([
    ['/login-confirm', 'examConfirming'],
    ['/exam-tutorial', 'examTutorial'],
  ]),
  paths: new Set(['/login-confirm', '/exam-tutorial', '/exam-start', '/start', '/exam-end']),
};

/** The staff page. */
export const proctorRouteTable: RouteTable = { routable: new Map(), paths: new Set(['/proctor']) };

/**
 * The terminal check's path (the connectivity machine's CHECK_PATH), for what links to it from the
 * first screen (the login screens' "Check this terminal", its route) without its machine.
 */
export const TERMINAL_CHECK_PATH = '/checking-domain-connection';

/** The terminal check. */
export const connectivityRouteTable: RouteTable = { routable: new Map(), paths: new Set([TERMINAL_CHECK_PATH]) };
