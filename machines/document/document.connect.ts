/**
 * The print routes' binding (score-report-embed/{id}, login-slips/{code}), in the chakra-ui/zag style:
 * `connect(snapshot, send)` turns a snapshot of the document machine into exactly what the page
 * renders and the one event it may send: the score report screen's part (its print variant) and the
 * certificate's. `connectLoginSlips(api, catalogs)` adds to it the slips' catalogs the page loaded
 * (one per language on the slips): what the login slips screen renders. Pure: no React, no DOM.
 */
import type { LoginSlipsResponse } from '../../contract/exports.ts';
import type { ScoreReport } from '../../contract/results.ts';
import type { ScoreReportPrintApi } from '../results/results.connect.ts';
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
  /** The score report screen's one prop on this route: its print variant (no buttons), Retry where it may help. */
  scoreReport: ScoreReportPrintApi;
  /** The certificate's one prop, once the page shows it (`page` is 'certificate'); null otherwise. */
  certificate: CertificateApi | null;
}

export interface CertificateApi {
  /** The passed result the certificate is issued for. */
  report: ScoreReport;
}

export function connect(snapshot: DocumentSnapshot, send: (event: DocumentEvent) => void): DocumentApi {
  const view = selectDocumentView(snapshot);
  const certificate = view.document === 'certificate' && view.status === 'ready' && view.report ? { report: view.report } : null;
  const canRetry = view.status === 'error' && isTransientFailure(view.error);
  const retry = () => send({ type: 'retry.requested' });
  return {
    status: view.status,
    page: view.document === 'slips' ? 'slips' : certificate ? 'certificate' : 'report',
    report: view.report,
    slips: view.slips,
    error: view.error,
    needsMath: view.document === 'report' && Boolean(view.report?.wrong_answer_example?.math),
    canRetry,
    retry,
    scoreReport: printedReport(view.status, view.report, view.error, canRetry ? retry : undefined),
    certificate,
  };
}

/** The score report's print variant: what the page shows, and Retry only where it is given. */
export function printedReport(
  status: DocumentApi['status'],
  report: ScoreReport | null,
  error: FailureCode | null,
  onRetry: (() => void) | undefined,
): ScoreReportPrintApi {
  return { variant: 'print', status, report, error, ...(onRetry ? { onRetry } : {}) };
}

/**
 * The catalogs the page loaded for the slips' languages (the edge's Lingui instances, one per
 * language), or their failed load; each for the slips it was loaded for.
 */
export type SlipCatalogs<Catalog> =
  | { for: LoginSlipsResponse; catalogs: ReadonlyMap<string, Catalog> }
  | { for: LoginSlipsResponse; failed: true };

export interface LoginSlipsApi<Catalog> {
  /** ready once the slips and a catalog of each of their languages are loaded; error when either failed. */
  status: 'loading' | 'ready' | 'error';
  slips: LoginSlipsResponse | null;
  /** A catalog per slip language, loaded for the slips shown; null while they load. */
  catalogs: ReadonlyMap<string, Catalog> | null;
  error: FailureCode | null;
  /** Offered only where trying again may help (the slips' call met the network or the server). */
  onRetry?: () => void;
}

/** The login slips screen's one prop: the document's slips and the catalogs loaded for them (null before any). */
export function connectLoginSlips<Catalog>(api: DocumentApi, loaded: SlipCatalogs<Catalog> | null): LoginSlipsApi<Catalog> {
  // Catalogs loaded for other slips (before a retry loaded these) are not these slips' yet.
  const current = loaded && loaded.for === api.slips ? loaded : null;
  const catalogs = current && 'catalogs' in current ? current.catalogs : null;
  const failed = current !== null && catalogs === null;
  return {
    status: api.status === 'ready' ? (failed ? 'error' : catalogs ? 'ready' : 'loading') : api.status,
    slips: api.slips,
    catalogs,
    error: failed ? 'GENERIC_ERROR' : api.error,
    ...(api.canRetry ? { onRetry: api.retry } : {}),
  };
}
