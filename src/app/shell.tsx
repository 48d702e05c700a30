/**
 * The frame around every screen: the progress bar (while the machine is busy or the router is
 * between routes) and the page title, which is the product name on every route (seed section 2).
 */
import { useRouterState } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { ProgressBar } from '../components/progress-bar/progress-bar.tsx';
import { RetryDialog } from '../components/retry-dialog/retry-dialog.tsx';
import { BootingScreen } from '../screens/booting/booting.tsx';
import { useShell } from './kiosk-bindings.ts';
import { PRODUCT_NAME } from './product.ts';
import styles from './shell.module.css';

export function Shell({ children }: { children: ReactNode }) {
  const { busy, screen, retryDialog } = useShell();
  const navigating = useRouterState({ select: (state) => state.status === 'pending' });
  const path = useRouterState({ select: (state) => state.location.pathname });

  useEffect(() => {
    document.title = PRODUCT_NAME;
  }, [path]);

  return (
    <>
      <ProgressBar busy={busy || navigating} />
      {/* While the machine restores a session it shows no screen yet: the skeleton, whatever the URL. */}
      {/* While the retry dialog is open, the screen under it cannot be reached (modal). */}
      <div className={styles.screen} inert={Boolean(retryDialog)}>
        {screen === 'booting' ? <BootingScreen /> : children}
      </div>
      {retryDialog && <RetryDialog {...retryDialog} />}
    </>
  );
}
