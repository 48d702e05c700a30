/**
 * The root route: the shell (progress bar, page title) around whichever route matched. Every
 * screen but the first ones (the routes whose view is in the first screen's chunk) waits for the
 * rest of the language's catalog (`catalogComplete`: src/i18n/language-controller.ts `complete`),
 * so a lazily loaded screen never shows a message id; the first screens need only the part
 * loaded before the first paint.
 */
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { Shell } from '../app/shell.tsx';

export interface RouterContext {
  /** Resolves when the active language's whole catalog is loaded; none in tests that load it whole. */
  catalogComplete?: () => Promise<void>;
}

/** The routes whose views are in the first screen's chunk: /, /login-code and the catch-all (the boot skeleton). */
export const firstScreenRouteIds: ReadonlySet<string> = new Set(['/', '/login-code', '/$']);

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async ({ context, matches }) => {
    if (matches.every((match) => match.routeId === '__root__' || firstScreenRouteIds.has(match.routeId))) return;
    await context.catalogComplete?.();
  },
  component: () => (
    <Shell>
      <Outlet />
    </Shell>
  ),
});
