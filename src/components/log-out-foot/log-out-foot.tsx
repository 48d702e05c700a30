/**
 * "Log out" at the foot of the signed-in pupil's pages (the testing menu, the exam list): a
 * plain button at the end of the line, below whatever the page shows, loading or failed too.
 */
import { Trans } from '@lingui/react/macro';
import styles from './log-out-foot.module.css';

export function LogOutFoot({ onLogout }: { onLogout(): void }) {
  return (
    <div className={styles.foot}>
      <button type="button" className="button" onClick={onLogout}>
        <Trans>Log out</Trans>
      </button>
    </div>
  );
}
