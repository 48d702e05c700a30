/**
 * Types of the kiosk machine, the root that composes the domain machines and decides which
 * screen is current.
 */
import type { ErrorCode } from '../../contract/errors.ts';
import type { ExamineeSession } from '../../contract/session.ts';
import type { ExamParentEvent } from '../exam/exam.types.ts';
import type { SessionParentEvent } from '../session/session.types.ts';

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

export type KioskEvent =
  /** The browser's location changed (typed URL, link, Back): the machine decides. */
  | { type: 'location.changed'; path: string; search?: Record<string, string> }
  /** "Check this terminal" on a login screen: the terminal check (/checking-domain-connection). */
  | { type: 'connectivity.requested' }
  | SessionParentEvent
  | ExamParentEvent;
