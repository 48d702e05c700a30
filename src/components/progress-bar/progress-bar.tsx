/**
 * The thin bar at the top of the page while the app navigates or waits for the server
 * (seed section 2: "a progress bar is shown during navigation"). It fades in after a short
 * delay so quick answers do not flicker.
 */
import { useLingui } from '@lingui/react/macro';
import styles from './progress-bar.module.css';

export function ProgressBar({ busy }: { busy: boolean }) {
  const { t } = useLingui();
  if (!busy) return null;
  return (
    <div className={styles.bar} role="progressbar" aria-label={t`Loading`}>
      <div className={styles.indicator} />
    </div>
  );
}
