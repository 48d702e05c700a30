/**
 * The proctor machine: the staff side of exam day on /proctor. It owns the
 * staff session (its own token under its own storage key, never the pupil's), the choice of a
 * schedule, the live roster of that schedule, the confirm step of every action, and the audit
 * trail the page shows.
 *
 * Top states: restoring (a stored staff token is checked with GET /admin/me) -> signedOut (the
 * staff login form) | signedIn; restoreFailed offers a retry. signedOut -> signingIn ->
 * signedIn. signedIn: schedules (loading, failed, ready: the list or its empty state) ->
 * watching (parallel: `roster` polls, `action` runs the confirm step) <-> audit (loading, failed,
 * ready). signedIn -> signingOut -> signedOut.
 *
 * Live updates: the roster is asked for every ROSTER_POLL_MS with If-None-Match (contract/admin.ts
 * says why polling rather than server-sent events); a 304 keeps the view and only marks it
 * current; a failed poll keeps the last roster on screen, says since when it is not current,
 * and tries again with a growing wait (at most POLL_BACKOFF_MAX_MS): never a dead end.
 *
 * Invariants:
 * - every admin call but the login carries the staff token; a 401 on any of them (the staff
 *   session ended on the server) forgets the token and shows the login form with a message;
 * - an action is sent only after its confirm step, with a reason (1 to 500 characters) and,
 *   for an extension, whole minutes from 1 to 60; a pupil action only for a pupil the roster
 *   shows in a state where the action applies (`actionsFor`) and can succeed on the server's
 *   clock when asked (`unavailableActions`: no extension past the upload window); the room-wide
 *   extension only while it reaches someone (`pupilsToExtend`);
 * - an action is done at most once: its idempotency key is made when it is confirmed and sent
 *   again by "Try again" (the server answers a repeat as it did the first);
 * - one action at a time: while one is confirmed, sent or failed, no other can be asked for,
 *   and the page does not leave the roster (schedules, audit) until it is settled;
 * - the roster on screen is the server's: actions change it only with the pupil row the server
 *   answered, and a fresh poll follows every action;
 * - the state filter and the search (`roster.filterChosen`, `roster.searched`) change which rows
 *   the page shows, never the roster held, the room-wide extension's reach or an action's guard;
 *   a schedule chosen starts with every pupil and no search;
 * - signing out calls POST /admin/logout with the token first and forgets it after, whatever
 *   the answer (the pupil's Examinee-Token is never touched).
 */
import { assign, enqueueActions, fromPromise, raise, setup, stopChild } from 'xstate';
import {
  ROSTER_POLL_MS,
  type AdminSchedulesResponse,
  type AuditResponse,
  type StaffLoginRequest,
  type StaffLoginResponse,
} from '../../contract/admin.ts';
import { administrationMachine } from '../administration/administration.machine.ts';
import { backoffMs } from '../shared/backoff.ts';
import { ApiFailure, failureCodeOf } from '../shared/ports.ts';
import { uuidV4 } from '../shared/uuid.ts';
import {
  SEARCH_MAX_LENGTH,
  canAskAction,
  checkConfirmation,
  checkStaffLogin,
  pupilsToExtend,
  roomsOf,
  rosterFilters,
  serverNow,
} from './proctor.rules.ts';
import type {
  ActionDraft,
  ActionResult,
  ActionRequest,
  ProctorContext,
  ProctorEvent,
  RestoredSession,
  RosterResult,
} from './proctor.types.ts';

// The rules live in proctor.rules.ts; the page and the tests read them from here too.
export {
  SEARCH_MAX_LENGTH,
  actionsFor,
  asciiDigits,
  attentionFirst,
  attentionOf,
  filterCounts,
  inFilter,
  matchesSearch,
  roomFactsOf,
  rosterFilters,
  canAskAction,
  checkConfirmation,
  checkStaffLogin,
  isInExam,
  pupilsToExtend,
  roomsOf,
  serverNow,
  unavailableActions,
  uploadWindowOf,
  visiblePupils,
} from './proctor.rules.ts';

/** The longest wait between two polls while the connection is lost. */
export const POLL_BACKOFF_MAX_MS = 30_000;

/** The wait before the next poll: ROSTER_POLL_MS, then 5 s, 10 s, 20 s, 30 s... after failures. */
export function pollDelayMs(failures: number): number {
  return backoffMs(failures - 1, { firstMs: ROSTER_POLL_MS, maxMs: POLL_BACKOFF_MAX_MS });
}

const errorOf = (event: unknown) => (event as { error?: unknown }).error;
const failureOf = ({ event }: { event: unknown }) => failureCodeOf(errorOf(event));
const outputOf = <T>(event: unknown) => (event as { output: T }).output;

function offsetFrom(serverTime: string): number {
  return Date.parse(serverTime) - Date.now();
}

/** A schedule just chosen (or none): nothing of the roster, its actions or its audit is kept. */
const freshScheduleContext = {
  roster: null,
  etag: null,
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
const signedOutContext = {
  token: null,
  staff: null,
  credentials: null,
  failure: null,
  schedules: [],
  scheduleCode: null,
  ...freshScheduleContext,
} satisfies Partial<ProctorContext>;

/** A staff call refused with a 401 (revoked, expired): the staff signs in again, told why. */
const signOutOnRefusal = { guard: 'isUnauthorized', target: '#proctor.signedOut', actions: ['forgetToken', 'endStaffSession'] } as const;

/**
 * A list the page loads (the schedules, the audit trail): `loading` (busy) -> `ready`, whose
 * "Refresh" loads it again, or `failed`, which says so with "Try again"; a 401 signs out.
 */
type ListInput = { loadSchedules: { token: string }; loadAudit: { token: string; code: string } };

function listStates<const Src extends keyof ListInput, const Assign extends 'assignSchedules' | 'assignAudit', const ReadyOn>(list: {
  src: Src;
  input: (args: { context: ProctorContext }) => ListInput[Src];
  assign: Assign;
  readyOn: ReadyOn;
}) {
  return {
    initial: 'loading',
    states: {
      loading: {
        tags: ['busy'],
        invoke: {
          id: list.src,
          src: list.src,
          input: list.input,
          onDone: { target: 'ready', actions: list.assign },
          onError: [signOutOnRefusal, { target: 'failed', actions: 'assignFailure' }],
        },
      },
      failed: { tags: ['error'], on: { 'retry.requested': 'loading' } },
      ready: { on: { ...list.readyOn, 'retry.requested': 'loading' } },
    },
  } as const;
}

export const proctorMachine = setup({
  types: {
    context: {} as ProctorContext,
    events: {} as ProctorEvent,
  },
  actors: {
    /** Reads the stored staff token and asks GET /admin/me whose it is; null when none is stored. */
    restoreSession: fromPromise<RestoredSession | null, void>(async () => {
      throw new Error('restoreSession is provided by the edge (proctor.actors.ts)');
    }),
    /** POST /admin/login. */
    signIn: fromPromise<StaffLoginResponse, StaffLoginRequest>(async () => {
      throw new Error('signIn is provided by the edge (proctor.actors.ts)');
    }),
    /** GET /admin/schedules. */
    loadSchedules: fromPromise<AdminSchedulesResponse, { token: string }>(async () => {
      throw new Error('loadSchedules is provided by the edge (proctor.actors.ts)');
    }),
    /** GET /admin/schedules/:code/roster with If-None-Match. */
    loadRoster: fromPromise<RosterResult, { token: string; code: string; etag: string | null }>(async () => {
      throw new Error('loadRoster is provided by the edge (proctor.actors.ts)');
    }),
    /** POST /admin/sittings/:id/{move-terminal,retake,extend} or /admin/schedules/:code/extend. */
    performAction: fromPromise<ActionResult, { token: string; scheduleCode: string; request: ActionRequest }>(async () => {
      throw new Error('performAction is provided by the edge (proctor.actors.ts)');
    }),
    /** GET /admin/audit?schedule=. */
    loadAudit: fromPromise<AuditResponse, { token: string; code: string }>(async () => {
      throw new Error('loadAudit is provided by the edge (proctor.actors.ts)');
    }),
    /** The administrator's console beside exam day (spawned as `administration` for role admin). */
    administration: administrationMachine,
    /** POST /admin/logout (revokes the staff token). */
    signOut: fromPromise<void, { token: string }>(async () => {
      throw new Error('signOut is provided by the edge (proctor.actors.ts)');
    }),
  },
  actions: {
    /** Keeps the staff token under its own storage key (the edge provides it). */
    storeToken: (_, _params: { token: string }) => {},
    /** Removes the staff token from storage, and nothing else (the edge provides it). */
    forgetToken: () => {},
    assignRestored: assign(({ event }) => {
      const restored = outputOf<RestoredSession>(event);
      return { token: restored.token, staff: restored.staff, notice: null, failure: null };
    }),
    assignFailure: assign({ failure: (args) => failureOf(args) }),
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
    assignSignedIn: assign(({ event }) => {
      const response = outputOf<StaffLoginResponse>(event);
      return { token: response.access_token, staff: response.staff, credentials: null, loginError: null };
    }),
    assignLoginFailure: assign(({ event }) => ({
      credentials: null,
      loginError: { kind: 'failure' as const, code: failureCodeOf(errorOf(event)) },
    })),
    /** The staff session ended on the server (401): back to the login form, saying so. */
    endStaffSession: assign({ ...signedOutContext, loginError: null, notice: 'sessionEnded' as const }),
    resetAfterSignOut: assign({ ...signedOutContext, loginError: null, notice: 'signedOut' as const }),
    assignSchedules: assign(({ event }) => ({ schedules: outputOf<AdminSchedulesResponse>(event).schedules, failure: null })),
    chooseSchedule: assign(({ event }) => {
      if (event.type !== 'schedule.chosen') return {};
      return { scheduleCode: event.code, ...freshScheduleContext };
    }),
    assignRoster: assign(({ event }) => {
      const result = outputOf<RosterResult>(event);
      if (!result.modified) return { updatedAt: Date.now(), pollFailures: 0, pollFailure: null };
      return {
        roster: result.roster,
        etag: result.etag,
        clockOffsetMs: offsetFrom(result.roster.server_time),
        updatedAt: Date.now(),
        pollFailures: 0,
        pollFailure: null,
      };
    }),
    countPollFailure: assign(({ context, event }) => ({
      pollFailures: context.pollFailures + 1,
      pollFailure: failureCodeOf(errorOf(event)),
    })),
    chooseVenue: assign({ venueId: ({ event }) => (event.type === 'venue.chosen' ? event.venueId : null) }),
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
                terminalOffline: pupil?.state === 'offline',
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
    assignActionFailure: assign({ actionFailure: (args) => failureOf(args) }),
    /** The action is done: its outcome for the status line, and the pupil row the server answered. */
    assignOutcome: assign(({ context, event }) => {
      const result = outputOf<ActionResult>(event);
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
    assignAudit: assign(({ event }) => ({ audit: outputOf<AuditResponse>(event).entries, failure: null })),
  },
  guards: {
    hasStoredSession: ({ event }) => outputOf<RestoredSession | null>(event) !== null,
    isUnauthorized: ({ event }) => {
      const error = errorOf(event);
      return error instanceof ApiFailure ? error.status === 401 && error.code !== 'DURING_MAINTENANCE' : failureCodeOf(error) === 'NOT_LOGGED_IN';
    },
    isValidLogin: ({ event }) => event.type === 'login.submitted' && checkStaffLogin(event.values).ok,
    isKnownSchedule: ({ context, event }) =>
      event.type === 'schedule.chosen' && context.schedules.some((s) => s.code === event.code),
    isKnownFilter: ({ event }) => event.type === 'roster.filterChosen' && (rosterFilters as readonly string[]).includes(event.filter),
    isKnownVenue: ({ context, event }) =>
      event.type === 'venue.chosen' && (event.venueId === null || roomsOf(context.roster).some((r) => r.id === event.venueId)),
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
}).createMachine({
  id: 'proctor',
  context: {
    ...signedOutContext,
    loginError: null,
    notice: null,
    clockOffsetMs: 0,
  },
  // The whole machine is one page: /proctor.
  meta: { path: '/proctor', screen: 'proctor' },
  initial: 'restoring',
  states: {
    restoring: {
      tags: ['busy'],
      invoke: {
        id: 'restoreSession',
        src: 'restoreSession',
        onDone: [
          { guard: 'hasStoredSession', target: 'signedIn', actions: 'assignRestored' },
          { target: 'signedOut' },
        ],
        onError: [
          // The stored token is no longer valid (revoked, expired): sign in again, saying why.
          signOutOnRefusal,
          { target: 'restoreFailed', actions: 'assignFailure' },
        ],
      },
    },
    restoreFailed: {
      tags: ['error'],
      on: {
        'retry.requested': 'restoring',
        // Sign in as someone else: the stored token is forgotten here (no answer came to check it).
        'logout.requested': { target: 'signedOut', actions: ['forgetToken', 'resetAfterSignOut'] },
      },
    },
    signedOut: {
      on: {
        'login.submitted': [
          { guard: 'isValidLogin', target: 'signingIn', actions: 'assignCredentials' },
          { actions: 'assignFieldErrors' },
        ],
      },
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => context.credentials!,
        onDone: {
          target: 'signedIn',
          actions: ['assignSignedIn', { type: 'storeToken', params: ({ event }) => ({ token: event.output.access_token }) }],
        },
        onError: { target: 'signedOut', actions: 'assignLoginFailure' },
      },
    },
    signedIn: {
      initial: 'schedules',
      // An administrator's console: the sections beside exam day, as the child `administration`.
      entry: enqueueActions(({ context, enqueue }) => {
        if (context.staff?.role !== 'admin' || !context.token) return;
        enqueue.spawnChild('administration', { id: 'administration', input: { token: context.token, loginId: context.staff.login_id } });
      }),
      exit: 'stopAdministration',
      on: {
        // An open confirm step is dropped: signing out is not a way to send it.
        'logout.requested': { target: '#proctor.signingOut', actions: 'clearDraft' },
      },
      states: {
        // "Refresh": schedules are added during the day.
        schedules: listStates({
          src: 'loadSchedules',
          input: ({ context }) => ({ token: context.token! }),
          assign: 'assignSchedules',
          readyOn: {
            'schedule.chosen': { guard: 'isKnownSchedule', target: '#proctor.signedIn.watching', actions: 'chooseSchedule' },
          },
        }),
        watching: {
          type: 'parallel',
          on: {
            'venue.chosen': { guard: 'isKnownVenue', actions: 'chooseVenue' },
            // The state filter and the search change what the roster shows, never what it holds.
            'roster.filterChosen': { guard: 'isKnownFilter', actions: 'chooseFilter' },
            'roster.searched': { actions: 'assignSearch' },
          },
          states: {
            roster: {
              initial: 'fetching',
              states: {
                fetching: {
                  invoke: {
                    id: 'loadRoster',
                    src: 'loadRoster',
                    input: ({ context }) => ({ token: context.token!, code: context.scheduleCode!, etag: context.etag }),
                    onDone: { target: 'waiting', actions: 'assignRoster' },
                    onError: [
                      signOutOnRefusal,
                      { target: 'waiting', actions: 'countPollFailure' },
                    ],
                  },
                  on: {
                    // After an action: ask again at once, so the answer includes what it changed.
                    'roster.refreshRequested': { target: 'fetching', reenter: true },
                  },
                },
                waiting: {
                  after: { pollDelay: 'fetching' },
                  on: { 'roster.refreshRequested': 'fetching' },
                },
              },
            },
            action: {
              initial: 'idle',
              states: {
                idle: {
                  on: {
                    'action.requested': { guard: 'canRequestAction', target: 'confirming', actions: 'assignDraft' },
                    'audit.requested': '#proctor.signedIn.audit',
                    'schedules.requested': '#proctor.signedIn.schedules',
                  },
                },
                confirming: {
                  on: {
                    'action.confirmed': [
                      { guard: 'isValidConfirmation', target: 'acting', actions: 'assignPending' },
                      { actions: 'assignActionFieldErrors' },
                    ],
                    'action.cancelled': { target: 'idle', actions: 'clearDraft' },
                  },
                },
                acting: {
                  tags: ['busy'],
                  invoke: {
                    id: 'performAction',
                    src: 'performAction',
                    input: ({ context }) => ({ token: context.token!, scheduleCode: context.scheduleCode!, request: context.pending! }),
                    onDone: { target: 'idle', actions: ['assignOutcome', 'requestRosterRefresh'] },
                    onError: [
                      signOutOnRefusal,
                      { target: 'failed', actions: 'assignActionFailure' },
                    ],
                  },
                },
                failed: {
                  tags: ['error'],
                  on: {
                    'action.retried': 'acting',
                    'action.cancelled': { target: 'idle', actions: 'clearDraft' },
                  },
                },
              },
            },
          },
        },
        audit: {
          on: {
            'audit.closed': 'watching',
          },
          ...listStates({
            src: 'loadAudit',
            input: ({ context }) => ({ token: context.token!, code: context.scheduleCode! }),
            assign: 'assignAudit',
            readyOn: {},
          }),
        },
      },
    },
    signingOut: {
      tags: ['busy'],
      invoke: {
        id: 'signOut',
        src: 'signOut',
        input: ({ context }) => ({ token: context.token ?? '' }),
        // The token goes with the call and is forgotten after it, whatever the answer.
        onDone: { target: 'signedOut', actions: ['forgetToken', 'resetAfterSignOut'] },
        onError: { target: 'signedOut', actions: ['forgetToken', 'resetAfterSignOut'] },
      },
    },
  },
});
