/**
 * Snapshot to view: what the embed page shows.
 */
import type { SnapshotFrom } from 'xstate';
import type { LoginSlipsResponse } from '../../contract/exports.ts';
import type { ScoreReport } from '../../contract/results.ts';
import type { FailureCode } from '../shared/ports.ts';
import type { documentMachine } from './document.machine.ts';
import type { DocumentKind } from './document.types.ts';

export interface DocumentView {
  status: 'loading' | 'ready' | 'error';
  document: DocumentKind;
  report: ScoreReport | null;
  /** The login slips, once loaded (the slips document only). */
  slips: LoginSlipsResponse | null;
  error: FailureCode | null;
}

export type DocumentSnapshot = SnapshotFrom<typeof documentMachine>;

export function selectDocumentView(snapshot: DocumentSnapshot): DocumentView {
  const { context } = snapshot;
  if (context.document === 'slips') {
    const status = snapshot.matches({ slips: 'ready' }) ? 'ready' : snapshot.matches({ slips: 'failed' }) ? 'error' : 'loading';
    return { status, document: 'slips', report: null, slips: context.slips, error: context.error };
  }
  // A certificate is issued only for a passed result (issue: "a PDF for a passed, paid result").
  if (snapshot.matches('ready') && context.document === 'certificate' && context.report && !context.report.result.passed) {
    return { status: 'error', document: context.document, report: null, slips: null, error: 'NOT_PASSED' };
  }
  return {
    status: snapshot.matches('ready') ? 'ready' : snapshot.matches('failed') ? 'error' : 'loading',
    document: context.document,
    report: context.report,
    slips: null,
    error: context.error,
  };
}
