/**
 * The root route: the shell (progress bar, page title) around whichever route matched.
 */
import { createRootRoute, Outlet } from '@tanstack/react-router';
import { Shell } from '../app/shell.tsx';

export const rootRoute = createRootRoute({
  component: () => (
    <Shell>
      <Outlet />
    </Shell>
  ),
});
