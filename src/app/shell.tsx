/**
 * The frame around every screen: the progress bar (while the machine is busy or the router is
 * between routes) and the page title, which is the product name on every route (seed section 2).
 */
import { useRouterState } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { ProgressBar } from '../components/progress-bar/progress-bar.tsx';
import { BootingScreen } from '../screens/booting/booting.tsx';
import { useShell } from './kiosk-bindings.ts';
import { PRODUCT_NAME } from './product.ts';

export function Shell({ children }: { children: ReactNode }) {
  const { busy, screen } = useShell();
  const navigating = useRouterState({ select: (state) => state.status === 'pending' });
  const path = useRouterState({ select: (state) => state.location.pathname });

  useEffect(() => {
    document.title = PRODUCT_NAME;
  }, [path]);

  return (
    <>
      <ProgressBar busy={busy || navigating} />
      {/* While the machine restores a session it shows no screen yet: the skeleton, whatever the URL. */}
      {screen === 'booting' ? <BootingScreen /> : children}
    </>
  );
}
