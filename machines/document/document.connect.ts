/**
 * The print routes' binding (score-report-embed/{id}, login-slips/{code}), in the chakra-ui/zag style:
 * `connect(snapshot, send)` turns a snapshot of the document machine into exactly what the page
 * renders and the one event it may send. Pure: no React, no DOM.
 */
import type { LoginSlipsResponse } from '../../contract/exports.ts';
import type { ScoreReport } from '../../contract/results.ts';
import { isTransientFailure, type FailureCode } from '../shared/ports.ts';
import { selectDocumentView, type DocumentSnapshot } from './document.selectors.ts';
import type { DocumentEvent } from './document.types.ts';

export type { DocumentSnapshot } from './document.selectors.ts';

export interface DocumentApi {
  status: 'loading' | 'ready' | 'error';
  /**
   * What the page shows: the certificate once it is ready; the score report's print variant
   * otherwise (the report itself, and the loading and error states of either document); the
   * login slips (loading, ready and failed).
   */
  page: 'certificate' | 'report' | 'slips';
  report: ScoreReport | null;
  /** The login slips, once loaded. */
  slips: LoginSlipsResponse | null;
  error: FailureCode | null;
  /** The report shows a formula: the page is ready for print only once KaTeX has set it. */
  needsMath: boolean;
  /** Trying again may help: the failure was the network's or the server's, not a refusal. */
  canRetry: boolean;
  /** Loads the document again after a failure (a network error on the Android app). */
  retry(): void;
}

export function connect(snapshot: DocumentSnapshot, send: (event: DocumentEvent) => void): DocumentApi {
  const view = selectDocumentView(snapshot);
  return {
    status: view.status,
    page: view.document === 'slips' ? 'slips' : view.document === 'certificate' && view.status === 'ready' && view.report ? 'certificate' : 'report',
    report: view.report,
    slips: view.slips,
    error: view.error,
    needsMath: view.document === 'report' && Boolean(view.report?.wrong_answer_example?.math),
    canRetry: view.status === 'error' && isTransientFailure(view.error),
    retry: () => send({ type: 'retry.requested' }),
  };
}
