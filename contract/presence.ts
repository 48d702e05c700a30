/**
 * The wire contract of a pupil terminal's presence: POST /api/exam/heartbeat.
 *
 * The exam client sends it every PRESENCE_INTERVAL_MS while answering, and at once on
 * visibilitychange, focus and online. The server records "last contact" and the question on
 * screen (one UPDATE of the sitting), which the proctor roster reads (contract/admin.ts), and
 * answers with the CURRENT deadline: extensions by a proctor and automatic outage or
 * maintenance credits move it, and this is how a terminal learns of them.
 *
 * Sent like every other exam call: `Authorization: Bearer <pupil token>` and `X-Device-Token`.
 * Refusals are those of the other exam calls, with the same codes and statuses:
 * 401 NOT_LOGGED_IN, 401 ER_SCHEDULE_HISTORY_RETAKE (reset by a proctor), 401
 * DURING_MAINTENANCE, 403 INCORRECT_DEVICE (another terminal holds the sitting, or a proctor
 * moved the pupil to another terminal: this token was revoked), 403 TIME_END (past the
 * deadline: the client finishes), 403 EXAM_NOT_STARTED (PENDING), 403
 * ER_SCHEDULE_HISTORY_COMPLETED / ER_SCHEDULE_HISTORY_CANCELLED / EXPIRED, 404 NOT_FOUND,
 * 422 VALIDATION_ERROR.
 *
 * Decisions (beyond exam-day-contract.md):
 * - `question_index` is capped at 999 (an exam has 20 questions; the cap only keeps garbage out).
 * - `visible` is recorded for the roster's "last contact" only; a hidden tab is still present.
 * - Past the deadline the heartbeat answers 403 TIME_END (even within the upload window, where
 *   answers given before the deadline are still accepted): a heartbeat is not an answer, and
 *   the refusal tells a terminal that slept through the deadline to finish now.
 *
 * Imports only valibot (the contract sits below server/, machines/ and src/).
 */
import * as v from 'valibot';

/** How often a terminal that is answering reports its presence. */
export const PRESENCE_INTERVAL_MS = 10_000;

/** A DOING sitting whose terminal has not been heard from for longer than this is shown offline. */
export const OFFLINE_AFTER_MS = 30_000;

const isoTimestamp = v.pipe(v.string(), v.isoTimestamp());

/** Schedule history status (seed section 4), re-declared here so this file imports only valibot. */
const ScheduleHistoryStatusSchema = v.picklist([0, 1, 2, 3, 4, 5, 6, 7, 8]);

/** POST /exam/heartbeat */
export const HeartbeatRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** The 0-based index of the question on screen. */
  question_index: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(999)),
  /** document.visibilityState === 'visible' */
  visible: v.boolean(),
  /**
   * Answers this terminal holds that the server has not acknowledged yet (its outbox), for the
   * roster (contract/admin.ts `waiting_answers`). Absent: not told (counted as none).
   */
  waiting_answers: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(999))),
});
export type HeartbeatRequest = v.InferInput<typeof HeartbeatRequestSchema>;

export const HeartbeatResponseSchema = v.object({
  /** The sitting's status (DOING while the exam runs). */
  status: ScheduleHistoryStatusSchema,
  /** The current deadline: extensions and automatic time credits move it. */
  deadline_at: isoTimestamp,
  server_time: isoTimestamp,
});
export type HeartbeatResponse = v.InferOutput<typeof HeartbeatResponseSchema>;
