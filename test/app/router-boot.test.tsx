// @vitest-environment jsdom
/**
 * The router at boot (src/main.tsx with router-sync.ts `followHistoryUntilRendered`), with
 * TanStack's real router and React: the boot loads the typed URL's view before the first paint,
 * then renders; React commits later, and the router listens to the history only from that commit.
 * A move of the machine in between (a reload on /pay-exam-fee with the fee paid: the menu stands
 * in once the menu's status is read) must reach the router: the boot loads until the first
 * render, because the router, mounted after the move, does not load it (it has loaded once), and
 * the payment's view would stay under /testing-menu (a skeleton of "Pay the exam fee").
 */
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followHistoryUntilRendered } from '../../src/app/router-sync.ts';

function smallRouter(history: RouterHistory) {
  const rootRoute = createRootRoute({ component: () => <Outlet /> });
  const fee = createRoute({ getParentRoute: () => rootRoute, path: '/pay-exam-fee', component: () => <h1>Pay the exam fee</h1> });
  const menu = createRoute({ getParentRoute: () => rootRoute, path: '/testing-menu', component: () => <h1>Menu</h1> });
  return createRouter({ routeTree: rootRoute.addChildren([fee, menu]), history });
}

let root: Root | undefined;
afterEach(() => {
  root?.unmount();
  root = undefined;
  document.body.replaceChildren();
});

/** As src/main.tsx boots: the early loads, the first load, then `render()` (which only schedules the commit). */
async function boot(url: string) {
  const history = createMemoryHistory({ initialEntries: [url] });
  const router = smallRouter(history);
  followHistoryUntilRendered(history, router);
  await router.load();
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  root.render(<RouterProvider router={router} />);
  return { history, router, heading: () => container.querySelector('h1')?.textContent };
}

describe('the router at boot', () => {
  it('loads a move made while React renders the first screen: the menu under /testing-menu', async () => {
    const app = await boot('/pay-exam-fee');
    // The machine settles before React commits (the test is faster than any render).
    expect(app.heading()).toBeUndefined();
    app.history.replace('/testing-menu');
    await vi.waitFor(() => expect(app.heading()).toBe('Menu'));
    expect(app.history.location.pathname).toBe('/testing-menu');
    expect(app.router.stores.resolvedLocation.get()?.pathname).toBe('/testing-menu');
  });

  it('leaves the history to the router once the first screen is rendered (no second load of a move)', async () => {
    const app = await boot('/pay-exam-fee');
    await vi.waitFor(() => expect(app.heading()).toBe('Pay the exam fee'));
    // The mounted router loads with the function it subscribed; the boot's loads call `router.load` anew.
    const bootLoads = vi.spyOn(app.router, 'load');
    app.history.push('/testing-menu');
    await vi.waitFor(() => expect(app.heading()).toBe('Menu'));
    expect(bootLoads).not.toHaveBeenCalled();
  });
});
