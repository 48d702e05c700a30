/**
 * The TanStack router: the code-based route tree of src/routes/, history mode (seed section 2)
 * and every navigation starting at the top of the page (the router's `resetScroll`, on by
 * default; no restoration of old positions on a shared kiosk). The router only reflects the
 * machine: routes hold no decisions.
 *
 * The query is plain text both ways (`parseSearch`, `stringifySearch`): every value is the
 * string that was typed, as the machine's `location.changed` carries it (router-sync.ts
 * `searchRecord`). The router's default JSON serialisation would write a route's validated
 * string "1" back as `%221%22`: `/login?schedule_code=DEMO-2026&login_type=1&venue_id=1` would
 * become `login_type="1"&venue_id="1"` in the address bar, that location would be judged again,
 * and the login page's schedule (and a reload of it) would lose the venue and school.
 */
import { createBrowserHistory, createRouter, type RouterHistory } from '@tanstack/react-router';
import { searchRecord } from './router-sync.ts';
import { routeTree } from '../routes/route-tree.ts';
import type { RouterContext } from '../routes/__root.tsx';

export function createAppRouter(options: { history?: RouterHistory } & RouterContext = {}) {
  return createRouter({
    routeTree,
    // Screens after the first wait for the rest of the catalog (src/routes/__root.tsx).
    context: { catalogComplete: options.catalogComplete },
    history: options.history ?? createBrowserHistory(),
    scrollRestoration: false,
    defaultPreload: false,
    parseSearch: (search) => searchRecord(search),
    stringifySearch: stringifyPlainSearch,
  });
}

/** `?key=value&...` with every value written as the text it is; undefined and null are left out. */
export function stringifyPlainSearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue;
    params.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
