/**
 * Snapshot of the retry machine to what the retry dialog shows (src/components/retry-dialog/).
 */
import type { SnapshotFrom } from 'xstate';
import type { retryMachine } from './retry.machine.ts';

export type RetrySnapshot = SnapshotFrom<typeof retryMachine>;

/**
 * null: no dialog. connecting: "Connecting again…" while the call is tried again.
 * checkConnection: "Check your internet connection" with OK (closes).
 * retry: "Check your internet connection" with Retry (re-runs the failed call).
 */
export type RetryDialogView = null | { kind: 'connecting' } | { kind: 'checkConnection' } | { kind: 'retry' };

export function selectRetryDialog(snapshot: RetrySnapshot | undefined): RetryDialogView {
  if (!snapshot || snapshot.status !== 'active') return null;
  const { variant, error } = snapshot.context;
  if (snapshot.matches('offline')) return { kind: variant === 'autoConnect' ? 'retry' : 'checkConnection' };
  // After a network failure the call runs again: say so, until it succeeds or the window ends.
  return error !== null ? { kind: 'connecting' } : null;
}
