/**
 * Types of the document machine: one score report or certificate opened for printing (the
 * `score-report-embed/{id}` route of seed section 2, used by the PDF renderer and the Android app),
 * or a test period's login slips (the `login-slips/{code}` route the slips PDF is printed from).
 */
import type { LoginSlipsResponse } from '../../contract/exports.ts';
import type { ScoreReport } from '../../contract/results.ts';
import type { FailureCode } from '../shared/ports.ts';

/** Which document the page shows. */
export type DocumentKind = 'report' | 'certificate' | 'slips';

/** The print route's request: a result document of one sitting, or a test period's login slips. */
export type DocumentInput = ResultDocumentInput | LoginSlipsInput;

export interface ResultDocumentInput {
  /** The sitting whose result is shown. */
  scheduleHistoryId: number;
  /** The bearer token from the URL (short-lived, issued for the PDF renderer); kept in memory only. */
  token: string | null;
  document: 'report' | 'certificate';
  /** The catalog key the document is written in; null keeps the current language. */
  locale: string | null;
}

export interface LoginSlipsInput {
  document: 'slips';
  /** The test period whose slips are printed. */
  scheduleCode: string;
  /** One classroom of it; null: every pupil of the test period. */
  venueId: number | null;
  /** The slips token from the URL (short-lived, issued for the PDF renderer); kept in memory only. */
  token: string;
  /** Each slip is written in its pupil's language: the page's own stays. */
  locale: null;
}

/** One context for either request: the fields the other request has not are null. */
export interface DocumentContext {
  document: DocumentKind;
  /** The sitting whose result is shown; null for the slips. */
  scheduleHistoryId: number | null;
  /** The test period whose slips are printed; null for a result document. */
  scheduleCode: string | null;
  /** The slips' classroom; null: every pupil (and for a result document). */
  venueId: number | null;
  /** The URL's token; kept in memory only. */
  token: string | null;
  /** The catalog key a result document is written in; null keeps the current language (always, for the slips). */
  locale: string | null;
  /** The report once loaded; null before (and for the slips). */
  report: ScoreReport | null;
  /** The slips once loaded; null before (and for a result document). */
  slips: LoginSlipsResponse | null;
  /** Why loading failed (RESULT_NOT_RELEASED, PAYMENT_REQUIRED...); null otherwise. */
  error: FailureCode | null;
}

export type DocumentEvent =
  /** Try loading again after a failure (a network error on the Android app). */
  { type: 'retry.requested' };

/** The calls the document machine makes, provided by the edge. */
export interface DocumentDeps {
  api: {
    /** GET /score-report/results, with this bearer token instead of the stored one when given. */
    scoreReport?(scheduleHistoryId: number, token?: string): Promise<ScoreReport>;
    /** GET /admin/schedules/:code/slips, with the print's slips token. */
    loginSlips?(scheduleCode: string, venueId: number | null, token: string): Promise<LoginSlipsResponse>;
  };
  /** Switches the interface language for this page (the document's `locale`). */
  language?: { change(language: string): Promise<void> };
}
