/**
 * Snapshot to view: what the embed page shows.
 */
import type { SnapshotFrom } from 'xstate';
import type { ScoreReport } from '../../contract/results.ts';
import type { FailureCode } from '../shared/ports.ts';
import type { documentMachine } from './document.machine.ts';
import type { DocumentKind } from './document.types.ts';

export interface DocumentView {
  status: 'loading' | 'ready' | 'error';
  document: DocumentKind;
  report: ScoreReport | null;
  error: FailureCode | null;
}

export type DocumentSnapshot = SnapshotFrom<typeof documentMachine>;

export function selectDocumentView(snapshot: DocumentSnapshot): DocumentView {
  const { context } = snapshot;
  // A certificate is issued only for a passed result (issue: "a PDF for a passed, paid result").
  if (snapshot.matches('ready') && context.document === 'certificate' && context.report && !context.report.result.passed) {
    return { status: 'error', document: context.document, report: null, error: 'NOT_PASSED' };
  }
  return {
    status: snapshot.matches('ready') ? 'ready' : snapshot.matches('failed') ? 'error' : 'loading',
    document: context.document,
    report: context.report,
    error: context.error,
  };
}
