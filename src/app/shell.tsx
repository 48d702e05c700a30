/**
 * The frame around every screen: the progress bar (while the machine is busy or the router is
 * between routes), the retry dialog over the screen, and the page title, which is the product
 * name on every route (seed section 2).
 *
 * What it shows comes from the kiosk's `connect` (machines/kiosk/kiosk.connect.ts), made once
 * per change in the kiosk's system (use-kiosk.ts) and each part selected on its own as a plain
 * value: the frame renders again only when busy, the screen or the retry dialog changes, never
 * because a screen's own actor moved (an answer given, a question swapped, a field typed).
 */
import { useRouterState } from '@tanstack/react-router';
import { Suspense, useEffect, type ReactNode } from 'react';
import type { KioskApi } from '../../machines/kiosk/kiosk.connect.ts';
import { ProgressBar } from '../components/progress-bar/progress-bar.tsx';
import { LazyRetryDialog } from '../components/retry-dialog/lazy-retry-dialog.tsx';
import { BootingScreen } from '../screens/booting/booting.tsx';
import { PRODUCT_NAME } from './product.ts';
import styles from './shell.module.css';
import { useKioskApi, useKioskValue } from './use-kiosk.ts';

const selectBusy = (api: KioskApi) => api.busy;
const selectScreen = (api: KioskApi) => api.screen;
const selectDialog = (api: KioskApi) => api.retryDialog?.kind ?? null;
const selectAnswersKept = (api: KioskApi) => api.retryAnswersKept;

export function Shell({ children }: { children: ReactNode }) {
  const kiosk = useKioskApi();
  const busy = useKioskValue(selectBusy);
  const screen = useKioskValue(selectScreen);
  const dialog = useKioskValue(selectDialog);
  const answersKept = useKioskValue(selectAnswersKept);
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
      <div className={styles.screen} inert={dialog !== null}>
        {screen === 'booting' ? <BootingScreen /> : children}
      </div>
      {dialog && (
        <Suspense fallback={null}>
          <LazyRetryDialog view={{ kind: dialog }} answersKept={answersKept} onRetry={() => kiosk().retry()} onClose={() => kiosk().closeDialog()} />
        </Suspense>
      )}
    </>
  );
}
