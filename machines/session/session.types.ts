/**
 * Types of the session machine: who is logged in on this terminal, how they got in, where
 * they land, and how they leave.
 */
import type { PaymentReturnFacts } from '../payment/payment.return.ts';
import type { ErrorCode } from '../../contract/errors.ts';
import type { ChoosePageStatus } from '../../contract/results.ts';
import type { ExamineeSession, ExamListItem, LoginResponse, SsoErrorCode } from '../../contract/session.ts';
import type { FailureCode } from '../shared/ports.ts';

/** Why the login-code form cannot be sent, or why the server refused it. */
export type LoginError =
  | { kind: 'field'; rule: 'required' | 'invalid' }
  | { kind: 'failure'; code: FailureCode };

/** Why the login ID + password form cannot be sent, or why the server refused it. */
export type PasswordLoginError =
  | { kind: 'fields'; fields: { login_id?: 'required' | 'invalid'; password?: 'required' | 'invalid' } }
  | { kind: 'failure'; code: FailureCode };

/** What went wrong on an entry route (/oauth*, /app-entry). */
export type EntryError = { kind: 'sso'; code: SsoErrorCode } | { kind: 'failure'; code: FailureCode };

/** The school or schedule a login page belongs to, and which login it offers. */
export interface LoginPlace {
  organizationName: string;
  scheduleName: string | null;
  venueName: string | null;
  /**
   * 'examinee': the organisation logs in with examinee accounts (login method 3, type 5);
   * 'sso': it signs its pupils in with its own accounts (login method 2, OpenID Connect).
   */
  kind: 'id' | 'examinee' | 'sso';
  /** For 'sso': where single sign-on starts; null when this server has none configured. */
  ssoUrl: string | null;
  orgCode: string;
  scheduleCode: string | null;
  venueId: number | null;
}

export interface Credentials {
  login_id: string;
  password: string;
}

/** What a single sign-on entry learned from its query (seed section 2, rules 1-3). */
export interface EntryFacts {
  token: string;
  schoolId: string;
  loginType: number;
  stepMode: boolean;
}

/** The basic information form (seed section 5). */
export interface BasicInfoValues {
  examinee_name: string;
  grade_id: number | null;
  email: string;
}
/** Why a field of the basic information cannot be registered (a grade is only ever missing). */
export interface BasicInfoErrors {
  examinee_name?: 'required' | 'invalid';
  grade_id?: 'required';
  email?: 'required' | 'invalid';
}

/** Who left, remembered across the wipe so the right login page (or partner site) follows. */
export interface ExitFacts {
  loginType: number;
  orgCode: string;
  /** Set when the session ended with an error (DURING_MAINTENANCE, or GENERIC_ERROR for any other 401). */
  errorCode: FailureCode | null;
  /** The token POST /logout ends, kept across the wipe until the server answered. */
  token: string;
}

export interface SessionContext {
  /** The logged-in examinee, null while signed out. */
  session: ExamineeSession | null;
  /** What went wrong with the last login-code attempt. */
  loginError: LoginError | null;
  /** The normalised code of the login attempt in flight. */
  pendingCode: string | null;
  /** The query the current login page shows with (logout=1, org_code, school, error_code...). */
  search: Record<string, string>;
  /** The login page's school or schedule, once loaded. */
  place: LoginPlace | null;
  /** Why the login page's school or schedule could not be loaded. */
  placeError: FailureCode | null;
  /** The ID + password of the attempt in flight. */
  credentials: Credentials | null;
  /** What went wrong with the last ID + password attempt. */
  passwordError: PasswordLoginError | null;
  /** The token the terminal held at boot (rule 1: /oauth without a token uses it). */
  storedToken: string | null;
  /** The error code of the stored examinee info at boot (rule 5's /exam-end exception). */
  storedErrorCode: ErrorCode | null;
  /** What the entry route brought; null outside an entry. */
  entry: EntryFacts | null;
  /** Why the entry route failed. */
  entryError: EntryError | null;
  /** The basic information form. */
  basicInfo: { values: BasicInfoValues; errors: BasicInfoErrors; failure: FailureCode | null };
  /** The testing menu, once loaded. */
  menu: ChoosePageStatus | null;
  /** The exam list, once loaded. */
  exams: ExamListItem[];
  /** Why the testing menu or exam list could not be loaded. */
  failure: FailureCode | null;
  /** Who is leaving (kept through the wipe). */
  exit: ExitFacts | null;
  /** The app's own origin, for the payment provider's return URL. */
  appOrigin: string;
  /** The payment provider's redirect back to a payment screen, until that screen has taken it (machines/payment). */
  paymentReturn: PaymentReturnFacts | null;
  /**
   * A reload on a my-page screen past the menu (the fee's payment, a results screen): its path,
   * from the restored basic information until the screen is open again (or the menu stands in).
   */
  reloadedAt: string | null;
}

export interface SessionInput {
  /** The session read back from storage at boot (already validated), or null. */
  storedSession: ExamineeSession | null;
  /** The Examinee-Token in storage at boot, if any. */
  storedToken?: string | null;
  /** The stored examinee info's error code at boot, if any. */
  storedErrorCode?: ErrorCode | null;
  /** The app's own origin (https://host), for the payment provider's return URL. */
  appOrigin?: string;
}

export type SessionEvent =
  /** The pupil sent the login-code form. */
  | { type: 'loginCode.submitted'; code: string }
  /** The pupil sent the login ID + password form. */
  | { type: 'login.submitted'; login_id: string; password: string }
  /** The pupil (or the exam) asks to end the session. */
  /** errorCode: the session ends with this reason (error_code in the login page's query). */
  | { type: 'logout.requested'; errorCode?: FailureCode }
  /** The pupil asks to go to the login page (from /404, /403, a failed entry). */
  | { type: 'login.requested' }
  /** The pupil asks to try a failed call again. */
  | { type: 'retry.requested' }
  /** The exam changed a stored field (question index, completion...). */
  | { type: 'session.updated'; change: Partial<ExamineeSession> }
  /** The pupil edited the basic information form. */
  | { type: 'basicInfo.changed'; values: BasicInfoValues }
  /** The pupil asks to review the basic information before registering it. */
  | { type: 'basicInfo.reviewed' }
  /** The pupil goes back from the confirmation to the form. */
  | { type: 'basicInfo.edited' }
  /** The pupil confirms the basic information: it is registered. */
  | { type: 'basicInfo.confirmed' }
  /** The pupil has seen the registered basic information. */
  | { type: 'basicInfo.acknowledged' }
  /** The pupil chose "take test" on the testing menu. */
  | { type: 'test.chosen' }
  /** Testing menu: pay the exam fee. */
  | { type: 'fee.payRequested' }
  /** Testing menu: view results (the short result). */
  | { type: 'results.viewRequested' }
  /** Back to the testing menu from the exam fee's payment screen. */
  | { type: 'menu.requested' }
  /** The exam fee's payment screen after PAID: continue to the menu. */
  | { type: 'payment.continued' }
  /** The pupil chose a row of the exam list. */
  | { type: 'exam.chosen'; scheduleHistoryId: number }
  /** A URL that is not a routable screen of this machine: entry routes, /login, protected and unknown paths. */
  | { type: 'location.unmatched'; path: string; known: boolean; search?: Record<string, string> }
  /** A URL of a routable screen (XState routable states): the kiosk names the state's id. */
  | { type: 'xstate.route'; to: string };

/** Events the session machine sends to its parent (the kiosk). */
export type SessionParentEvent =
  /** The examinee is signed in and an exam is known: the exam flow starts. */
  | { type: 'session.signedIn'; session: ExamineeSession }
  | { type: 'session.signedOut' };

export type LoginOutput = LoginResponse;
