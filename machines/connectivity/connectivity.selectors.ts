/**
 * Snapshot of the connectivity machine to what the check page shows, without callbacks (those are
 * connectivity.connect.ts's): each row's status, and the summary a teacher reads from across the
 * room. Pure.
 */
import type { SnapshotFrom } from 'xstate';
import type { connectivityMachine } from './connectivity.machine.ts';
import { checkIds, type CheckId, type CheckResult } from './connectivity.types.ts';

export type ConnectivitySnapshot = SnapshotFrom<typeof connectivityMachine>;

/** A row: waiting for its turn, running now, or its verdict. */
export type RowStatus = 'waiting' | 'running' | 'pass' | 'warning' | 'fail';

export interface CheckRow {
  id: CheckId;
  status: RowStatus;
  /** The result once the check ended; null while it waits or runs. */
  result: CheckResult | null;
}

/**
 * The summary: checking (with how far the round is), or its outcome: ready (every check passed),
 * readyWithWarnings (nothing failed, something to look at), notReady (`problems` failed).
 */
export type Summary =
  | { kind: 'checking'; done: number; total: number }
  | { kind: 'ready'; warnings: 0; problems: 0 }
  | { kind: 'readyWithWarnings'; warnings: number; problems: 0 }
  | { kind: 'notReady'; warnings: number; problems: number };

/** The check running now, or null once the round is done. */
export function selectRunning(snapshot: ConnectivitySnapshot): CheckId | null {
  if (!snapshot.matches('checking')) return null;
  return checkIds.find((id) => snapshot.matches({ checking: id })) ?? null;
}

export function selectRows(snapshot: ConnectivitySnapshot): CheckRow[] {
  const running = selectRunning(snapshot);
  return checkIds.map((id) => {
    const result = snapshot.context.results[id];
    const status: RowStatus = result ? result.verdict : id === running ? 'running' : 'waiting';
    return { id, status, result };
  });
}

export function selectSummary(snapshot: ConnectivitySnapshot): Summary {
  const results = checkIds.map((id) => snapshot.context.results[id]);
  if (snapshot.matches('checking')) {
    return { kind: 'checking', done: results.filter((r) => r !== null).length, total: checkIds.length };
  }
  const problems = results.filter((r) => r?.verdict === 'fail').length;
  const warnings = results.filter((r) => r?.verdict === 'warning').length;
  if (problems > 0) return { kind: 'notReady', warnings, problems };
  if (warnings > 0) return { kind: 'readyWithWarnings', warnings, problems: 0 };
  return { kind: 'ready', warnings: 0, problems: 0 };
}
