/**
 * The whole app: providers around the router. The router shows the screen of the current
 * route; the machine decides the route (src/app/router-sync.ts).
 */
import { RouterProvider } from '@tanstack/react-router';
import type { BrowserEnvironment } from './environment.ts';
import { KioskProvider, type KioskActor } from './actors.ts';
import { AppProviders } from './providers.tsx';
import type { AppRouter } from './router.ts';

export function App({ environment, kiosk, router }: { environment: BrowserEnvironment; kiosk: KioskActor; router: AppRouter }) {
  return (
    <AppProviders environment={environment}>
      <KioskProvider kiosk={kiosk}>
        <RouterProvider router={router} />
      </KioskProvider>
    </AppProviders>
  );
}
