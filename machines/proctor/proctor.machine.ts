/**
 * The proctor machine: the staff side of exam day on /proctor (issue 10, part A). It owns the
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
 *   shows in a state where the action applies (`actionsFor`);
 * - one action at a time: while one is confirmed, sent or failed, no other can be asked for,
 *   and the page does not leave the roster (schedules, audit) until it is settled;
 * - the roster on screen is the server's: actions change it only with the pupil row the server
 *   answered, and a fresh poll follows every action;
 * - signing out calls POST /admin/logout with the token first and forgets it after, whatever
 *   the answer (the pupil's Examinee-Token is never touched).
 */
import * as v from 'valibot';
import { assign, fromPromise, raise, setup } from 'xstate';
import {
  ExtendScheduleRequestSchema,
  ExtendSittingRequestSchema,
  ROSTER_POLL_MS,
  SittingActionRequestSchema,
  StaffLoginRequestSchema,
  type AdminSchedulesResponse,
  type AuditResponse,
  type RosterPupil,
  type RosterResponse,
  type StaffLoginRequest,
  type StaffLoginResponse,
} from '../../contract/admin.ts';
import { backoffMs } from '../shared/backoff.ts';
import { ApiFailure, failureCodeOf } from '../shared/ports.ts';
import type {
  ActionDraft,
  ActionFieldErrors,
  ActionResult,
  ActionRequest,
  FieldRule,
  ProctorContext,
  ProctorEvent,
  PupilActionKind,
  RestoredSession,
  RosterResult,
  StaffLoginField,
} from './proctor.types.ts';

/** The longest wait between two polls while the connection is lost. */
export const POLL_BACKOFF_MAX_MS = 30_000;

/** The wait before the next poll: ROSTER_POLL_MS, then 5 s, 10 s, 20 s, 30 s... after failures. */
export function pollDelayMs(failures: number): number {
  return backoffMs(failures - 1, { firstMs: ROSTER_POLL_MS, maxMs: POLL_BACKOFF_MAX_MS });
}

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
 * - extend: while the sitting is in the exam (DOING);
 * - retake: in the exam, or finished and not yet released.
 */
export function actionsFor(pupil: RosterPupil): PupilActionKind[] {
  const actions: PupilActionKind[] = [];
  if (pupil.state === 'in_exam' || pupil.state === 'offline') actions.push('move_terminal');
  if (isInExam(pupil)) actions.push('extend');
  if (isInExam(pupil) || (pupil.state === 'finished' && pupil.status !== RESULT_PUBLIC)) actions.push('retake');
  return actions;
}

/** The roster's pupils in the room the filter shows (every room: all of them). */
export function visiblePupils(context: Pick<ProctorContext, 'roster' | 'venueId'>): RosterPupil[] {
  const pupils = context.roster?.pupils ?? [];
  return context.venueId === null ? pupils : pupils.filter((p) => p.venue?.id === context.venueId);
}

/** The rooms the roster's pupils sit in, by name. */
export function roomsOf(roster: RosterResponse | null): Array<{ id: number; name: string }> {
  const rooms = new Map<number, string>();
  for (const pupil of roster?.pupils ?? []) if (pupil.venue) rooms.set(pupil.venue.id, pupil.venue.name);
  return [...rooms].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Minutes as typed in the confirm step: whole minutes from 1 to 60. */
const MinutesFieldSchema = v.pipe(
  v.string(),
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

/** A list (the schedules, the audit trail) that could not be loaded: it says so, with "Try again". */
const listFailed = { tags: ['error'], on: { 'retry.requested': 'loading' } } as const;

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
              pupilsInExam: visiblePupils(context).filter(isInExam).length,
            }
          : (() => {
              const pupil = context.roster?.pupils.find((p) => p.schedule_history_id === event.sittingId);
              return {
                kind: event.kind,
                sittingId: event.sittingId,
                examineeName: pupil?.examinee_name ?? null,
                answersSaved: pupil?.answers_saved ?? 0,
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
      return checked.ok ? { pending: checked.request, fieldErrors: {} } : {};
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
    isKnownVenue: ({ context, event }) =>
      event.type === 'venue.chosen' && (event.venueId === null || roomsOf(context.roster).some((r) => r.id === event.venueId)),
    canRequestAction: ({ context, event }) => {
      if (event.type !== 'action.requested') return false;
      if (event.kind === 'extend_room') return visiblePupils(context).some(isInExam);
      const pupil = context.roster?.pupils.find((p) => p.schedule_history_id === event.sittingId);
      return pupil !== undefined && actionsFor(pupil).includes(event.kind);
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
      on: {
        // An open confirm step is dropped: signing out is not a way to send it.
        'logout.requested': { target: '#proctor.signingOut', actions: 'clearDraft' },
      },
      states: {
        schedules: {
          initial: 'loading',
          states: {
            loading: {
              tags: ['busy'],
              invoke: {
                id: 'loadSchedules',
                src: 'loadSchedules',
                input: ({ context }) => ({ token: context.token! }),
                onDone: { target: 'ready', actions: 'assignSchedules' },
                onError: [
                  signOutOnRefusal,
                  { target: 'failed', actions: 'assignFailure' },
                ],
              },
            },
            failed: listFailed,
            ready: {
              on: {
                'schedule.chosen': { guard: 'isKnownSchedule', target: '#proctor.signedIn.watching', actions: 'chooseSchedule' },
                // "Refresh": schedules are added during the day.
                'retry.requested': 'loading',
              },
            },
          },
        },
        watching: {
          type: 'parallel',
          on: {
            'venue.chosen': { guard: 'isKnownVenue', actions: 'chooseVenue' },
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
          initial: 'loading',
          on: {
            'audit.closed': 'watching',
          },
          states: {
            loading: {
              tags: ['busy'],
              invoke: {
                id: 'loadAudit',
                src: 'loadAudit',
                input: ({ context }) => ({ token: context.token!, code: context.scheduleCode! }),
                onDone: { target: 'ready', actions: 'assignAudit' },
                onError: [
                  signOutOnRefusal,
                  { target: 'failed', actions: 'assignFailure' },
                ],
              },
            },
            failed: listFailed,
            ready: {
              on: { 'retry.requested': 'loading' },
            },
          },
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
