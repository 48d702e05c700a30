/**
 * The router follows the machine (DESIGN.md). Two directions, one place:
 * - machine -> URL: whenever the kiosk (or a child) moves, the URL is replaced with the path
 *   the machine shows; while it shows none (restoring), the URL is left alone;
 * - URL -> machine: a typed URL, a link or Back is sent as `location.changed`, and the machine
 *   judges it; whatever it decides, the URL then shows the machine's path again.
 * Nothing else in the app navigates.
 */
import type { RouterHistory } from '@tanstack/react-router';
import { selectPath, type KioskSnapshot } from '../../machines/kiosk/kiosk.selectors.ts';

/** What the sync needs of the kiosk actor. */
export interface KioskLike {
  getSnapshot(): KioskSnapshot;
  send(event: { type: 'location.changed'; path: string }): void;
}

export function syncRouterWithKiosk(
  history: RouterHistory,
  kiosk: KioskLike,
  watch: (listener: () => void) => () => void,
): () => void {
  const showMachinePath = () => {
    const path = selectPath(kiosk.getSnapshot());
    if (path && history.location.pathname !== path) history.replace(path);
  };

  const judgeLocation = (pathname: string) => {
    const path = selectPath(kiosk.getSnapshot());
    if (path === undefined || path === pathname) return;
    kiosk.send({ type: 'location.changed', path: pathname });
    // The machine may have ignored it (no snapshot change): show its path either way.
    showMachinePath();
  };

  const stopHistory = history.subscribe(({ location }) => judgeLocation(location.pathname));
  const stopMachine = watch(showMachinePath);
  judgeLocation(history.location.pathname);
  return () => {
    stopHistory();
    stopMachine();
  };
}
