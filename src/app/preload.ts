/**
 * Route views (and the machines of the exam, the proctor page, the terminal check and the print
 * route: machines/kiosk/kiosk.lazy.ts; the session's payment and results:
 * machines/session/session.lazy.ts) loaded ahead. Every route's view but the
 * first screens' (/login-code, the boot skeleton) is a lazily loaded chunk (`lazyRouteComponent` in
 * src/routes/), outside the first screen's budget (scripts/check-bundle.ts). Once the first
 * screen is up and the browser is idle, the chunks of the exam's journey (login-confirm,
 * tutorial, start, the questions, the end) are fetched first, then every other route's, one at a
 * time: the machine moves the URL at once, and a view still downloading would leave the
 * previous screen up under the new URL for that long, or not come at all when the exam-day
 * connection drops (the service worker precaches them too, but only once it is installed).
 * Nothing here decides anything: the machine still picks the route.
 */
import type { AnyRoute } from '@tanstack/react-router';
import { preloadKioskChildren } from '../../machines/kiosk/kiosk.lazy.ts';
import { preloadSessionChildren } from '../../machines/session/session.lazy.ts';
import { loadRetryDialog } from '../components/retry-dialog/lazy-retry-dialog.tsx';
import { examEndRoute } from '../routes/exam-end.tsx';
import { examStartRoute } from '../routes/exam-start.tsx';
import { examTutorialRoute } from '../routes/exam-tutorial.tsx';
import { loginConfirmRoute } from '../routes/login-confirm.tsx';
import { startRoute } from '../routes/start.tsx';
import type { AppRouter } from './router.ts';

/** In the order a pupil meets them. */
export const likelyNextRoutes: readonly AnyRoute[] = [loginConfirmRoute, examTutorialRoute, examStartRoute, startRoute, examEndRoute];

/** How long the preload waits for an idle moment at most. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * Loads the kiosk's lazily loaded machines (the exam's first: a login moves to it) and the exam's
 * retry dialog (src/components/retry-dialog/lazy-retry-dialog.tsx), then the
 * likely next screens' chunks, then every other route's, once the page is idle; failures are left
 * to the navigation (and to machines/shared/lazy-machine.ts, which tries again). The session's
 * lazily loaded children (the fee's payment, the results) load with the machines, whatever
 * `machines` is.
 */
export function preloadLikelyScreens(
  router: Pick<AppRouter, 'loadRouteChunk' | 'routesById'>,
  first: readonly AnyRoute[] = likelyNextRoutes,
  machines: () => Promise<unknown> = () => Promise.all([preloadKioskChildren(), loadRetryDialog()]),
): void {
  const load = async () => {
    await Promise.all([machines().catch(() => undefined), preloadSessionChildren().catch(() => undefined)]);
    const rest = (Object.values(router.routesById) as AnyRoute[]).filter((route) => !first.includes(route));
    for (const route of [...first, ...rest]) await Promise.resolve(router.loadRouteChunk(route)).catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void load(), { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(() => void load(), 0);
}
