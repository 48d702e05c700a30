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
 * Live updates: the chosen room's roster (every room: the schedule's) is asked for in full once,
 * then every ROSTER_POLL_MS only its changes since the last answer's cursor (contract/admin.ts says
 * why polling rather than server-sent events), merged into the rows held (proctor.rules.ts
 * `mergeRoster`); an answer with no change only marks the roster current. A failed poll keeps the
 * last roster on screen, says since when it is not current, and tries again with a growing wait
 * (at most POLL_BACKOFF_MAX_MS): never a dead end; a cursor the server refuses
 * (ROSTER_CURSOR_INVALID) is dropped and the next poll asks in full. Choosing another room asks
 * for its roster in full at once.
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
import { enqueueActions } from 'xstate';
import { listStates, proctorSetup, signOutOnRefusal, signedOutContext } from './proctor.setup.ts';

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
  mergeRoster,
  roomFactsOf,
  rosterFilters,
  canAskAction,
  checkConfirmation,
  checkStaffLogin,
  confirmedAtOf,
  isInExam,
  pupilsToExtend,
  roomsOf,
  serverNow,
  shownState,
  unavailableActions,
  uploadWindowOf,
  visiblePupils,
} from './proctor.rules.ts';

export { POLL_BACKOFF_MAX_MS, pollDelayMs } from './proctor.setup.ts';

export const proctorMachine = proctorSetup.createMachine({
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
          {
            guard: { type: 'hasStoredSession', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'assignRestored', params: ({ event }) => event.output! },
          },
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
          actions: [
            { type: 'assignSignedIn', params: ({ event }) => event.output },
            { type: 'storeToken', params: ({ event }) => ({ token: event.output.access_token }) },
          ],
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
            // Another room: its roster in full at once, then its changes (the room watched already: nothing to do).
            'venue.chosen': { guard: 'isOtherKnownVenue', actions: ['chooseVenue', 'requestRosterRefresh'] },
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
                    input: ({ context }) => ({ token: context.token!, code: context.scheduleCode!, venueId: context.venueId, since: context.cursor }),
                    onDone: { target: 'waiting', actions: { type: 'assignRoster', params: ({ event }) => event.output } },
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
                    onDone: { target: 'idle', actions: [{ type: 'assignOutcome', params: ({ event }) => event.output }, 'requestRosterRefresh'] },
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
