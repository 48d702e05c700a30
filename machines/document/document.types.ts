/**
 * Types of the document machine: one score report or certificate opened for printing (the
 * `score-report-embed/{id}` route of seed section 2, used by the PDF renderer and the Android app).
 */
import type { ScoreReport } from '../../contract/results.ts';
import type { FailureCode } from '../shared/ports.ts';

/** Which document the page shows. */
export type DocumentKind = 'report' | 'certificate';

export interface DocumentInput {
  /** The sitting whose result is shown. */
  scheduleHistoryId: number;
  /** The bearer token from the URL (short-lived, issued for the PDF renderer); kept in memory only. */
  token: string | null;
  document: DocumentKind;
  /** The catalog key the document is written in; null keeps the current language. */
  locale: string | null;
}

export interface DocumentContext extends DocumentInput {
  /** The report once loaded; null before. */
  report: ScoreReport | null;
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
  };
  /** Switches the interface language for this page (the document's `locale`). */
  language?: { change(language: string): Promise<void> };
}
