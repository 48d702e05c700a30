/**
 * Types of the session machine: who is logged in on this terminal, and how they got in.
 */
import type { ExamineeSession, LoginResponse } from '../../src/shared/contract.ts';
import type { FailureCode } from '../shared/ports.ts';

/** Why the login form cannot be sent, or why the server refused it. */
export type LoginError =
  | { kind: 'field'; rule: 'required' | 'invalid' }
  | { kind: 'failure'; code: FailureCode };

export interface SessionContext {
  /** The logged-in examinee, null while signed out. */
  session: ExamineeSession | null;
  /** What went wrong with the last login attempt, shown on the login screen. */
  loginError: LoginError | null;
  /** The normalised code of the login attempt in flight. */
  pendingCode: string | null;
}

export interface SessionInput {
  /** The session read back from storage at boot (already validated), or null. */
  storedSession: ExamineeSession | null;
}

export type SessionEvent =
  /** The pupil sent the login-code form. */
  | { type: 'loginCode.submitted'; code: string }
  /** The pupil (or the exam) asks to end the session. */
  | { type: 'logout.requested' }
  /** The pupil asks to go back to the login page (from /404). */
  | { type: 'login.requested' }
  /** The exam changed a stored field (question index, completion...). */
  | { type: 'session.updated'; change: Partial<ExamineeSession> }
  /** A URL that belongs to the app but not to a screen of this machine. */
  | { type: 'location.unmatched'; path: string; known: boolean };

/** Events the session machine sends to its parent (the kiosk). */
export type SessionParentEvent =
  | { type: 'session.signedIn'; session: ExamineeSession }
  | { type: 'session.signedOut' };

export type LoginOutput = LoginResponse;
