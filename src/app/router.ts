/**
 * The TanStack router: the code-based route tree of src/routes/, history mode (seed section 2)
 * and every navigation starting at the top of the page (the router's `resetScroll`, on by
 * default; no restoration of old positions on a shared kiosk). The router only reflects the
 * machine: routes hold no decisions.
 */
import { createBrowserHistory, createRouter, type RouterHistory } from '@tanstack/react-router';
import { routeTree } from '../routes/route-tree.ts';

export function createAppRouter(options: { history?: RouterHistory } = {}) {
  return createRouter({
    routeTree,
    history: options.history ?? createBrowserHistory(),
    scrollRestoration: false,
    defaultPreload: false,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
