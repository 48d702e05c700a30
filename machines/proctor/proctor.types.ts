/**
 * Types of the proctor machine: a member of staff signs in on /proctor, picks one of
 * the organisation's schedules, watches its roster live, and moves a pupil to another terminal,
 * resets a pupil for a retake or extends the time of one pupil or of the whole room, each with a
 * reason, confirmed first and audited by the server.
 *
 * The view sends the events below and reads ProctorApi (proctor.connect.ts).
 */
import type {
  AdminSchedule,
  AuditEntry,
  RosterChanges,
  RosterPupil,
  RosterResponse,
  Staff,
  StaffLoginRequest,
} from '../../contract/admin.ts';
import type { FailureCode } from '../shared/ports.ts';

/** What the staff login form reports for a field: missing, or not what the field takes. */
export type FieldRule = 'required' | 'invalid';

/** The staff login form's fields, by their wire names. */
export type StaffLoginField = 'org_code' | 'login_id' | 'password';

export type StaffLoginValues = Record<StaffLoginField, string>;

/** Why the last sign-in did not happen: bad input (by field), or the server's refusal. */
export type StaffLoginError =
  | { kind: 'fields'; fields: Partial<Record<StaffLoginField, FieldRule>> }
  | { kind: 'failure'; code: FailureCode };

/**
 * Why the login form shows without anyone having pressed "Sign out": the staff session ended on
 * the server (a 401 on an admin call), or the proctor signed out.
 */
export type StaffNotice = 'sessionEnded' | 'signedOut';

/** The four actions a proctor can take (the audit's names, contract/admin.ts). */
export type ActionKind = 'move_terminal' | 'retake' | 'extend' | 'extend_room';

/** The sitting actions (one pupil). */
export type PupilActionKind = Exclude<ActionKind, 'extend_room'>;
/**
 * Why an action the roster shows for a pupil cannot succeed now (the page shows it disabled, with
 * the reason): upload_window_closed, the sitting is past its deadline and upload window, and the
 * server refuses an extension TIME_END.
 */
export type UnavailableReason = 'upload_window_closed';

/**
 * Why a pupil needs the proctor (proctor.rules.ts `attentionOf`, most urgent first): their terminal
 * is not heard from, it holds answers the server does not have yet, their time is up, or they have
 * not started while most of the room has.
 */
export type AttentionReason = 'refused_elsewhere' | 'offline' | 'answers_waiting' | 'time_up' | 'not_started';

/**
 * The roster's state filter: everyone, those who need attention, or one group of states (not
 * started: not logged in or logged in; in the exam: in the exam, offline, moving or time up;
 * finished; ended: cancelled or expired).
 */
export type RosterFilter = 'all' | 'attention' | 'not_started' | 'in_exam' | 'finished' | 'ended';

/** The action being confirmed: what, for whom (one pupil, or every pupil in the exam in a room). */
export interface ActionDraft {
  kind: ActionKind;
  /** The pupil's sitting (schedule history id); null for the room-wide extension. */
  sittingId: number | null;
  /** The pupil's name as the roster showed it when the action was asked for. */
  examineeName: string | null;
  /** The answers the server held for that pupil then (a retake archives them). */
  answersSaved: number;
  /**
   * What the pupil's terminal may still hold, as the roster showed it then (a move warns of it):
   * `waitingAnswers`, those it said at its last heartbeat it had not sent yet; `terminalOffline`,
   * not heard from lately (answers given since may be on it too). Absent: none known.
   */
  waitingAnswers?: number;
  terminalOffline?: boolean;
  /** The room the room-wide extension is limited to (the roster's filter); null: the whole schedule. */
  venueId: number | null;
  venueName: string | null;
  /**
   * Pupils the room-wide extension reaches, as the roster showed them when it was asked for: in
   * the exam and not past the upload window (`pupilsToExtend`; the server leaves those out).
   */
  pupilsInExam: number;
}

/** A confirmed action as it is sent: the draft with its validated reason and minutes. */
export interface ActionRequest extends ActionDraft {
  reason: string;
  /** Extensions only: whole minutes, 1 to 60. */
  minutes: number | null;
  /**
   * Made once when the action is confirmed and sent again by "Try again", so an action whose
   * answer was lost is done at most once (contract/admin.ts, idempotency_key).
   */
  idempotencyKey?: string;
}

/** The confirm form's fields and what is wrong with them. */
export type ActionField = 'reason' | 'minutes';
export type ActionFieldErrors = Partial<Record<ActionField, FieldRule>>;

/** What the last action did, for the status line after it. */
export interface ActionOutcome {
  kind: ActionKind;
  examineeName: string | null;
  minutes: number | null;
  /** extend_room: how many sittings the server extended. */
  extended: number | null;
  venueName: string | null;
}

export interface ProctorContext {
  /** The staff token (stored under its own key, never the pupil's); null while signed out. */
  token: string | null;
  /** Who is signed in. */
  staff: Staff | null;
  /** What signingIn sends; the password is forgotten as soon as the call ends. */
  credentials: StaffLoginRequest | null;
  loginError: StaffLoginError | null;
  notice: StaffNotice | null;
  /** Why loading the schedules, the audit or the restored session failed. */
  failure: FailureCode | null;
  schedules: AdminSchedule[];
  /** The schedule being watched. */
  scheduleCode: string | null;
  /** The roster held: the last one the server sent in full, with every change since merged in (kept through failed polls). */
  roster: RosterResponse | null;
  /** The last answer's cursor, sent back as `since` for the changes after it; null: ask in full. */
  cursor: string | null;
  /** Server clock minus this terminal's clock, from the last roster or action answer (ms). */
  clockOffsetMs: number;
  /** When the roster was last confirmed current (this terminal's clock, ms since the epoch). */
  updatedAt: number | null;
  /** Polls failed in a row (0 while the connection is fine); the backoff grows with it. */
  pollFailures: number;
  /** Why the last poll failed; null once one succeeds. */
  pollFailure: FailureCode | null;
  /** The room whose roster is asked for (and shown); null: every room of the schedule. */
  venueId: number | null;
  /** The roster's state filter. */
  rosterFilter: RosterFilter;
  /** The roster's search as typed (a name or a login code); empty: no search. */
  search: string;
  draft: ActionDraft | null;
  fieldErrors: ActionFieldErrors;
  /** The confirmed action, while it is sent and after it failed (for "Try again"). */
  pending: ActionRequest | null;
  actionFailure: FailureCode | null;
  outcome: ActionOutcome | null;
  /** The schedule's audit trail, newest first. */
  audit: AuditEntry[];
}

export type ProctorEvent =
  /** The staff login form was sent. */
  | { type: 'login.submitted'; values: StaffLoginValues }
  /** Try again after a failed load (restore, schedules, audit). */
  | { type: 'retry.requested' }
  | { type: 'schedule.chosen'; code: string }
  /** Back to the list of schedules. */
  | { type: 'schedules.requested' }
  /** The room to watch (its roster is asked for in full, then its changes); null: every room. */
  | { type: 'venue.chosen'; venueId: number | null }
  /** The roster's state filter. */
  | { type: 'roster.filterChosen'; filter: RosterFilter }
  /** The roster's search box, as typed. */
  | { type: 'roster.searched'; text: string }
  /** Ask for the roster now (the connection-lost banner's "Try now"). */
  | { type: 'roster.refreshRequested' }
  /**
   * An action asked for; `now` is this terminal's clock then (ms): the machine judges it on the
   * server's clock at that time (the kept offset), as the roster's buttons do.
   */
  | { type: 'action.requested'; kind: PupilActionKind; sittingId: number; now: number }
  | { type: 'action.requested'; kind: 'extend_room'; now: number }
  /** The confirm step: the reason (and the minutes, for an extension) as typed. */
  | { type: 'action.confirmed'; reason: string; minutes?: string }
  | { type: 'action.cancelled' }
  /** Send the failed action again. */
  | { type: 'action.retried' }
  | { type: 'audit.requested' }
  | { type: 'audit.closed' }
  | { type: 'logout.requested' };

// ---------------------------------------------------------------------------
// The edge: one HTTP port for the admin API (src/api/admin-client.ts; fakes in tests)
// ---------------------------------------------------------------------------

export interface AdminRequest {
  method: 'GET' | 'POST' | 'PATCH';
  /** Relative to the API base, e.g. `/admin/schedules`. */
  path: string;
  /** The staff token; null for the login call. The pupil's token is never sent. */
  token: string | null;
  query?: Record<string, string | number>;
  body?: unknown;
  /** The ETag of a copy held, sent as If-None-Match. */
  ifNoneMatch?: string | null;
}

export interface AdminResponse {
  status: number;
  /** The parsed JSON body; undefined when there is none (204, 304) or it is not JSON. */
  body: unknown;
  etag: string | null;
}

/**
 * Sends one admin request and resolves with whatever the server answered (any status); rejects
 * only with an ApiFailure NETWORK_ERROR or TIMEOUT when no answer came. The actors parse every
 * answer with the contract's schemas (proctor.actors.ts).
 */
export interface AdminPort {
  send(request: AdminRequest): Promise<AdminResponse>;
}

/** What the roster call asks for: a room (null: the whole schedule), in full or since a cursor. */
export interface RosterRequest {
  token: string;
  code: string;
  venueId: number | null;
  /** The last answer's cursor; null: the roster in full. */
  since: string | null;
}

/** The roster call's result: the roster in full, or its changes since the cursor sent. */
export type RosterResult = { kind: 'full'; roster: RosterResponse } | { kind: 'changes'; changes: RosterChanges };

/** The restored staff session: the stored token and whom the server says it belongs to. */
export interface RestoredSession {
  token: string;
  staff: Staff;
}

/** What performAction resolves with: the pupil's fresh row (sitting actions) or the count (room). */
export interface ActionResult {
  pupil: RosterPupil | null;
  extended: number | null;
  server_time: string;
}
