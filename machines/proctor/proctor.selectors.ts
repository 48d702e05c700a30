/**
 * Snapshot of the proctor machine to what the proctor page shows, without callbacks (those are
 * proctor.connect.ts's): which part of the page is current, and each roster row as a teacher
 * reads it from across the room. Pure: the time is an argument (this terminal's clock, ms), and
 * every time shown is on the server's clock (the offset kept from the last answer).
 */
import type { SnapshotFrom } from 'xstate';
import type { RosterPupil, RosterState } from '../../contract/admin.ts';
import {
  actionsFor,
  attentionFirst,
  attentionOf,
  confirmedAtOf,
  filterCounts,
  inFilter,
  isInExam,
  matchesSearch,
  roomFactsOf,
  serverNow,
  shownState,
  unavailableActions,
  uploadWindowOf,
  visiblePupils,
  type proctorMachine,
} from './proctor.machine.ts';
import type { AttentionReason, PupilActionKind, RosterFilter, UnavailableReason } from './proctor.types.ts';

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
  /**
   * Why the pupil needs the proctor (proctor.rules.ts `attentionOf`), shown as a warning with an
   * icon and words, not colour alone; null: nothing to do. Such rows come first.
   */
  attention: AttentionReason | null;
  /** The question on screen, 1-based; null before the first heartbeat. */
  questionNumber: number | null;
  questionCount: number;
  answersSaved: number;
  /** Answers the terminal said, at its last heartbeat, it holds and the server does not yet (0 outside the exam). */
  waitingAnswers: number;
  /**
   * Whole seconds since the pupil's login was last refused because the exam runs on another
   * terminal (the pupil stands at a second one), as of the last roster body; null: none since the
   * last move.
   */
  refusedElsewhereSeconds: number | null;
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

/** A row before the room is known: the attention rules read the whole room. */
type RowOnItsOwn = Omit<RosterRow, 'attention'>;

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
): RowOnItsOwn {
  const lastContactAt = pupil.last_contact_at === null ? null : Date.parse(pupil.last_contact_at);
  const lastContact = lastContactAt === null ? null : Math.max(0, serverClock - lastContactAt);
  const state = shownState(pupil, serverClock, confirmedAt);
  const running = isInExam(pupil) && pupil.deadline_at !== null;
  return {
    sittingId: pupil.schedule_history_id,
    name: pupil.examinee_name,
    codeHint: pupil.login_code_hint,
    room: pupil.venue?.name ?? null,
    examTitle: pupil.exam_title,
    state,
    questionNumber: pupil.question_index === null ? null : pupil.question_index + 1,
    questionCount: pupil.question_count,
    answersSaved: pupil.answers_saved,
    waitingAnswers: pupil.waiting_answers,
    refusedElsewhereSeconds: secondsSince(pupil.refused_elsewhere_at, serverClock),
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

/** Whole seconds from an instant the server sent to `serverClock` (0 if it is ahead); null for none. */
function secondsSince(instant: string | null, serverClock: number): number | null {
  return instant === null ? null : Math.floor(Math.max(0, serverClock - Date.parse(instant)) / 1000);
}

/** The rows of a room, each with why it needs attention (the whole room decides "not started"). */
export function withAttention(rows: readonly RowOnItsOwn[]): RosterRow[] {
  const room = roomFactsOf(rows);
  return rows.map((row) => ({ ...row, attention: attentionOf(row, room) }));
}

/** What the roster shows: the room's rows, those who need attention first, then filtered and searched. */
export interface RosterView {
  /** The rows the state filter and the search keep, attention first. */
  rows: RosterRow[];
  /** How many of the room's rows each state filter keeps (the search aside). */
  counts: Record<RosterFilter, number>;
  /** The room's rows (the room filter's), before the state filter and the search. */
  total: number;
}

/** The roster of the room the filter shows at this terminal's time `now`. */
export function selectRoster(snapshot: ProctorSnapshot, now: number): RosterView {
  const { context } = snapshot;
  const clock = serverNow(context, now);
  const confirmedAt = confirmedAtOf(context) ?? clock;
  const uploadWindowMs = uploadWindowOf(context);
  const room = attentionFirst(withAttention(visiblePupils(context).map((pupil) => rowOf(pupil, clock, confirmedAt, uploadWindowMs))));
  return {
    rows: room.filter((row) => inFilter(row, context.rosterFilter) && matchesSearch(row, context.search)),
    counts: filterCounts(room),
    total: room.length,
  };
}

/** The rows the roster shows (selectRoster's). */
export function selectRows(snapshot: ProctorSnapshot, now: number): RosterRow[] {
  return selectRoster(snapshot, now).rows;
}
