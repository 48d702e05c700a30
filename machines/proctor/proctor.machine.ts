/**
 * The proctor machine: the staff side of exam day on /proctor. It owns the
 * staff session (its own token under its own storage key, never the pupil's), the choice of a
 * schedule, the live roster of that schedule, the confirm step of every action, and the audit
 * trail the page shows.
 *
 * Top states: restoring (a stored staff token is checked with GET /admin/me) -> signedOut (the
 * staff login form) | signedIn; restoreFailed offers a retry. signedOut -> signingIn ->
 * signedIn (an administrator's also runs the child `administration`). signedIn: schedules
 * (loading, failed, ready: the list or its empty state) -> watching (parallel: `roster` polls,
 * `action` runs the confirm step) <-> audit (loading, failed, ready). signedIn -> signingOut ->
 * signedOut.
 *
 * Where each part lives: this file has the states; `proctor.setup.ts` the actors, actions,
 * guards and delays by name, the context a schedule starts from and the poll's backoff;
 * `proctor.rules.ts` the pure rules they decide with (re-exported here for the page and the
 * tests); `proctor.types.ts` the context, events and the edge's AdminPort; `proctor.actors.ts`
 * the admin calls and the staff token's storage; `proctor.selectors.ts` snapshot to view;
 * `proctor.connect.ts` what the page renders and may send.
 *
 * How the roster stays live, and the invariants: machines/proctor/README.md.
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
