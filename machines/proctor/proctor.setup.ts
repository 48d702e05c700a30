/**
 * The proctor machine's vocabulary, by name: the actors the edge provides (proctor.actors.ts
 * gives the real ones; these stand-ins only say what each call is), the actions, the guards
 * (decided by proctor.rules.ts) and the delays, with the context a schedule starts from and the
 * list states the schedules and the audit share. proctor.machine.ts is built from this setup, so
 * every name it uses is checked against it. A call's answer reaches an action or a guard as its
 * typed parameter (`params: ({ event }) => event.output`).
 */
import { assign, raise, setup, stopChild } from 'xstate';
import { unprovided } from '../shared/unprovided.ts';
import {
  ROSTER_POLL_MS,
  type AdminSchedulesResponse,
  type AuditResponse,
  type StaffLoginRequest,
  type StaffLoginResponse,
} from '../../contract/admin.ts';
import { administrationMachine } from '../administration/administration.machine.ts';
import { backoffMs } from '../shared/backoff.ts';
import { listStates as staffListStates } from '../shared/list-states.ts';
import { ApiFailure, errorOf, failureCodeOf, failureOfEvent } from '../shared/ports.ts';
import { uuidV4 } from '../shared/uuid.ts';
import {
  SEARCH_MAX_LENGTH,
  canAskAction,
  checkConfirmation,
  checkStaffLogin,
  mergeRoster,
  pupilsToExtend,
  roomsOf,
  rosterFilters,
  serverNow,
  shownState,
  confirmedAtOf,
} from './proctor.rules.ts';
import type {
  ActionDraft,
  ActionResult,
  ActionRequest,
  ProctorContext,
  ProctorEvent,
  RestoredSession,
  RosterRequest,
  RosterResult,
} from './proctor.types.ts';

/** The longest wait between two polls while the connection is lost. */
export const POLL_BACKOFF_MAX_MS = 30_000;

/** The wait before the next poll: ROSTER_POLL_MS, then 5 s, 10 s, 20 s, 30 s... after failures. */
export function pollDelayMs(failures: number): number {
  return backoffMs(failures - 1, { firstMs: ROSTER_POLL_MS, maxMs: POLL_BACKOFF_MAX_MS });
}

function offsetFrom(serverTime: string): number {
  return Date.parse(serverTime) - Date.now();
}

/** A schedule just chosen (or none): nothing of the roster, its actions or its audit is kept. */
export const freshScheduleContext = {
  roster: null,
  cursor: null,
  updatedAt: null,
  pollFailures: 0,
  pollFailure: null,
  venueId: null,
  rosterFilter: 'all',
  search: '',
  draft: null,
  fieldErrors: {},
  pending: null,
  actionFailure: null,
  outcome: null,
  audit: [],
} satisfies Partial<ProctorContext>;

/** Signed out: nothing of the staff session or its schedules is kept. */
export const signedOutContext = {
  token: null,
  staff: null,
  credentials: null,
  failure: null,
  schedules: [],
  scheduleCode: null,
  ...freshScheduleContext,
} satisfies Partial<ProctorContext>;

/** A staff call refused with a 401 (revoked, expired): the staff signs in again, told why. */
export const signOutOnRefusal = { guard: 'isUnauthorized', target: '#proctor.signedOut', actions: ['forgetToken', 'endStaffSession'] } as const;

/**
 * A list the page loads (the schedules, the audit trail): `loading` (busy) -> `ready`, whose
 * "Refresh" loads it again, or `failed`, which says so with "Try again"; a 401 signs out.
 */
type ListInput = { loadSchedules: { token: string }; loadAudit: { token: string; code: string } };
type ListOutput = { loadSchedules: AdminSchedulesResponse; loadAudit: AuditResponse };

export function listStates<const Src extends keyof ListInput, const Assign extends 'assignSchedules' | 'assignAudit', const ReadyOn>(list: {
  src: Src;
  input: (args: { context: ProctorContext }) => ListInput[Src];
  assign: Assign;
  readyOn: ReadyOn;
}) {
  return staffListStates({
    src: list.src,
    input: list.input,
    keep: { type: list.assign, params: ({ event }: { event: { output: ListOutput[Src] } }) => event.output },
    refusal: signOutOnRefusal,
    ready: { on: { ...list.readyOn, 'retry.requested': 'loading' } },
  });
}

export const proctorSetup = setup({
  types: {
    context: {} as ProctorContext,
    events: {} as ProctorEvent,
  },
  actors: {
    /** Reads the stored staff token and asks GET /admin/me whose it is; null when none is stored. */
    restoreSession: unprovided<RestoredSession | null, void>('restoreSession', 'proctor.actors.ts'),
    /** POST /admin/login. */
    signIn: unprovided<StaffLoginResponse, StaffLoginRequest>('signIn', 'proctor.actors.ts'),
    /** GET /admin/schedules. */
    loadSchedules: unprovided<AdminSchedulesResponse, { token: string }>('loadSchedules', 'proctor.actors.ts'),
    /** GET /admin/schedules/:code/roster?venue_id=&since=: in full, or the changes since the cursor. */
    loadRoster: unprovided<RosterResult, RosterRequest>('loadRoster', 'proctor.actors.ts'),
    /** POST /admin/sittings/:id/{move-terminal,retake,extend} or /admin/schedules/:code/extend. */
    performAction: unprovided<ActionResult, { token: string; scheduleCode: string; request: ActionRequest }>('performAction', 'proctor.actors.ts'),
    /** GET /admin/audit?schedule=. */
    loadAudit: unprovided<AuditResponse, { token: string; code: string }>('loadAudit', 'proctor.actors.ts'),
    /** The administrator's console beside exam day (spawned as `administration` for role admin). */
    administration: administrationMachine,
    /** POST /admin/logout (revokes the staff token). */
    signOut: unprovided<void, { token: string }>('signOut', 'proctor.actors.ts'),
  },
  actions: {
    /** Keeps the staff token under its own storage key (the edge provides it). */
    storeToken: (_, _params: { token: string }) => {},
    /** Removes the staff token from storage, and nothing else (the edge provides it). */
    forgetToken: () => {},
    assignRestored: assign((_, restored: RestoredSession) => ({ token: restored.token, staff: restored.staff, notice: null, failure: null })),
    assignFailure: assign({ failure: failureOfEvent }),
    assignCredentials: assign(({ event }) => {
      if (event.type !== 'login.submitted') return {};
      const checked = checkStaffLogin(event.values);
      return checked.ok ? { credentials: checked.request, loginError: null, notice: null } : {};
    }),
    assignFieldErrors: assign(({ event }) => {
      if (event.type !== 'login.submitted') return {};
      const checked = checkStaffLogin(event.values);
      return { loginError: checked.ok ? null : { kind: 'fields' as const, fields: checked.fields }, notice: null };
    }),
    assignSignedIn: assign((_, response: StaffLoginResponse) => ({
      token: response.access_token,
      staff: response.staff,
      credentials: null,
      loginError: null,
    })),
    assignLoginFailure: assign(({ event }) => ({
      credentials: null,
      loginError: { kind: 'failure' as const, code: failureOfEvent({ event }) },
    })),
    /** The staff session ended on the server (401): back to the login form, saying so. */
    endStaffSession: assign({ ...signedOutContext, loginError: null, notice: 'sessionEnded' as const }),
    resetAfterSignOut: assign({ ...signedOutContext, loginError: null, notice: 'signedOut' as const }),
    assignSchedules: assign((_, response: AdminSchedulesResponse) => ({ schedules: response.schedules, failure: null })),
    chooseSchedule: assign(({ event }) => {
      if (event.type !== 'schedule.chosen') return {};
      return { scheduleCode: event.code, ...freshScheduleContext };
    }),
    /** The roster in full, or its changes merged into the one held (proctor.rules.ts `mergeRoster`): either confirms all of it. */
    assignRoster: assign(({ context }, result: RosterResult) => {
      const roster = result.kind === 'full' ? result.roster : mergeRoster(context.roster, result.changes);
      const answer = result.kind === 'full' ? result.roster : result.changes;
      return {
        // Changes that cannot be merged keep the roster held and drop the cursor: the next poll asks in full.
        roster: roster ?? context.roster,
        cursor: roster?.cursor ?? null,
        clockOffsetMs: offsetFrom(answer.server_time),
        updatedAt: Date.now(),
        pollFailures: 0,
        pollFailure: null,
      };
    }),
    /** A failed poll; a cursor the server did not take (ROSTER_CURSOR_INVALID) is dropped, so the next poll asks in full. */
    countPollFailure: assign(({ context, event }) => {
      const failure = failureOfEvent({ event });
      return {
        pollFailures: context.pollFailures + 1,
        pollFailure: failure,
        cursor: failure === 'ROSTER_CURSOR_INVALID' ? null : context.cursor,
      };
    }),
    /** Another room: its roster is asked for in full (`requestRosterRefresh` follows). */
    chooseVenue: assign({ venueId: ({ event }) => (event.type === 'venue.chosen' ? event.venueId : null), cursor: null }),
    chooseFilter: assign({ rosterFilter: ({ context, event }) => (event.type === 'roster.filterChosen' ? event.filter : context.rosterFilter) }),
    assignSearch: assign({ search: ({ context, event }) => (event.type === 'roster.searched' ? event.text.slice(0, SEARCH_MAX_LENGTH) : context.search) }),
    assignDraft: assign(({ context, event }) => {
      if (event.type !== 'action.requested') return {};
      const draft: ActionDraft =
        event.kind === 'extend_room'
          ? {
              kind: 'extend_room',
              sittingId: null,
              examineeName: null,
              answersSaved: 0,
              venueId: context.venueId,
              venueName: roomsOf(context.roster).find((r) => r.id === context.venueId)?.name ?? null,
              // Those the server extends, on its clock when the proctor asked (none past the upload window).
              pupilsInExam: pupilsToExtend(context, serverNow(context, event.now)).length,
            }
          : (() => {
              const pupil = context.roster?.pupils.find((p) => p.schedule_history_id === event.sittingId);
              return {
                kind: event.kind,
                sittingId: event.sittingId,
                examineeName: pupil?.examinee_name ?? null,
                answersSaved: pupil?.answers_saved ?? 0,
                waitingAnswers: pupil?.waiting_answers ?? 0,
                // As the row shows it (a pupil the page cannot vouch for any more is offline there too).
                terminalOffline:
                  pupil !== undefined && shownState(pupil, serverNow(context, event.now), confirmedAtOf(context) ?? serverNow(context, event.now)) === 'offline',
                venueId: pupil?.venue?.id ?? null,
                venueName: pupil?.venue?.name ?? null,
                pupilsInExam: 0,
              };
            })();
      return { draft, fieldErrors: {}, actionFailure: null, outcome: null };
    }),
    assignActionFieldErrors: assign(({ context, event }) => {
      if (event.type !== 'action.confirmed' || !context.draft) return {};
      const checked = checkConfirmation(context.draft, event);
      return { fieldErrors: checked.ok ? {} : checked.fields };
    }),
    assignPending: assign(({ context, event }) => {
      if (event.type !== 'action.confirmed' || !context.draft) return {};
      const checked = checkConfirmation(context.draft, event);
      // One key per confirmed action; "Try again" sends the same pending request, key and all.
      return checked.ok ? { pending: { ...checked.request, idempotencyKey: uuidV4() }, fieldErrors: {} } : {};
    }),
    clearDraft: assign({ draft: null, fieldErrors: {}, pending: null, actionFailure: null }),
    assignActionFailure: assign({ actionFailure: failureOfEvent }),
    /** The action is done: its outcome for the status line, and the pupil row the server answered. */
    assignOutcome: assign(({ context }, result: ActionResult) => {
      const request = context.pending;
      const roster =
        context.roster && result.pupil
          ? {
              ...context.roster,
              pupils: context.roster.pupils.map((p) =>
                p.schedule_history_id === result.pupil!.schedule_history_id ? result.pupil! : p,
              ),
            }
          : context.roster;
      return {
        roster,
        clockOffsetMs: offsetFrom(result.server_time),
        outcome: request
          ? {
              kind: request.kind,
              examineeName: result.pupil?.examinee_name ?? request.examineeName,
              minutes: request.minutes,
              extended: result.extended,
              venueName: request.venueName,
            }
          : null,
        draft: null,
        fieldErrors: {},
        pending: null,
        actionFailure: null,
      };
    }),
    requestRosterRefresh: raise({ type: 'roster.refreshRequested' }),
    stopAdministration: stopChild('administration'),
    assignAudit: assign((_, response: AuditResponse) => ({ audit: response.entries, failure: null })),
  },
  guards: {
    hasStoredSession: (_, restored: RestoredSession | null) => restored !== null,
    isUnauthorized: ({ event }) => {
      const error = errorOf(event);
      return error instanceof ApiFailure ? error.status === 401 && error.code !== 'DURING_MAINTENANCE' : failureCodeOf(error) === 'NOT_LOGGED_IN';
    },
    isValidLogin: ({ event }) => event.type === 'login.submitted' && checkStaffLogin(event.values).ok,
    isKnownSchedule: ({ context, event }) =>
      event.type === 'schedule.chosen' && context.schedules.some((s) => s.code === event.code),
    isKnownFilter: ({ event }) => event.type === 'roster.filterChosen' && (rosterFilters as readonly string[]).includes(event.filter),
    /** Another room of the schedule (or every room) than the one watched. */
    isOtherKnownVenue: ({ context, event }) =>
      event.type === 'venue.chosen' &&
      event.venueId !== context.venueId &&
      (event.venueId === null || roomsOf(context.roster).some((r) => r.id === event.venueId)),
    // On the server's clock when the proctor asked (the event's `now`, this terminal's time): the
    // rule the roster's buttons show, so nothing the server would refuse TIME_END is asked for.
    canRequestAction: ({ context, event }) => {
      if (event.type !== 'action.requested') return false;
      const serverClock = serverNow(context, event.now);
      if (event.kind === 'extend_room') return pupilsToExtend(context, serverClock).length > 0;
      const pupil = context.roster?.pupils.find((p) => p.schedule_history_id === event.sittingId);
      return pupil !== undefined && canAskAction(context, pupil, event.kind, serverClock);
    },
    isValidConfirmation: ({ context, event }) =>
      event.type === 'action.confirmed' && context.draft !== null && checkConfirmation(context.draft, event).ok,
  },
  delays: {
    pollDelay: ({ context }) => pollDelayMs(context.pollFailures),
  },
});
