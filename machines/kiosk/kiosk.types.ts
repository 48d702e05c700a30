/**
 * Types of the kiosk machine, the root that composes the domain machines and decides which
 * screen is current.
 */
import type { ErrorCode } from '../../contract/errors.ts';
import type { ExamineeSession } from '../../contract/session.ts';
import type { ExamEvent, ExamParentEvent } from '../exam/exam.types.ts';
import type { SessionEvent, SessionParentEvent } from '../session/session.types.ts';

export interface KioskContext {
  /** The session handed to the exam when the examinee signs in; null for a visitor. */
  session: ExamineeSession | null;
  /** The session read back from storage at boot, handed to the session machine. */
  restoredSession: ExamineeSession | null;
  /** The Examinee-Token in storage at boot (rule 1: /oauth without a token uses it). */
  storedToken: string | null;
  /** The stored examinee info's error code at boot (rule 5's /exam-end exception). */
  storedErrorCode: ErrorCode | null;
  /** The app's own origin, for the payment provider's return URL. */
  appOrigin: string;
}

export interface KioskInput {
  /** The session restored from storage at boot (validated), or null. */
  storedSession: ExamineeSession | null;
  /** The Examinee-Token in storage at boot, if any. */
  storedToken?: string | null;
  /** The stored examinee info's error code at boot, if any. */
  storedErrorCode?: ErrorCode | null;
  /** The app's own origin (https://host), for the payment provider's return URL. */
  appOrigin?: string;
}

/** What the pupil does on the session's screens. */
export type SessionUiEvent = Extract<
  SessionEvent,
  {
    type:
      | 'loginCode.submitted'
      | 'login.requested'
      | 'login.submitted'
      | 'basicInfo.changed'
      | 'basicInfo.reviewed'
      | 'basicInfo.edited'
      | 'basicInfo.confirmed'
      | 'basicInfo.acknowledged'
      | 'test.chosen'
      | 'exam.chosen'
      | 'fee.payRequested'
      | 'results.viewRequested'
      | 'menu.requested'
      | 'resultItems.buyRequested'
      | 'report.openRequested'
      | 'report.printRequested'
      | 'report.pdfRequested'
      | 'certificate.downloadRequested'
      | 'payment.continued'
      | 'item.toggled'
      | 'terms.toggled'
      | 'checkout.requested'
      | 'provider.completed'
      | 'demo.chosen'
      | 'again.requested';
  }
>;

/** What the pupil does on the exam's screens. */
export type ExamUiEvent = Extract<
  ExamEvent,
  {
    type:
      | 'identity.confirmed'
      | 'identity.rejected'
      | 'retry.requested'
      | 'tutorial.completed'
      | 'start.confirmed'
      | 'answer.given'
      | 'question.next'
      | 'question.previous'
      | 'question.selected'
      | 'question.flagged'
      | 'questionList.toggled'
      | 'keyboard.toggled'
      | 'upperCase.toggled'
      | 'focus.lost'
      | 'finish.requested'
      | 'finish.cancelled'
      | 'finish.confirmed'
      | 'dialog.closed'
      | 'connection.restored'
      | 'logout.requested';
  }
>;

export type KioskEvent =
  /** The browser's location changed (typed URL, link, Back): the machine decides. */
  | { type: 'location.changed'; path: string; search?: Record<string, string> }
  /** "Check this terminal" on a login screen: the terminal check (/checking-domain-connection). */
  | { type: 'connectivity.requested' }
  | SessionUiEvent
  | ExamUiEvent
  | SessionParentEvent
  | ExamParentEvent;
