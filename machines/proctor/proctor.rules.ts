/**
 * The proctor machine's pure rules (no actor, no clock of their own: the time is an argument):
 * which actions apply to a pupil and which of them can succeed at a time on the server's clock,
 * which pupils and rooms the roster's filter shows, who needs the proctor's attention and in what
 * order the roster lists them, what the state filter and the search keep, and the checks of the staff login form and of
 * an action's confirm step, each with the contract's schemas (contract/admin.ts), so the page
 * asks the server only what it would accept. proctor.machine.ts guards and assigns with them.
 */
import * as v from 'valibot';
import { isPastUploadWindow } from '../../contract/exam.ts';
import { OFFLINE_AFTER_MS } from '../../contract/presence.ts';
import {
  ExtendScheduleRequestSchema,
  ExtendSittingRequestSchema,
  SittingActionRequestSchema,
  StaffLoginRequestSchema,
  type RosterChanges,
  type RosterPupil,
  type RosterResponse,
  type RosterState,
  type StaffLoginRequest,
} from '../../contract/admin.ts';
import type {
  ActionDraft,
  ActionFieldErrors,
  ActionRequest,
  FieldRule,
  AttentionReason,
  ProctorContext,
  PupilActionKind,
  RosterFilter,
  StaffLoginField,
  UnavailableReason,
} from './proctor.types.ts';

/** Roster states of a sitting that is in the exam (DOING). */
const doingStates: ReadonlySet<RosterPupil['state']> = new Set(['in_exam', 'offline', 'moving', 'time_up']);

/** RESULT_PUBLIC: a released result cannot be reset for a retake. */
const RESULT_PUBLIC = 5;

export function isInExam(pupil: RosterPupil): boolean {
  return doingStates.has(pupil.state);
}

/**
 * The actions that apply to a pupil, in the order the roster offers them (the server refuses the
 * others with the contract's codes anyway):
 * - move to another terminal: while in the exam on a terminal (in_exam, offline);
 * - extend: while the sitting is in the exam (DOING); past its upload window it is shown but
 *   unavailable (`unavailableActions`);
 * - retake: in the exam, or finished and not yet released.
 */
export function actionsFor(pupil: RosterPupil): PupilActionKind[] {
  const actions: PupilActionKind[] = [];
  if (pupil.state === 'in_exam' || pupil.state === 'offline') actions.push('move_terminal');
  if (isInExam(pupil)) actions.push('extend');
  if (isInExam(pupil) || (pupil.state === 'finished' && pupil.status !== RESULT_PUBLIC)) actions.push('retake');
  return actions;
}

/**
 * The actions of `actionsFor` that cannot succeed at `serverClock` (ms, the server's clock), with
 * why: an extension of a sitting past its deadline and upload window (contract/exam.ts
 * `isPastUploadWindow`, the rule the server refuses it with, TIME_END). The roster still shows the
 * action, disabled, with the reason; it becomes unavailable on the tick it passes the window.
 */
export function unavailableActions(
  pupil: RosterPupil,
  serverClock: number,
  uploadWindowMs: number,
): Partial<Record<PupilActionKind, UnavailableReason>> {
  const pastWindow = pupil.deadline_at !== null && isPastUploadWindow(new Date(pupil.deadline_at), new Date(serverClock), uploadWindowMs);
  return pastWindow && actionsFor(pupil).includes('extend') ? { extend: 'upload_window_closed' } : {};
}

/** The roster's pupils in the room chosen (every room: all of them); the roster held may still be another room's while the chosen one loads. */
export function visiblePupils(context: Pick<ProctorContext, 'roster' | 'venueId'>): RosterPupil[] {
  const pupils = context.roster?.pupils ?? [];
  return context.venueId === null ? pupils : pupils.filter((p) => p.venue?.id === context.venueId);
}

/** The server's clock (ms) at this terminal's time `now` (ms), from the offset kept from the last answer. */
export function serverNow(context: Pick<ProctorContext, 'clockOffsetMs'>, now: number): number {
  return now + context.clockOffsetMs;
}

/**
 * The state the page shows for a pupil at `serverClock`: the server's, except that a pupil
 * `in_exam` is shown `offline` once neither their last contact nor `confirmedAt` (when, on the
 * server's clock, a roster answer, 200 or 304, last said that state) is within OFFLINE_AFTER_MS:
 * with the polls failing the page cannot vouch for them. The row and the move dialog both read it.
 */
export function shownState(pupil: Pick<RosterPupil, 'state' | 'last_contact_at'>, serverClock: number, confirmedAt: number = serverClock): RosterState {
  const lastContactAt = pupil.last_contact_at === null ? -Infinity : Date.parse(pupil.last_contact_at);
  const silent = pupil.state === 'in_exam' && serverClock - Math.max(lastContactAt, confirmedAt) > OFFLINE_AFTER_MS;
  return silent ? 'offline' : pupil.state;
}

/** When, on the server's clock, a roster answer last confirmed the roster held (null: none yet). */
export function confirmedAtOf(context: Pick<ProctorContext, 'clockOffsetMs' | 'updatedAt'>): number | null {
  return context.updatedAt === null ? null : serverNow(context, context.updatedAt);
}

/** The roster's upload window (none yet: no sitting is past it). */
export function uploadWindowOf(context: Pick<ProctorContext, 'roster'>): number {
  return context.roster?.upload_window_ms ?? Number.POSITIVE_INFINITY;
}

/**
 * Whether `kind` can be asked for this pupil at `serverClock` (ms, the server's clock): it applies
 * (`actionsFor`) and is not unavailable then (`unavailableActions`: no extension past the
 * sitting's upload window). The machine's guard and the roster's buttons say the same.
 */
export function canAskAction(
  context: Pick<ProctorContext, 'roster'>,
  pupil: RosterPupil,
  kind: PupilActionKind,
  serverClock: number,
): boolean {
  return actionsFor(pupil).includes(kind) && unavailableActions(pupil, serverClock, uploadWindowOf(context))[kind] === undefined;
}

/**
 * The pupils the room-wide extension reaches at `serverClock` (ms, the server's clock): those of
 * the room shown who can be extended, as server/domain/proctor.ts `extendSchedule` picks them
 * (in the exam, and not past the upload window: the server leaves those out).
 */
export function pupilsToExtend(context: Pick<ProctorContext, 'roster' | 'venueId'>, serverClock: number): RosterPupil[] {
  return visiblePupils(context).filter((pupil) => canAskAction(context, pupil, 'extend', serverClock));
}

/** The rooms of the schedule, by name (as the roster's last full answer listed them). */
export function roomsOf(roster: RosterResponse | null): Array<{ id: number; name: string }> {
  return roster?.rooms ?? [];
}

/**
 * The roster held with the changes since its cursor merged in: each changed row replaces the row of
 * the same sitting where it stands (so the order, and the attention order built on it, moves only
 * when a row's reason does), a sitting not held yet comes after the others, and the cursor and the
 * server's time are the changes'. No change keeps the very rows held (the same array). Null when
 * they cannot be merged (no roster held, or the changes are of another room): ask in full.
 */
export function mergeRoster(held: RosterResponse | null, changes: RosterChanges): RosterResponse | null {
  if (held === null || (held.venue?.id ?? null) !== (changes.venue?.id ?? null)) return null;
  const stamp = { cursor: changes.cursor, server_time: changes.server_time, upload_window_ms: changes.upload_window_ms };
  if (changes.pupils.length === 0) return { ...held, ...stamp };
  const changed = new Map(changes.pupils.map((pupil) => [pupil.schedule_history_id, pupil]));
  const pupils = held.pupils.map((pupil) => {
    const row = changed.get(pupil.schedule_history_id);
    if (row === undefined) return pupil;
    changed.delete(pupil.schedule_history_id);
    return row;
  });
  return { ...held, ...stamp, pupils: changed.size === 0 ? pupils : [...pupils, ...changed.values()] };
}

/**
 * Any script's decimal digits as ASCII ones: a teacher may type the minutes with an Arabic,
 * Devanagari or Myanmar keyboard, or a Japanese input method's full-width digits. Unicode keeps
 * each script's digits 0 to 9 in a row, so a digit's value is its distance from the start of its
 * row (rows of ten that touch, as the mathematical digits, repeat every ten).
 */
export function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0)!;
    let start = code;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start -= 1;
    return String((code - start) % 10);
  });
}

/** Minutes as typed in the confirm step: whole minutes from 1 to 60. */
const MinutesFieldSchema = v.pipe(
  v.string(),
  v.transform(asciiDigits),
  v.trim(),
  v.nonEmpty('required'),
  v.regex(/^[0-9]{1,2}$/, 'invalid'),
  v.transform(Number),
  v.minValue(1, 'invalid'),
  v.maxValue(60, 'invalid'),
);

function ruleOf(message: string): FieldRule {
  return message === 'required' ? 'required' : 'invalid';
}

/** The staff login form's values checked with the contract's schema; field rules when they fail. */
export function checkStaffLogin(
  values: Record<StaffLoginField, string>,
): { ok: true; request: StaffLoginRequest } | { ok: false; fields: Partial<Record<StaffLoginField, FieldRule>> } {
  // The organisation code may be empty: an administrator belongs to no organisation.
  const parsed = v.safeParse(StaffLoginRequestSchema, values);
  if (parsed.success) return { ok: true, request: parsed.output };
  const fields: Partial<Record<StaffLoginField, FieldRule>> = {};
  for (const issue of parsed.issues) {
    const key = issue.path?.[0]?.key as StaffLoginField | undefined;
    if (key && !fields[key]) fields[key] = ruleOf(issue.message);
  }
  return { ok: false, fields };
}

/** The confirm step's reason and minutes checked with the contract's request schemas. */
export function checkConfirmation(
  draft: ActionDraft,
  input: { reason: string; minutes?: string },
): { ok: true; request: ActionRequest } | { ok: false; fields: ActionFieldErrors } {
  const fields: ActionFieldErrors = {};
  const extension = draft.kind === 'extend' || draft.kind === 'extend_room';
  let minutes: number | null = null;
  if (extension) {
    const parsed = v.safeParse(MinutesFieldSchema, input.minutes ?? '');
    if (parsed.success) minutes = parsed.output;
    else fields.minutes = ruleOf(parsed.issues[0].message);
  }
  const schema = extension ? ExtendSittingRequestSchema : SittingActionRequestSchema;
  const body = v.safeParse(schema, { reason: input.reason, minutes: minutes ?? 1 });
  if (!body.success) {
    const issue = body.issues.find((i) => i.path?.[0]?.key === 'reason');
    if (issue) fields.reason = ruleOf(issue.message);
  }
  if (fields.reason || fields.minutes || !body.success) return { ok: false, fields };
  if (draft.kind === 'extend_room') {
    // The room-wide body is checked as it is sent (venue_id only when a room is chosen).
    const room = v.safeParse(ExtendScheduleRequestSchema, {
      minutes,
      reason: body.output.reason,
      ...(draft.venueId === null ? {} : { venue_id: draft.venueId }),
    });
    if (!room.success) return { ok: false, fields: { reason: 'invalid' } };
  }
  return { ok: true, request: { ...draft, reason: body.output.reason, minutes } };
}

// ---------------------------------------------------------------------------
// Who needs attention, in what order, and what the state filter and the search keep
// ---------------------------------------------------------------------------

/** What the attention rules read of a row (proctor.selectors.ts `RosterRow`). */
export interface RowFacts {
  state: RosterState;
  /** Answers the pupil's terminal said, at its last heartbeat, it holds and the server does not yet. */
  waitingAnswers: number;
  /** Seconds since the pupil's login was refused at another terminal (null: none since the last move). */
  refusedElsewhereSeconds: number | null;
  name: string;
  codeHint: string;
}

/** What the attention rules read of the whole room shown. */
export interface RoomFacts {
  /** More than half of the room's pupils who can still sit have started (or finished). */
  mostStarted: boolean;
}

/**
 * How long a login refused at another terminal asks for the proctor: the pupil standing at a
 * second terminal is helped (moved) or sent back within minutes; an older refusal is history.
 */
export const REFUSED_ELSEWHERE_ATTENTION_MS = 5 * 60_000;

const notStartedStates: ReadonlySet<RosterState> = new Set(['not_logged_in', 'logged_in']);
const startedStates: ReadonlySet<RosterState> = new Set(['in_exam', 'offline', 'moving', 'time_up', 'finished']);

/**
 * Why a pupil needs the proctor, most urgent first; the roster lists them first, in this order.
 * Each rule is one line: a new reason is a new line here and its words in the roster.
 */
const attentionRules: ReadonlyArray<readonly [AttentionReason, (row: RowFacts, room: RoomFacts) => boolean]> = [
  ['refused_elsewhere', (row) => row.refusedElsewhereSeconds !== null && row.refusedElsewhereSeconds * 1000 <= REFUSED_ELSEWHERE_ATTENTION_MS],
  ['offline', (row) => row.state === 'offline'],
  ['answers_waiting', (row) => row.waitingAnswers > 0],
  ['time_up', (row) => row.state === 'time_up'],
  ['not_started', (row, room) => notStartedStates.has(row.state) && room.mostStarted],
];

/** The room as the attention rules see it: whether most of those who can still sit have started. */
export function roomFactsOf(rows: readonly RowFacts[]): RoomFacts {
  const started = rows.filter((r) => startedStates.has(r.state)).length;
  const waiting = rows.filter((r) => notStartedStates.has(r.state)).length;
  return { mostStarted: started > waiting };
}

/** The first reason (in `attentionRules` order) this pupil needs the proctor for; null: none. */
export function attentionOf(row: RowFacts, room: RoomFacts): AttentionReason | null {
  return attentionRules.find(([, applies]) => applies(row, room))?.[0] ?? null;
}

const attentionRank = new Map(attentionRules.map(([reason], index) => [reason, index]));

/**
 * The roster's order: the pupils who need attention first (the most urgent reason first), then
 * everyone else, each group in the order given (the server's: by name). Stable, so a row moves
 * only when its reason changes.
 */
export function attentionFirst<T extends { attention: AttentionReason | null }>(rows: readonly T[]): T[] {
  const rank = (row: T) => (row.attention === null ? attentionRules.length : attentionRank.get(row.attention)!);
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank(a.row) - rank(b.row) || a.index - b.index)
    .map(({ row }) => row);
}

/** The state filter's groups, in the order the page offers them. */
export const rosterFilters = ['all', 'attention', 'not_started', 'in_exam', 'finished', 'ended'] as const satisfies readonly RosterFilter[];

/** Whether a row with this state and attention is in the filter's group. */
export function inFilter(row: { state: RosterState; attention: AttentionReason | null }, filter: RosterFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'attention':
      return row.attention !== null;
    case 'not_started':
      return notStartedStates.has(row.state);
    case 'in_exam':
      return doingStates.has(row.state);
    case 'finished':
      return row.state === 'finished';
    case 'ended':
      return row.state === 'cancelled' || row.state === 'expired';
  }
}

/** How many rows each filter keeps. */
export function filterCounts(rows: ReadonlyArray<{ state: RosterState; attention: AttentionReason | null }>): Record<RosterFilter, number> {
  return Object.fromEntries(rosterFilters.map((filter) => [filter, rows.filter((row) => inFilter(row, filter)).length])) as Record<
    RosterFilter,
    number
  >;
}

/** The longest search the roster keeps (a name or a login code is far shorter). */
export const SEARCH_MAX_LENGTH = 100;

/** Lower case, without accents, any script's digits as ASCII ("Lucía" and "lucia" are one). */
function folded(text: string): string {
  return asciiDigits(text).normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Whether a row matches what the proctor typed: every word is part of the pupil's name (in any
 * order, case and accents ignored), or the text is the login code or its end. The roster holds
 * only the code's last 4 characters (never the code): a whole code typed from a slip matches the
 * pupil whose code ends so; fewer characters match a code hint that holds them. Spaces and dashes
 * in a code are ignored. Nothing typed: every row.
 */
export function matchesSearch(row: Pick<RowFacts, 'name' | 'codeHint'>, search: string): boolean {
  const words = folded(search).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const name = folded(row.name);
  if (words.every((word) => name.includes(word))) return true;
  const code = folded(search).replace(/[\s\-‐‑–—]/g, '').toUpperCase();
  const hint = folded(row.codeHint).toUpperCase();
  if (code === '' || hint === '') return false;
  return code.length <= hint.length ? hint.includes(code) : code.endsWith(hint);
}
