/**
 * The router follows the machine (ARCHITECTURE.md). Two directions, one place:
 * - machine -> URL: when the machine moves to another screen, its path is pushed; while it
 *   shows none (restoring a session), the URL is left alone;
 * - URL -> machine: Back, Forward or a link is sent as `location.changed`, and the machine
 *   judges it. If it does not follow, its own path is pushed again, so Back during the exam
 *   lands where it started and can never walk out of the kiosk.
 * At boot the typed URL is judged the same way, but corrected in place (replace): a refused
 * URL such as /start before login leaves no entry behind. A URL that arrives while the machine
 * shows no screen yet (a stored session resuming the exam: its screen comes once the exam's
 * details are loaded) is judged once the machine shows its first screen, and corrected in place
 * too, so an unknown path typed on /login-confirm does not stay in the history under the pushed
 * screen: it is replaced, as on every other screen. A location the machine
 * accepts by leaving its screen for none (it reads what the screen needs first: a reload on a
 * results screen, an entry route) is the machine's to settle: the screen that comes replaces it,
 * so a screen standing in for the one asked for (the menu for a payment paid meanwhile) leaves
 * no entry of the refused one behind.
 *
 * The query belongs to the event (`search`: the entry routes' and the login page's
 * parameters); a machine path with a query (a login page's `?logout=1`) is compared with the
 * whole location, one without with the pathname only.
 *
 * Why push rather than replace: with replace only, the app would own a single history entry
 * and Back would leave it entirely, mid-exam.
 */
import type { RouterHistory } from '@tanstack/react-router';
import { selectPath, type KioskSnapshot } from '../../machines/kiosk/kiosk.selectors.ts';

/** What the sync needs of the kiosk actor. */
export interface KioskLike {
  getSnapshot(): KioskSnapshot;
  send(event: { type: 'location.changed'; path: string; search: Record<string, string> }): void;
}

/** The query string as the machine's event carries it (every value a string, first wins). */
export function searchRecord(search: string): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) if (!(key in record)) record[key] = value;
  return record;
}

function sameLocation(machinePath: string, location: { pathname: string; search: string }): boolean {
  return machinePath.includes('?') ? machinePath === `${location.pathname}${location.search}` : machinePath === location.pathname;
}

export function syncRouterWithKiosk(
  history: RouterHistory,
  kiosk: KioskLike,
  watch: (listener: () => void) => () => void,
): () => void {
  const showMachinePath = (mode: 'push' | 'replace') => {
    const path = selectPath(kiosk.getSnapshot());
    if (!path || sameLocation(path, history.location)) return;
    if (mode === 'push') history.push(path);
    else history.replace(path);
  };

  /** The location came while the machine showed no screen: it is judged when the first one comes. */
  let unjudged = false;
  /** While the machine judges a location, its answer is shown by the judgement (in its mode), not by the watcher. */
  let judging = false;
  /** The machine took the location to no screen yet: the screen it settles on replaces it. */
  let settling = false;

  const judgeLocation = (location: { pathname: string; search: string }, mode: 'push' | 'replace') => {
    const path = selectPath(kiosk.getSnapshot());
    unjudged = path === undefined;
    if (path === undefined || sameLocation(path, location)) return;
    judging = true;
    try {
      kiosk.send({ type: 'location.changed', path: location.pathname, search: searchRecord(location.search) });
    } finally {
      judging = false;
    }
    settling = selectPath(kiosk.getSnapshot()) === undefined;
    // The machine may have ignored it (no snapshot change): show its path either way.
    showMachinePath(mode);
  };

  judgeLocation(history.location, 'replace');
  const stopHistory = history.subscribe(({ location }) => judgeLocation(location, 'push'));
  const stopMachine = watch(() => {
    if (judging) return;
    // Never accepted by the machine: judged now, and corrected in place.
    const shown = selectPath(kiosk.getSnapshot()) !== undefined;
    if (unjudged && shown) judgeLocation(history.location, 'replace');
    else if (settling && shown) {
      settling = false;
      showMachinePath('replace');
    } else showMachinePath('push');
  });
  return () => {
    stopHistory();
    stopMachine();
  };
}

/** What the boot needs of the router (TanStack's `router.load` and its events). */
export interface LoadingRouter {
  load(): Promise<unknown>;
  subscribe(eventType: 'onRendered', listener: () => void): () => void;
}

/**
 * Before it is mounted the router does not listen to the history: the boot loads every move for
 * it (the machine may move while the typed URL's view loads). It listens itself from its first
 * commit on, which React's `render()` only schedules; and a location changed before that commit
 * is not loaded at the mount once the router has loaded one (TanStack's Transitioner: only when
 * no load ever ran), which the boot did. So the loads go on until the first screen is rendered,
 * not only until `render()`: a reload on /pay-exam-fee with the fee paid moves the URL to
 * /testing-menu while React renders, and the payment's skeleton would stay under the menu's URL.
 * Returns the stop (the first render stops it too).
 */
export function followHistoryUntilRendered(history: RouterHistory, router: LoadingRouter): () => void {
  const stopLoads = history.subscribe(() => void router.load().catch(() => undefined));
  const stopWatching = router.subscribe('onRendered', () => stop());
  function stop() {
    stopLoads();
    stopWatching();
  }
  return stop;
}
