/**
 * The proctor page's binding, in the chakra-ui/zag style: `connect(snapshot, send, now,
 * administration)` turns a snapshot of the proctor machine into exactly what the screens render
 * and the events they may send, and nothing else. Pure: no React, no DOM, no clock of its own
 * (`now` is this terminal's time in ms; the page's host passes it on every tick, and an action
 * asked for carries it, so the machine judges the action at the time the page showed it). For an
 * administrator the host passes the snapshot of the proctor's child `administration` too, and its
 * console's part is the administration connect's. Strings are the screens' (Lingui); this gives
 * them facts and codes.
 */
import type { AdminSchedule, AuditEntry, Staff } from '../../contract/admin.ts';
import { connect as connectAdministration, type AdministrationApi, type AdministrationSnapshot } from '../administration/administration.connect.ts';
import type { AdministrationEvent } from '../administration/administration.types.ts';
import type { FailureCode } from '../shared/ports.ts';
import { pupilsToExtend, roomsOf, rosterFilters, serverNow } from './proctor.machine.ts';
import { selectPhase, selectRoster, type ProctorPhase, type ProctorSnapshot, type RosterRow } from './proctor.selectors.ts';
import type {
  ActionFieldErrors,
  ActionKind,
  ActionOutcome,
  ProctorEvent,
  PupilActionKind,
  RosterFilter,
  StaffLoginError,
  StaffLoginValues,
  StaffNotice,
} from './proctor.types.ts';

export type { ProctorPhase, ProctorSnapshot, RosterRow } from './proctor.selectors.ts';

export interface ProctorApi {
  phase: ProctorPhase;
  /** A call the proctor waits for is under way (the progress bar). */
  busy: boolean;
  /** Who is signed in; null while signed out. */
  staff: Staff | null;
  /** "Sign out" (also "sign in as someone else" after a failed restore). */
  logout(): void;
  restore: {
    failure: FailureCode | null;
    retry(): void;
  };
  login: {
    /** The login call is under way. */
    busy: boolean;
    error: StaffLoginError | null;
    notice: StaffNotice | null;
    submit(values: StaffLoginValues): void;
  };
  schedules: {
    status: 'loading' | 'ready' | 'failed';
    items: AdminSchedule[];
    failure: FailureCode | null;
    choose(code: string): void;
    retry(): void;
  };
  roster: RosterApi;
  /** The confirm step of an action (a modal dialog); null when none is open. */
  dialog: ActionDialogApi | null;
  audit: {
    status: 'loading' | 'ready' | 'failed';
    /** Newest first. */
    entries: AuditEntry[];
    failure: FailureCode | null;
    scheduleName: string | null;
    close(): void;
    retry(): void;
  };
  /**
   * The administrator's console around exam day (the proctor's child `administration`, which
   * runs for an administrator only); null for a proctor.
   */
  administration: AdministrationApi | null;
}

/** The proctor's child `administration` as the page's host reads it: its snapshot and where its events go. */
export interface AdministrationChild {
  snapshot: AdministrationSnapshot;
  send(event: AdministrationEvent): void;
}

export interface RosterApi {
  /** loading: no roster yet; failed: none yet and the last try failed (it keeps trying). */
  status: 'loading' | 'ready' | 'failed';
  schedule: { code: string; name: string } | null;
  /** The rooms to filter by; empty when the pupils sit in no named room. */
  rooms: Array<{ id: number; name: string }>;
  venueId: number | null;
  chooseVenue(venueId: number | null): void;
  /** The rows the state filter and the search keep: those who need attention first, then by name. */
  rows: Array<RosterRow & { request(kind: PupilActionKind): void }>;
  /** The state filters, in order, each with how many of the room's pupils it keeps. */
  filters: Array<{ filter: RosterFilter; count: number; chosen: boolean }>;
  chooseFilter(filter: RosterFilter): void;
  /** The search as typed (a name or a login code). */
  search: string;
  setSearch(text: string): void;
  /** The room's pupils, before the state filter and the search. */
  total: number;
  /**
   * How many side-by-side columns the rows are laid out in on a wide screen, so a room of 60
   * fits on one screen: one column up to 20 rows, at most 3.
   */
  columns: number;
  connection: {
    /** The last poll failed: the rows are as of `updatedAt`. */
    lost: boolean;
    failure: FailureCode | null;
    /** When the rows were last confirmed current (this terminal's clock, ms); null before. */
    updatedAt: number | null;
    /** Ask now rather than at the next try. */
    retryNow(): void;
  };
  /**
   * The room-wide extension applies: someone in the rows shown is in the exam and can still be
   * extended (not past the upload window: the server leaves those out).
   */
  canExtendRoom: boolean;
  extendRoom(): void;
  /** What the last action did (the status line); null before any. */
  outcome: ActionOutcome | null;
  /** Leaving the roster (audit, schedules) waits while an action is open. */
  canLeave: boolean;
  openAudit(): void;
  backToSchedules(): void;
}

export interface ActionDialogApi {
  kind: ActionKind;
  examineeName: string | null;
  /** A retake archives this many answers. */
  answersSaved: number;
  /**
   * The pupil's terminal may still hold answers the server has not (a move warns of them):
   * `waitingAnswers` it said it had at its last heartbeat; `terminalOffline`, not heard from lately.
   */
  waitingAnswers: number;
  terminalOffline: boolean;
  /** The room of the pupil, or the room the room-wide extension is limited to. */
  venueName: string | null;
  /**
   * The room-wide extension reaches this many pupils (as the roster showed them when it was asked
   * for): in the exam and not past the upload window, whom the server leaves out.
   */
  pupilsInExam: number;
  /** Extensions ask for minutes too. */
  asksMinutes: boolean;
  /** confirming: the form; sending: the call runs; failed: the server refused or no answer came. */
  status: 'confirming' | 'sending' | 'failed';
  fieldErrors: ActionFieldErrors;
  failure: FailureCode | null;
  /**
   * Trying again can help: no answer came, or the server failed. A refusal that stays (the pupil
   * finished, was never started, the sitting is not the proctor's...) offers only "Close".
   */
  retryable: boolean;
  confirm(values: { reason: string; minutes?: string }): void;
  cancel(): void;
  retry(): void;
}

/** Refusals of an action that the same request meets again: "Try again" cannot help. */
const refusalsThatStay: ReadonlySet<FailureCode> = new Set<FailureCode>([
  'EXAM_NOT_STARTED',
  'ER_SCHEDULE_HISTORY_COMPLETED',
  'ER_SCHEDULE_HISTORY_CANCELLED',
  'EXPIRED',
  'TIME_END',
  'NOT_FOUND',
  'VALIDATION_ERROR',
]);

/** Rows per column of the roster on a wide screen (20 fit under the page's header at 768 px). */
const ROWS_PER_COLUMN = 20;
const MAX_COLUMNS = 3;

function columnsFor(rows: number): number {
  return Math.min(MAX_COLUMNS, Math.max(1, Math.ceil(rows / ROWS_PER_COLUMN)));
}

export function connect(
  snapshot: ProctorSnapshot,
  send: (event: ProctorEvent) => void,
  now: number,
  administration: AdministrationChild | null = null,
): ProctorApi {
  const { context } = snapshot;
  const phase = selectPhase(snapshot);
  const inSchedules = (state: 'loading' | 'failed' | 'ready') => snapshot.matches({ signedIn: { schedules: state } });
  const inAudit = (state: 'loading' | 'failed' | 'ready') => snapshot.matches({ signedIn: { audit: state } });
  const inAction = (state: 'idle' | 'confirming' | 'acting' | 'failed') =>
    snapshot.matches({ signedIn: { watching: { action: state } } });

  const view = phase === 'roster' ? selectRoster(snapshot, now) : null;
  const rows = view?.rows ?? [];
  const rosterStatus = context.roster ? 'ready' : context.pollFailures > 0 ? 'failed' : 'loading';
  const draft = context.draft;

  return {
    phase,
    busy: snapshot.hasTag('busy'),
    staff: context.staff,
    logout: () => send({ type: 'logout.requested' }),
    restore: {
      failure: phase === 'restoreFailed' ? context.failure : null,
      retry: () => send({ type: 'retry.requested' }),
    },
    login: {
      busy: snapshot.matches('signingIn'),
      error: context.loginError,
      notice: context.notice,
      submit: (values) => send({ type: 'login.submitted', values }),
    },
    schedules: {
      status: inSchedules('ready') ? 'ready' : inSchedules('failed') ? 'failed' : 'loading',
      items: context.schedules,
      failure: inSchedules('failed') ? context.failure : null,
      choose: (code) => send({ type: 'schedule.chosen', code }),
      retry: () => send({ type: 'retry.requested' }),
    },
    roster: {
      status: rosterStatus,
      schedule: context.roster
        ? { code: context.roster.schedule.code, name: context.roster.schedule.name }
        : (() => {
            const chosen = context.schedules.find((s) => s.code === context.scheduleCode);
            return chosen ? { code: chosen.code, name: chosen.name } : null;
          })(),
      rooms: roomsOf(context.roster),
      venueId: context.venueId,
      chooseVenue: (venueId) => send({ type: 'venue.chosen', venueId }),
      rows: rows.map((row) => ({
        ...row,
        request: (kind: PupilActionKind) => send({ type: 'action.requested', kind, sittingId: row.sittingId, now }),
      })),
      filters: rosterFilters.map((filter) => ({ filter, count: view?.counts[filter] ?? 0, chosen: context.rosterFilter === filter })),
      chooseFilter: (filter) => send({ type: 'roster.filterChosen', filter }),
      search: context.search,
      setSearch: (text) => send({ type: 'roster.searched', text }),
      total: view?.total ?? 0,
      columns: columnsFor(rows.length),
      connection: {
        lost: context.pollFailures > 0,
        failure: context.pollFailure,
        updatedAt: context.updatedAt,
        retryNow: () => send({ type: 'roster.refreshRequested' }),
      },
      canExtendRoom: phase === 'roster' && pupilsToExtend(context, serverNow(context, now)).length > 0,
      extendRoom: () => send({ type: 'action.requested', kind: 'extend_room', now }),
      outcome: context.outcome,
      canLeave: inAction('idle'),
      openAudit: () => send({ type: 'audit.requested' }),
      backToSchedules: () => send({ type: 'schedules.requested' }),
    },
    dialog:
      draft && phase === 'roster'
        ? {
            kind: draft.kind,
            examineeName: draft.examineeName,
            answersSaved: draft.answersSaved,
            waitingAnswers: draft.waitingAnswers ?? 0,
            terminalOffline: draft.terminalOffline ?? false,
            venueName: draft.venueName,
            pupilsInExam: draft.pupilsInExam,
            asksMinutes: draft.kind === 'extend' || draft.kind === 'extend_room',
            status: inAction('acting') ? 'sending' : inAction('failed') ? 'failed' : 'confirming',
            fieldErrors: context.fieldErrors,
            failure: inAction('failed') ? context.actionFailure : null,
            retryable: context.actionFailure === null || !refusalsThatStay.has(context.actionFailure),
            confirm: (values) => send({ type: 'action.confirmed', ...values }),
            cancel: () => send({ type: 'action.cancelled' }),
            retry: () => send({ type: 'action.retried' }),
          }
        : null,
    audit: {
      status: inAudit('ready') ? 'ready' : inAudit('failed') ? 'failed' : 'loading',
      entries: context.audit,
      failure: inAudit('failed') ? context.failure : null,
      // A schedule without a name goes by its code, as on the list and the roster.
      scheduleName: context.schedules.find((s) => s.code === context.scheduleCode)?.name || context.scheduleCode,
      close: () => send({ type: 'audit.closed' }),
      retry: () => send({ type: 'retry.requested' }),
    },
    administration: administration ? connectAdministration(administration.snapshot, administration.send) : null,
  };
}
