/**
 * Types of the results machine: one sitting's results as the pupil looks at them after the
 * testing menu (seed section 2: short-result, pay-exam-result, purchased-result,
 * score-report/{id}), the result items bought on the way, and the documents saved from them.
 *
 * The screens send the events below and read ResultsApi (results.connect.ts).
 */
import type { ScoreReport, ShortResult } from '../../contract/results.ts';
import type { PaymentReturn } from '../payment/payment.types.ts';
import type { FailureCode } from '../shared/ports.ts';

export interface ResultsInput {
  /** The sitting whose results are shown: the menu's, or the one the provider's redirect named. */
  scheduleHistoryId: number;
  /** The app's own origin, for the payment provider's return URL. */
  appOrigin: string;
  /** The provider's redirect back to /pay-exam-result: that checkout is confirmed first (absent or null otherwise). */
  returning?: PaymentReturn | null;
  /**
   * The results screen's path the browser was on when the page was reloaded (the session reopens
   * the results there: session.machine.ts `reopening`); absent or null when opened from the menu.
   */
  reloadedAt?: string | null;
}

/** Which result items the examinee owns (seed section 3, payment items). */
export interface OwnedItems {
  result_sheet: boolean;
  certificate: boolean;
}

/** GET /get-short-result with what is owned (GET /get-setting-payment-for-result's items). */
export interface ShortResultWithOwned {
  result: ShortResult;
  owned: OwnedItems;
}

/** The PDFs saved from the results screens. */
export type DocumentKind = 'report' | 'certificate';

/** Why the session must end: a 401 on a results call (seed section 8). */
export type ResultsRefusal = 'DURING_MAINTENANCE' | 'GENERIC_ERROR';

export interface ResultsContext {
  /** The schedule history whose results are shown (the score report's {id}). */
  id: number;
  /** The app's own origin, for the payment provider's return URL. */
  appOrigin: string;
  /** The provider's redirect back, until the result payment has taken it. */
  returning: PaymentReturn | null;
  /** The results screen's path of a reload: `opening` goes back there (input `reloadedAt`). */
  reloadedAt: string | null;
  /** The short result, once loaded. */
  short: ShortResult | null;
  /** What of the result is owned, once loaded. */
  owned: OwnedItems | null;
  /** The score report, once loaded. */
  report: ScoreReport | null;
  /** Why the last results call or download failed. */
  failure: FailureCode | null;
  /** Which document is being downloaded, if any. */
  downloading: DocumentKind | null;
  /** Set when a results call was refused with a 401: the session ends with this reason. */
  refusal: ResultsRefusal | null;
}

export type ResultsEvent =
  /** Back to the testing menu (on pay-exam-result: back to the short result). */
  | { type: 'menu.requested' }
  /** Short result, purchased result: buy the result sheet and/or certificate (pay-exam-result). */
  | { type: 'resultItems.buyRequested' }
  /** Short result, purchased result: open the score report. */
  | { type: 'report.openRequested' }
  /** Score report: print it (the browser's print dialog). */
  | { type: 'report.printRequested' }
  /** Score report: save it as a PDF. */
  | { type: 'report.pdfRequested' }
  /** Purchased result, score report: download the certificate (PDF). */
  | { type: 'certificate.downloadRequested' }
  /** Pay-exam-result after PAID: on to the purchased result. */
  | { type: 'payment.continued' }
  /** A results call failed: try it again. */
  | { type: 'retry.requested' }
  /**
   * The browser's location moved to another results screen's path (Back, Forward, a typed URL):
   * the session hands it on (session.machine.ts, `results`) and this machine judges it.
   */
  | { type: 'location.unmatched'; path: string; known: boolean; search?: Record<string, string> };

/** How the results end: back to the menu (refusal null), or the session ends with the refusal. */
export interface ResultsOutput {
  refusal: ResultsRefusal | null;
}
