/**
 * The wire contract of the staff (proctor) API under /api/admin: login, the
 * schedules and live roster of the proctor's organisation, the exam-day actions and the audit
 * trail. The server validates what comes in with these; the proctor page validates what comes
 * back. snake_case on the wire, like the rest of the API.
 *
 * Rules every call follows:
 * - Staff tokens are not pupil tokens: `Authorization: Bearer <staff token>` from
 *   POST /admin/login. A pupil token is 401 NOT_LOGGED_IN here, a staff token is 401
 *   NOT_LOGGED_IN on every pupil call.
 * - Errors are the contract's ErrorBody (contract/errors.ts): 401 NOT_LOGGED_IN (no or a
 *   bad staff token), 401 INCORRECT_ID_PASSWORD (login), 403 ACCOUNT_LOCKED (five wrong
 *   passwords in a row lock the staff account for a minute, as for pupils), 400/422
 *   VALIDATION_ERROR (bad input changes nothing), 404 NOT_FOUND for anything outside the staff
 *   member's organisation (never leaks whether it exists).
 * - Action refusals reuse the seed's codes: a sitting that is not in the exam cannot be moved or
 *   extended: 403 EXAM_NOT_STARTED (PENDING), ER_SCHEDULE_HISTORY_COMPLETED (finished),
 *   ER_SCHEDULE_HISTORY_CANCELLED, EXPIRED; one past its deadline and upload window (its answers
 *   are refused, the automatic finish ends it) cannot be extended: 403 TIME_END; a retake of a
 *   sitting never started is EXAM_NOT_STARTED, of a released result ER_SCHEDULE_HISTORY_COMPLETED.
 * - Every action runs in one transaction with its audit entry (GET /admin/audit).
 *
 * Live updates: the proctor page asks for one room's roster in full once, then every
 * ROSTER_POLL_MS for what changed since the last answer (`since`, the answer's cursor): the rows
 * that changed and those whose state the time alone moved, nothing else, so a poll costs what
 * changed in the room, not the size of the test period. The last contact of a pupil `in_exam`,
 * which every heartbeat moves, is not a change: that state already says "heard from within
 * OFFLINE_AFTER_MS". Without `since` the roster comes in full with a strong ETag, and a matching
 * If-None-Match is 304. Polling was chosen over server-sent events because it works through
 * school proxies that buffer SSE and needs no sticky connection when several API processes share
 * one PostgreSQL.
 *
 * Decisions beyond /work/notes/exam-day-contract.md (names there are kept):
 * - Roster states add `moving` (a proctor released the terminal; the pupil has not pressed
 *   Start on the new one yet) and `time_up` (DOING past the deadline: answers given before it
 *   may still arrive, the automatic finish follows). There is no `scored`: any finished status
 *   (COMPLETED, SCORING_COMPLETED, STATISTIC_COMPLETED, RESULT_PUBLIC) is `finished`, with the
 *   receipt; `status` carries the seed's number for anyone who needs more.
 * - Audit entries carry `actor` ('staff' | 'system') and `staff_name` (null for the system),
 *   rather than a staff_name that may be the word 'system'.
 * - Every sitting action answers `{ pupil, server_time }` with the pupil's fresh roster row;
 *   extend adds `deadline_at` (the new deadline).
 * - A room is a venue: schedules list theirs, the roster and the schedule-wide extension take
 *   an optional `venue_id`.
 *
 * Imports only valibot (the contract sits below server/, machines/ and src/).
 */
import * as v from 'valibot';

/** How often the proctor page asks for the roster's changes (with the last answer's cursor). */
export const ROSTER_POLL_MS = 5_000;

const isoTimestamp = v.pipe(v.string(), v.isoTimestamp());
const serverTime = { server_time: isoTimestamp };
const id = v.pipe(v.number(), v.integer(), v.minValue(1));
/** Organisation and schedule codes: letters, digits, hyphen and underscore (as in contract/session.ts). */
const CodeSchema = v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'invalid'));
/** A numeric path or query parameter (they arrive as strings). */
const NumericParam = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/, 'invalid'), v.transform(Number));
/** Schedule history status (seed section 4), re-declared so this file imports only valibot. */
const ScheduleHistoryStatusSchema = v.picklist([0, 1, 2, 3, 4, 5, 6, 7, 8]);
const VenueSchema = v.object({ id: v.number(), name: v.string() });

// ---------------------------------------------------------------------------
// Staff login
// ---------------------------------------------------------------------------

export const staffRoles = ['admin', 'proctor'] as const;
export const StaffRoleSchema = v.picklist(staffRoles);
export type StaffRole = (typeof staffRoles)[number];

const LoginIdSchema = v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(64, 'invalid'));
const LoginPasswordSchema = v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(128, 'invalid'));

/**
 * POST /admin/login. With an organisation code: that organisation's proctor. Without one (absent
 * or empty): an administrator, who belongs to no organisation (login ids are unique among them).
 */
export const StaffLoginRequestSchema = v.object({
  org_code: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((code) => code === '' || /^[A-Za-z0-9_-]{1,64}$/.test(code), 'invalid'),
      v.transform((code) => (code === '' ? undefined : code)),
    ),
  ),
  login_id: LoginIdSchema,
  password: LoginPasswordSchema,
});
export type StaffLoginRequest = v.InferInput<typeof StaffLoginRequestSchema>;

/** The proctor page's sign-in form: the organisation code is required there. */
export const ProctorLoginRequestSchema = v.object({ org_code: CodeSchema, login_id: LoginIdSchema, password: LoginPasswordSchema });

/** Who is signed in: an administrator has no organisation (org_code and org_name null). */
export const StaffSchema = v.object({
  name: v.string(),
  login_id: v.string(),
  role: StaffRoleSchema,
  org_code: v.nullable(v.string()),
  org_name: v.nullable(v.string()),
});
export type Staff = v.InferOutput<typeof StaffSchema>;

export const StaffLoginResponseSchema = v.object({
  access_token: v.string(),
  staff: StaffSchema,
  ...serverTime,
});
export type StaffLoginResponse = v.InferOutput<typeof StaffLoginResponseSchema>;

/** GET /admin/me. (POST /admin/logout answers 204 with no body and revokes the staff token.) */
export const StaffMeResponseSchema = v.object({ staff: StaffSchema, ...serverTime });
export type StaffMeResponse = v.InferOutput<typeof StaffMeResponseSchema>;

// ---------------------------------------------------------------------------
// Schedules and the live roster
// ---------------------------------------------------------------------------

/** A schedule of the proctor's organisation. */
export const AdminScheduleSchema = v.object({
  code: v.string(),
  /** Empty when the schedule has no name (show the code). */
  name: v.string(),
  starts_at: isoTimestamp,
  ends_at: isoTimestamp,
  venue: v.nullable(VenueSchema),
  pupil_count: v.number(),
});
export type AdminSchedule = v.InferOutput<typeof AdminScheduleSchema>;

/** GET /admin/schedules: the organisation's schedules, soonest-ending open ones first, then the rest newest first. */
export const AdminSchedulesResponseSchema = v.object({
  schedules: v.array(AdminScheduleSchema),
  ...serverTime,
});
export type AdminSchedulesResponse = v.InferOutput<typeof AdminSchedulesResponseSchema>;

/** Path parameter `:code` of the schedule calls. */
export const ScheduleCodeParamSchema = v.object({ code: CodeSchema });
/** Path parameter `:id` (a schedule history id) of the sitting calls. */
export const SittingIdParamSchema = v.object({ id: NumericParam });

/** The longest cursor the server gives (and the longest `since` it reads). */
export const ROSTER_CURSOR_MAX_LENGTH = 160;

/**
 * The roster's cursor: what an answer's `cursor` carries, sent back as `since` to get only what
 * changed after that answer. Opaque to the page; the server reads it as
 * `<oldest running transaction>.<answer time, ms since the epoch>`, optionally followed by the
 * rest of the answer's snapshot: `.<next transaction, from the oldest>` and
 * `.<running transactions, from the oldest, joined by _>` (server/domain/roster.ts).
 */
export const RosterCursorSchema = v.pipe(
  v.string(),
  v.maxLength(ROSTER_CURSOR_MAX_LENGTH, 'invalid'),
  v.regex(/^[0-9]{1,19}\.[0-9]{1,15}(\.[0-9]{1,10}(\.[0-9]{1,10}(_[0-9]{1,10})*)?)?$/, 'invalid'),
);
export type RosterCursor = v.InferOutput<typeof RosterCursorSchema>;

/**
 * GET /admin/schedules/:code/roster?venue_id=&since=: one room of the schedule (venue_id), or the
 * whole schedule; with `since` (a cursor an earlier answer gave) only the pupils whose row may have
 * changed after it. A `since` that is not such a cursor (malformed, or ahead of the server's
 * database) is 422 ROSTER_CURSOR_INVALID: ask without it. (`since` is checked apart from the
 * rest, with RosterCursorSchema, so it has its own code.)
 */
export const RosterQuerySchema = v.object({ venue_id: v.optional(NumericParam), since: v.optional(v.pipe(v.string(), v.maxLength(ROSTER_CURSOR_MAX_LENGTH))) });

/**
 * A pupil's live state, derived on the server at `server_time`:
 * - not_logged_in: PENDING, no login token was ever issued for the sitting;
 * - logged_in: PENDING, logged in, Start not pressed;
 * - in_exam: DOING, heard from within OFFLINE_AFTER_MS (contract/presence.ts, 30 s);
 * - offline: DOING, not heard from for longer than that;
 * - moving: DOING, a proctor released the terminal; the pupil logs in and presses Start on another;
 * - time_up: DOING past the deadline, awaiting answers still in flight and the automatic finish
 *   (an extension now gives the pupil its minutes from now);
 * - finished: COMPLETED or later (the receipt is there);
 * - cancelled: CANCELED_PENDING or CANCELED_COMPLETED;
 * - expired: EXPIRED (the schedule ended before Start).
 */
export const rosterStates = [
  'not_logged_in',
  'logged_in',
  'in_exam',
  'offline',
  'moving',
  'time_up',
  'finished',
  'cancelled',
  'expired',
] as const;
export const RosterStateSchema = v.picklist(rosterStates);
export type RosterState = (typeof rosterStates)[number];

/** The finish receipt (as POST /exam/finish answered it to the pupil). */
export const RosterReceiptSchema = v.object({
  answer_count: v.number(),
  /** SHA-256 (hex) over the saved answers (contract/exam.ts, answersDigestText). */
  digest: v.string(),
  finished_at: isoTimestamp,
});

/** One pupil (one sitting) on the roster. */
export const RosterPupilSchema = v.object({
  schedule_history_id: v.number(),
  examinee_name: v.string(),
  /** The last 4 characters of the login code, enough to tell pupils apart, never the code. */
  login_code_hint: v.string(),
  venue: v.nullable(VenueSchema),
  subject_id: v.number(),
  level_id: v.number(),
  level_name: v.string(),
  exam_title: v.string(),
  /** The seed's schedule history status (0 to 8). */
  status: ScheduleHistoryStatusSchema,
  state: RosterStateSchema,
  /** The 0-based question on screen at the last heartbeat; null before any. */
  question_index: v.nullable(v.number()),
  question_count: v.number(),
  /** Non-empty answers the server holds. */
  answers_saved: v.number(),
  /**
   * Answers the pupil's terminal said, at its last heartbeat, it holds and the server does not yet
   * (its outbox: given while the network failed); 0 when it said none, and outside the exam. A
   * terminal that is `offline` may hold more, given since. After a move the old terminal still
   * sends those given before the move.
   */
  waiting_answers: v.number(),
  /**
   * In the exam (DOING): the last time the pupil's login was refused because the sitting runs on
   * another terminal (the pupil stands at a second one and may need a move), until a move clears
   * it; null otherwise.
   */
  refused_elsewhere_at: v.nullable(isoTimestamp),
  /** The last call the pupil's terminal made for this sitting (heartbeat or any exam call). */
  last_contact_at: v.nullable(isoTimestamp),
  started_at: v.nullable(isoTimestamp),
  deadline_at: v.nullable(isoTimestamp),
  /**
   * Seconds of time given so far (extensions and automatic credits). An extension given after the
   * deadline runs from that moment, so the deadline then moves further than the time given.
   */
  extra_seconds: v.number(),
  /** A terminal holds the sitting (false before Start and after a move, until Start on the new one). */
  device_bound: v.boolean(),
  /** Reset for a retake (seed: flag_retake). */
  flag_retake: v.boolean(),
  receipt: v.nullable(RosterReceiptSchema),
});
export type RosterPupil = v.InferOutput<typeof RosterPupilSchema>;

/**
 * The roster in full (asked without `since`); sent with a strong ETag over everything but
 * server_time, the cursor and the `last_contact_at` of pupils `in_exam` (a 304 keeps the copy
 * held: read an in-exam pupil's last contact as "within OFFLINE_AFTER_MS of the last
 * confirmation").
 */
export const RosterResponseSchema = v.object({
  kind: v.literal('full'),
  schedule: AdminScheduleSchema,
  /** The room the roster is limited to (venue_id in the query), else null. */
  venue: v.nullable(VenueSchema),
  /** Every room the schedule's pupils sit in (a pupil's room is their classroom, else the schedule's venue), by name. */
  rooms: v.array(VenueSchema),
  /** The room's (or schedule's) pupils, by name. */
  pupils: v.array(RosterPupilSchema),
  /** Send it back as `since` for what changes after this answer. */
  cursor: RosterCursorSchema,
  /**
   * The server's upload window (UPLOAD_WINDOW_HOURS), ms: a sitting whose deadline_at plus this is
   * past (contract/exam.ts `isPastUploadWindow`, on the server's clock) can no longer be extended,
   * and the page does not offer it.
   */
  upload_window_ms: v.pipe(v.number(), v.minValue(0)),
  ...serverTime,
});
export type RosterResponse = v.InferOutput<typeof RosterResponseSchema>;

/**
 * The roster's changes (asked with `since`): the rows of the room (or schedule) that changed after
 * the cursor, and those whose state the time alone moved since then (went offline, ran out of
 * time, a login expired), each row whole; nothing of the others. An empty `pupils` says nothing
 * changed. Rows are never removed (a sitting stays on its schedule). Merge it into the roster held
 * (machines/proctor/proctor.rules.ts `mergeRoster`) and send `cursor` next time.
 */
export const RosterChangesSchema = v.object({
  kind: v.literal('changes'),
  /** The cursor these changes follow (the request's `since`). */
  since: RosterCursorSchema,
  ...v.pick(RosterResponseSchema, ['venue', 'pupils', 'cursor', 'upload_window_ms']).entries,
  ...serverTime,
});
export type RosterChanges = v.InferOutput<typeof RosterChangesSchema>;

/** What GET /admin/schedules/:code/roster answers with 200: the roster in full, or its changes. */
export const RosterAnswerSchema = v.variant('kind', [RosterResponseSchema, RosterChangesSchema]);
export type RosterAnswer = v.InferOutput<typeof RosterAnswerSchema>;

// ---------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------

/** Why: required on every action, kept in the audit trail. */
const ReasonSchema = v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(500, 'invalid'));
const MinutesSchema = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(60));
/**
 * A UUID the page makes once per confirmed action and sends again with "Try again": an action
 * whose answer was lost on the way back (it is not known whether it was done) is done at most
 * once. The server keeps it in the action's audit entry; a second request with the same key from
 * the same proctor for the same sitting (or schedule) changes nothing and answers as the first did
 * (the pupil's current row). Optional: without one every request acts.
 */
const IdempotencyKeySchema = v.optional(v.pipe(v.string(), v.uuid('invalid')));

/**
 * POST /admin/sittings/:id/move-terminal: releases the device binding and revokes the pupil's
 * tokens (the old terminal's next call: 403 INCORRECT_DEVICE); answers and deadline stay. The
 * pupil logs in on the new terminal and Start resumes the same sitting.
 * POST /admin/sittings/:id/retake: the reset (answers archived, back to PENDING with
 * flag_retake; the old terminal's next call: 401 ER_SCHEDULE_HISTORY_RETAKE).
 */
export const SittingActionRequestSchema = v.object({ reason: ReasonSchema, idempotency_key: IdempotencyKeySchema });
export type SittingActionRequest = v.InferInput<typeof SittingActionRequestSchema>;

export const SittingActionResponseSchema = v.object({ pupil: RosterPupilSchema, ...serverTime });
export type SittingActionResponse = v.InferOutput<typeof SittingActionResponseSchema>;

/**
 * POST /admin/sittings/:id/extend: gives one DOING sitting `minutes` more, from the later of its
 * deadline and now (a pupil whose time ran out a moment ago gets the whole minutes from now).
 */
export const ExtendSittingRequestSchema = v.object({ minutes: MinutesSchema, reason: ReasonSchema, idempotency_key: IdempotencyKeySchema });
export type ExtendSittingRequest = v.InferInput<typeof ExtendSittingRequestSchema>;

export const ExtendSittingResponseSchema = v.object({
  pupil: RosterPupilSchema,
  /** The new deadline. */
  deadline_at: isoTimestamp,
  ...serverTime,
});
export type ExtendSittingResponse = v.InferOutput<typeof ExtendSittingResponseSchema>;

/**
 * POST /admin/schedules/:code/extend: every DOING sitting of the schedule (or of one room of it),
 * each from the later of its deadline and now; a sitting past its upload window is left out.
 */
export const ExtendScheduleRequestSchema = v.object({
  minutes: MinutesSchema,
  reason: ReasonSchema,
  venue_id: v.optional(id),
  idempotency_key: IdempotencyKeySchema,
});
export type ExtendScheduleRequest = v.InferInput<typeof ExtendScheduleRequestSchema>;

export const ExtendScheduleResponseSchema = v.object({
  /** How many sittings were extended (0 when none was in the exam). */
  extended: v.number(),
  ...serverTime,
});
export type ExtendScheduleResponse = v.InferOutput<typeof ExtendScheduleResponseSchema>;

// ---------------------------------------------------------------------------
// Audit trail
// ---------------------------------------------------------------------------

export const auditActions = [
  'move_terminal',
  'retake',
  'extend',
  'extend_room',
  'outage_credit',
  'maintenance_credit',
  'staff_create',
  'staff_update',
  'import',
  'code_reissue',
  'slips_print',
  'results_export',
] as const;
export const AuditActionSchema = v.picklist(auditActions);
export type AuditAction = (typeof auditActions)[number];

/** GET /admin/audit?schedule=:code */
export const AuditQuerySchema = v.object({ schedule: CodeSchema });

/** What an action did; each action fills the fields that apply to it. */
export const AuditDetailSchema = v.object({
  /** extend, extend_room, outage_credit, maintenance_credit: the time given (an extension after the deadline runs from then). */
  seconds: v.optional(v.number()),
  /** extend, outage_credit, maintenance_credit: the deadline before and after. */
  previous_deadline_at: v.optional(isoTimestamp),
  deadline_at: v.optional(isoTimestamp),
  /** extend_room: how many sittings, and the room when limited to one. */
  sittings: v.optional(v.number()),
  venue_id: v.optional(v.nullable(v.number())),
  /** retake: answers archived, the status before the reset. */
  archived_answers: v.optional(v.number()),
  previous_status: v.optional(ScheduleHistoryStatusSchema),
  /** move_terminal, retake: tokens revoked. */
  revoked_tokens: v.optional(v.number()),
  /** outage_credit, maintenance_credit: the interval that blocked the sitting. */
  from: v.optional(isoTimestamp),
  to: v.optional(isoTimestamp),
});
export type AuditDetail = v.InferOutput<typeof AuditDetailSchema>;

/**
 * Who did it and when, in either audit: a staff member, or the system (the server itself, e.g.
 * automatic time credits; the command line), and the staff member's name (null for the system).
 */
const auditActor = {
  id: v.number(),
  at: isoTimestamp,
  actor: v.picklist(['staff', 'system']),
  staff_name: v.nullable(v.string()),
};

export const AuditEntrySchema = v.object({
  ...auditActor,
  action: AuditActionSchema,
  examinee_name: v.nullable(v.string()),
  schedule_history_id: v.nullable(v.number()),
  detail: AuditDetailSchema,
  /** The proctor's reason; for automatic credits the server's explanation. */
  reason: v.string(),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;

/** Newest first (at most AUDIT_LIMIT entries). */
export const AuditResponseSchema = v.object({ entries: v.array(AuditEntrySchema), ...serverTime });
export type AuditResponse = v.InferOutput<typeof AuditResponseSchema>;

/** The most audit entries one GET returns. */
export const AUDIT_LIMIT = 500;

// ---------------------------------------------------------------------------
// Staff: administrators manage the deployment's staff accounts
// ---------------------------------------------------------------------------

/** A staff password's length rule (the console, the API and `npm run admin -- create-staff`). */
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const STAFF_PASSWORD_MAX_LENGTH = 128;
export const StaffPasswordSchema = v.pipe(
  v.string(),
  v.nonEmpty('required'),
  v.minLength(STAFF_PASSWORD_MIN_LENGTH, 'invalid'),
  v.maxLength(STAFF_PASSWORD_MAX_LENGTH, 'invalid'),
);

/** A new staff member's login id: letters, digits and . _ @ - (at most 64). */
export const StaffLoginIdSchema = v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.regex(/^[A-Za-z0-9._@-]{1,64}$/, 'invalid'));
const StaffNameSchema = v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(200, 'invalid'));

/** One staff account as an administrator sees it (never its password). */
export const StaffMemberSchema = v.object({
  id: v.number(),
  login_id: v.string(),
  name: v.string(),
  role: StaffRoleSchema,
  /** The proctor's organisation; null for an administrator. */
  org_code: v.nullable(v.string()),
  disabled: v.boolean(),
});
export type StaffMember = v.InferOutput<typeof StaffMemberSchema>;

/** GET /admin/staff (administrators only): every staff account, administrators first, then by organisation and login id. */
export const StaffListResponseSchema = v.object({ staff: v.array(StaffMemberSchema), ...serverTime });
export type StaffListResponse = v.InferOutput<typeof StaffListResponseSchema>;

/**
 * POST /admin/staff (administrators only) -> 201 StaffMemberResponse. A proctor needs org_code (an
 * existing organisation: else 404 NOT_FOUND); an administrator takes none (422 VALIDATION_ERROR if
 * given). A login id taken in the same place (the organisation, or among administrators) is 422
 * ER_DUP_ENTRY.
 */
export const CreateStaffRequestSchema = v.pipe(
  v.object({
    login_id: StaffLoginIdSchema,
    name: StaffNameSchema,
    role: StaffRoleSchema,
    org_code: v.optional(v.nullable(CodeSchema)),
    password: StaffPasswordSchema,
  }),
  v.forward(
    v.check((body) => (body.role === 'admin') === (body.org_code === undefined || body.org_code === null), 'invalid'),
    ['org_code'],
  ),
);
export type CreateStaffRequest = v.InferInput<typeof CreateStaffRequestSchema>;

/**
 * PATCH /admin/staff/:id (administrators only): only the fields given change. A role of proctor
 * needs an organisation (given here, or the one the account has); administrator drops it (an
 * org_code with role admin is 422 VALIDATION_ERROR). `disabled: true` and a new `password` revoke
 * every token of that member. Unknown id: 404 NOT_FOUND. An administrator cannot disable or demote
 * the account they are signed in with (422 VALIDATION_ERROR), so a deployment keeps one.
 */
export const UpdateStaffRequestSchema = v.pipe(
  v.object({
    name: v.optional(StaffNameSchema),
    role: v.optional(StaffRoleSchema),
    org_code: v.optional(v.nullable(CodeSchema)),
    disabled: v.optional(v.boolean()),
    password: v.optional(StaffPasswordSchema),
  }),
  v.forward(
    v.check((body) => !(body.role === 'admin' && typeof body.org_code === 'string'), 'invalid'),
    ['org_code'],
  ),
);
export type UpdateStaffRequest = v.InferInput<typeof UpdateStaffRequestSchema>;

/** Path parameter `:id` of PATCH /admin/staff/:id. */
export const StaffIdParamSchema = v.object({ id: NumericParam });

export const StaffMemberResponseSchema = v.object({ staff: StaffMemberSchema, ...serverTime });
export type StaffMemberResponse = v.InferOutput<typeof StaffMemberResponseSchema>;

/**
 * One deployment-wide audit entry (staff, imports, login codes: no test period): who, when, what,
 * the record (`entity`, "<kind>:<natural key>", e.g. "staff:jane") before and after (null:
 * created). Passwords and their hashes are never in them.
 */
export const DeploymentAuditEntrySchema = v.object({
  ...auditActor,
  staff_login_id: v.nullable(v.string()),
  action: AuditActionSchema,
  entity: v.nullable(v.string()),
  before: v.nullable(v.record(v.string(), v.unknown())),
  after: v.nullable(v.record(v.string(), v.unknown())),
  /** What else the action says (e.g. password_reset, revoked_tokens). */
  detail: v.record(v.string(), v.unknown()),
  reason: v.string(),
});
export type DeploymentAuditEntry = v.InferOutput<typeof DeploymentAuditEntrySchema>;

/** GET /admin/audit/deployment (administrators only): newest first, at most AUDIT_LIMIT. */
export const DeploymentAuditResponseSchema = v.object({ entries: v.array(DeploymentAuditEntrySchema), ...serverTime });
export type DeploymentAuditResponse = v.InferOutput<typeof DeploymentAuditResponseSchema>;
