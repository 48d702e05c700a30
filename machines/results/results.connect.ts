/**
 * The results screens' binding (short-result, purchased-result, score-report; pay-exam-result's
 * way out), in the chakra-ui/zag style: `connect(snapshot, send)` turns a snapshot of the results
 * machine into exactly what each screen renders and the events it may send, and nothing else.
 * Pure: no React, no DOM. Strings are the screens' (Lingui); this gives them facts and codes.
 *
 * Without a snapshot (the results are not running: the session is on its way to or from them),
 * or while the results machine's definition is still loading (machines/session/session.lazy.ts:
 * a pending snapshot, no state yet), every screen shows its loading state and sends nothing.
 */
import type { ScoreReport, ShortResult } from '../../contract/results.ts';
import { isPendingSnapshot } from '../shared/lazy-machine.ts';
import { isTransientFailure, type FailureCode } from '../shared/ports.ts';
import type { PaymentOwnerEvent } from '../payment/payment.connect.ts';
import {
  canDownloadCertificate,
  hasItemsToBuy,
  isRetryableLoad,
  ownedFactsOf,
  selectLoad,
  selectResultsScreen,
  type ResultsScreen,
  type ResultsSnapshot,
} from './results.selectors.ts';
import type { ResultsEvent } from './results.types.ts';

export type { ResultsScreen, ResultsSnapshot } from './results.selectors.ts';

type Load = 'loading' | 'ready' | 'error';

export interface ShortResultApi {
  status: Load;
  result: ShortResult | null;
  error: FailureCode | null;
  /** "Try again" after a failure; not for one that says when the result can be seen (not released, expired). */
  canRetry: boolean;
  /** The score report opens (the result sheet is owned). */
  canOpenReport: boolean;
  /** Something is still for sale: the result sheet, or the certificate of a passed exam. */
  canBuy: boolean;
  /** Opens pay-exam-result. */
  onBuy(): void;
  onOpenReport(): void;
  /** Back to the testing menu. */
  onBack(): void;
  onRetry(): void;
}

/** What the pupil owns of the result, and whether a certificate exists (a passed exam). */
export interface Purchases {
  result_sheet: boolean;
  certificate: boolean;
  passed: boolean;
}

export interface PurchasedResultApi {
  status: Load;
  purchases: Purchases | null;
  /** Why the load failed (status error). */
  error: FailureCode | null;
  /** The certificate download: idle, in progress, or failed (with why). */
  download: { status: 'idle' | 'downloading' | 'failed'; error: FailureCode | null };
  canOpenReport: boolean;
  /** The certificate is owned and the exam passed (while it downloads too: the button shows it busy). */
  canDownloadCertificate: boolean;
  canBuy: boolean;
  onOpenReport(): void;
  onDownloadCertificate(): void;
  onBuy(): void;
  onBack(): void;
  onRetry(): void;
}

/** Where a PDF download stands. */
export type DownloadState = 'idle' | 'working' | 'failed';

/** What the score report shows on either host: the report, or why it is not there. */
interface ScoreReportShown {
  status: Load;
  report: ScoreReport | null;
  error: FailureCode | null;
  /** Offered only where trying again may help (no answer, a time-out, the generic error). */
  onRetry?: () => void;
}

/** The score report in the app (`score-report/{id}`): print, the PDFs and back to the menu. */
export interface ScoreReportScreenApi extends ScoreReportShown {
  variant: 'screen';
  download: { report: DownloadState; certificate: DownloadState };
  onPrint(): void;
  onDownloadPdf(): void;
  onDownloadCertificate(): void;
  onBack(): void;
}

/** The score report on the print route (`score-report-embed/{id}`, the document connect's): no buttons. */
export interface ScoreReportPrintApi extends ScoreReportShown {
  variant: 'print';
}

/** The score report screen's one prop: the results connect's in the app, the document connect's on the print route. */
export type ScoreReportApi = ScoreReportScreenApi | ScoreReportPrintApi;

export interface ResultsApi {
  /** The results screen shown, or null when none (the results are over, or not running). */
  screen: ResultsScreen | null;
  shortResult: ShortResultApi;
  purchasedResult: PurchasedResultApi;
  scoreReport: ScoreReportScreenApi;
  /** Pay-exam-result's Back (to the short result) and Continue (to the purchased result): the result payment's owner. */
  paymentOwner(event: PaymentOwnerEvent): void;
}

const nothing = () => {};

export function connect(given: ResultsSnapshot | undefined, send: (event: ResultsEvent) => void): ResultsApi {
  const snapshot = given && !isPendingSnapshot(given) ? given : undefined;
  const context = snapshot?.context;
  const on = (event: ResultsEvent) => (snapshot ? () => send(event) : nothing);
  const load = (screen: 'shortResult' | 'purchasedResult' | 'scoreReport'): Load => (snapshot ? selectLoad(snapshot, screen) : 'loading');
  const failure = context?.failure ?? null;
  const facts = context ? ownedFactsOf(context) : { owned: null, passed: false };
  const canOpenReport = snapshot?.can({ type: 'report.openRequested' }) ?? false;

  const shortStatus = load('shortResult');
  const purchasedStatus = load('purchasedResult');
  const reportStatus = load('scoreReport');
  // A failed download leaves the report on screen: both buttons say it failed.
  const failedDownload: DownloadState = reportStatus === 'ready' && failure ? 'failed' : 'idle';
  // The short result's and the purchased result's buttons alike.
  const resultButtons = {
    onBuy: on({ type: 'resultItems.buyRequested' }),
    onOpenReport: on({ type: 'report.openRequested' }),
    onBack: on({ type: 'menu.requested' }),
    onRetry: on({ type: 'retry.requested' }),
  };

  return {
    screen: snapshot ? selectResultsScreen(snapshot) : null,
    shortResult: {
      status: shortStatus,
      result: context?.short ?? null,
      error: failure,
      canRetry: isRetryableLoad(failure),
      canOpenReport,
      canBuy: Boolean(context?.short) && hasItemsToBuy(facts),
      ...resultButtons,
    },
    purchasedResult: {
      status: purchasedStatus,
      purchases: context?.owned ? { ...context.owned, passed: context.short?.passed ?? false } : null,
      error: purchasedStatus === 'error' ? failure : null,
      download: { status: context?.downloading === 'certificate' ? 'downloading' : failure ? 'failed' : 'idle', error: failure },
      canOpenReport,
      canDownloadCertificate: canDownloadCertificate(facts),
      canBuy: hasItemsToBuy(facts),
      onDownloadCertificate: on({ type: 'certificate.downloadRequested' }),
      // As on the short result: "Buy" opens pay-exam-result for what is not owned yet.
      ...resultButtons,
    },
    scoreReport: {
      status: reportStatus,
      report: context?.report ?? null,
      error: failure,
      variant: 'screen',
      download: {
        report: context?.downloading === 'report' ? 'working' : failedDownload,
        certificate: context?.downloading === 'certificate' ? 'working' : failedDownload,
      },
      onPrint: on({ type: 'report.printRequested' }),
      onDownloadPdf: on({ type: 'report.pdfRequested' }),
      onDownloadCertificate: on({ type: 'certificate.downloadRequested' }),
      onBack: on({ type: 'menu.requested' }),
      ...(isTransientFailure(failure) ? { onRetry: on({ type: 'retry.requested' }) } : {}),
    },
    paymentOwner: (event) => {
      if (snapshot) send(event);
    },
  };
}
