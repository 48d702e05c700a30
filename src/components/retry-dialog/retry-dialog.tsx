/**
 * The retry dialog (seed sections 4 and 8: a network error or no response): a modal
 * alertdialog over the page. "Connecting again…" while the call is tried again by itself;
 * "Check your internet connection" once that took too long, with OK (closes) or Retry (runs
 * the failed call again), as the retry machine's variant says. Never a dead end: there is
 * always a way on, and the pupil's answers stay on this terminal meanwhile; the dialog says so
 * once the exam has started (before Start there are none, and saying so would mislead).
 */
import { Trans } from '@lingui/react/macro';
import type { RetryDialogView } from '../../../machines/retry/retry.selectors.ts';
import { OfflineIcon, SavingIcon } from '../icon/icons.tsx';
import { ModalDialog } from '../modal-dialog/modal-dialog.tsx';
import styles from './retry-dialog.module.css';

export interface RetryDialogProps {
  view: Exclude<RetryDialogView, null>;
  /** Whether to say the pupil's answers are kept on this terminal (not before the exam started). */
  answersKept?: boolean;
  /** Retry: run the failed call again now. */
  onRetry(): void;
  /** OK: close the dialog (the call gives up). */
  onClose(): void;
}

export function RetryDialog({ view, answersKept = true, onRetry, onClose }: RetryDialogProps) {
  const connecting = view.kind === 'connecting';
  return (
    <ModalDialog
      role="alertdialog"
      title={
        <span className={styles.title}>
          {connecting ? <SavingIcon /> : <OfflineIcon />}
          {connecting ? <Trans>Connecting again…</Trans> : <Trans>Check your internet connection</Trans>}
        </span>
      }
      // Escape does what the one button does; while connecting there is nothing to cancel.
      onCancel={() => (view.kind === 'checkConnection' ? onClose() : undefined)}
    >
      <p>{connecting ? <ConnectionLost answersKept={answersKept} /> : <Unreachable answersKept={answersKept} />}</p>
      {!connecting && (
        <div className="button-row">
          {view.kind === 'retry' ? (
            <button type="button" className="button" data-variant="primary" data-autofocus onClick={onRetry}>
              <Trans>Retry</Trans>
            </button>
          ) : (
            <button type="button" className="button" data-variant="primary" data-autofocus onClick={onClose}>
              <Trans>OK</Trans>
            </button>
          )}
        </div>
      )}
    </ModalDialog>
  );
}

function ConnectionLost({ answersKept }: { answersKept: boolean }) {
  return answersKept ? (
    <Trans>The connection to the server was lost. Your answers are kept on this terminal.</Trans>
  ) : (
    <Trans>The connection to the server was lost.</Trans>
  );
}

function Unreachable({ answersKept }: { answersKept: boolean }) {
  return answersKept ? (
    <Trans>The server cannot be reached. Your answers are kept on this terminal.</Trans>
  ) : (
    <Trans>The server cannot be reached.</Trans>
  );
}
