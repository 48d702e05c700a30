/**
 * Snapshot of the proctor machine to what the proctor page shows, without callbacks (those are
 * proctor.connect.ts's): which part of the page is current, and each roster row as a teacher
 * reads it from across the room. Pure: the time is an argument (this terminal's clock, ms), and
 * every time shown is on the server's clock (the offset kept from the last answer).
 */
import type { SnapshotFrom } from 'xstate';
import type { RosterPupil, RosterState } from '../../contract/admin.ts';
import { OFFLINE_AFTER_MS } from '../../contract/presence.ts';
import { actionsFor, isInExam, serverNow, unavailableActions, uploadWindowOf, visiblePupils, type proctorMachine } from './proctor.machine.ts';
import type { PupilActionKind, UnavailableReason } from './proctor.types.ts';

export type ProctorSnapshot = SnapshotFrom<typeof proctorMachine>;

/** The part of the page that is shown. */
export type ProctorPhase = 'restoring' | 'restoreFailed' | 'signedOut' | 'schedules' | 'roster' | 'audit' | 'signingOut';

export function selectPhase(snapshot: ProctorSnapshot): ProctorPhase {
  if (snapshot.matches('restoring')) return 'restoring';
  if (snapshot.matches('restoreFailed')) return 'restoreFailed';
  if (snapshot.matches('signingOut')) return 'signingOut';
  if (snapshot.matches({ signedIn: 'schedules' })) return 'schedules';
  if (snapshot.matches({ signedIn: 'watching' })) return 'roster';
  if (snapshot.matches({ signedIn: 'audit' })) return 'audit';
  return 'signedOut';
}

/** One pupil on the roster, as the page shows it. */
export interface RosterRow {
  sittingId: number;
  name: string;
  /** The last 4 characters of the login code (tells two pupils of one name apart). */
  codeHint: string;
  room: string | null;
  examTitle: string;
  /**
   * The state shown: the server's, except that a pupil in the exam neither heard from nor
   * confirmed in the exam by a roster answer for more than OFFLINE_AFTER_MS by the server's clock
   * (the polls are failing) shows offline: the page cannot vouch for them any more.
   */
  state: RosterState;
  /** Shown as a warning (with an icon and words, not colour alone): offline, or time up. */
  attention: boolean;
  /** The question on screen, 1-based; null before the first heartbeat. */
  questionNumber: number | null;
  questionCount: number;
  answersSaved: number;
  /** Whole seconds since the terminal was last heard from, as of the last roster body; null if never. */
  lastContactSeconds: number | null;
  /**
   * The server says the pupil is in the exam, which means heard from within OFFLINE_AFTER_MS:
   * the page says that ("under 30 s ago") rather than `lastContactSeconds`, which a 304 does not
   * refresh (the roster's ETag leaves the heartbeat instants of pupils in the exam out).
   */
  recentContact: boolean;
  /** Whole seconds to the deadline (0 once past); null when the pupil has no running deadline. */
  timeLeftSeconds: number | null;
  /** Time added so far (extensions and automatic credits), whole minutes. */
  extraMinutes: number;
  /** The finish receipt: answers received. */
  receiptAnswers: number | null;
  /** Reset for a retake. */
  retake: boolean;
  /** The actions that apply to the pupil now. */
  actions: PupilActionKind[];
  /**
   * Those of `actions` that cannot succeed now, with why: shown disabled, with the reason (an
   * extension past the sitting's upload window, which the server refuses TIME_END).
   */
  unavailable: Partial<Record<PupilActionKind, UnavailableReason>>;
}

// The server's clock now, from this terminal's clock and the kept offset (the machine's guards use it too).
export { serverNow };

/**
 * One row at `serverClock`; `confirmedAt` is when (server's clock) a roster answer, 200 or 304,
 * last said this pupil's state: `in_exam` then meant heard from within OFFLINE_AFTER_MS, so the
 * pupil is shown offline only once neither their last contact nor that confirmation is that recent.
 * `uploadWindowMs`: the roster's `upload_window_ms` (none given: no sitting is past it).
 */
export function rowOf(
  pupil: RosterPupil,
  serverClock: number,
  confirmedAt: number = serverClock,
  uploadWindowMs: number = Number.POSITIVE_INFINITY,
): RosterRow {
  const lastContactAt = pupil.last_contact_at === null ? null : Date.parse(pupil.last_contact_at);
  const lastContact = lastContactAt === null ? null : Math.max(0, serverClock - lastContactAt);
  const vouchedAt = Math.max(lastContactAt ?? -Infinity, confirmedAt);
  const silent = pupil.state === 'in_exam' && serverClock - vouchedAt > OFFLINE_AFTER_MS;
  const state: RosterState = silent ? 'offline' : pupil.state;
  const running = isInExam(pupil) && pupil.deadline_at !== null;
  return {
    sittingId: pupil.schedule_history_id,
    name: pupil.examinee_name,
    codeHint: pupil.login_code_hint,
    room: pupil.venue?.name ?? null,
    examTitle: pupil.exam_title,
    state,
    attention: state === 'offline' || state === 'time_up',
    questionNumber: pupil.question_index === null ? null : pupil.question_index + 1,
    questionCount: pupil.question_count,
    answersSaved: pupil.answers_saved,
    lastContactSeconds: lastContact === null ? null : Math.floor(lastContact / 1000),
    recentContact: state === 'in_exam',
    timeLeftSeconds: running ? Math.max(0, Math.ceil((Date.parse(pupil.deadline_at!) - serverClock) / 1000)) : null,
    extraMinutes: Math.round(pupil.extra_seconds / 60),
    receiptAnswers: pupil.receipt?.answer_count ?? null,
    retake: pupil.flag_retake,
    actions: actionsFor(pupil),
    unavailable: unavailableActions(pupil, serverClock, uploadWindowMs),
  };
}

/** The rows of the room the filter shows, in the server's order. */
export function selectRows(snapshot: ProctorSnapshot, now: number): RosterRow[] {
  const { context } = snapshot;
  const clock = serverNow(context, now);
  const confirmedAt = context.updatedAt === null ? clock : serverNow(context, context.updatedAt);
  const uploadWindowMs = uploadWindowOf(context);
  return visiblePupils(context).map((pupil) => rowOf(pupil, clock, confirmedAt, uploadWindowMs));
}

/** How many pupils of the rows are in each group the summary line counts. */
export function countsOf(rows: readonly RosterRow[]): { total: number; inExam: number; offline: number; finished: number } {
  return {
    total: rows.length,
    inExam: rows.filter((r) => r.state === 'in_exam' || r.state === 'offline' || r.state === 'moving' || r.state === 'time_up').length,
    offline: rows.filter((r) => r.state === 'offline').length,
    finished: rows.filter((r) => r.state === 'finished').length,
  };
}
