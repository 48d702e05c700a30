/**
 * The session machine: who is logged in on this terminal.
 *
 * Owns every way in (login code for now), the entry guards for visitors (seed section 2,
 * rule 5: a protected path without a token lands on the login page; an unknown path on
 * /404) and every way out (logout wipes everything of the examinee from storage).
 *
 * Top states: checking (boot) -> signedOut (loginCode | notFound) -> signedIn -> signingOut.
 * Invariants:
 * - a session is in context exactly while signedIn or signingOut;
 * - storage is written on sign-in and wiped on sign-out by this machine only;
 * - routes to the public screens are taken only while signed out.
 */
import { assign, fromPromise, sendParent, setup } from 'xstate';
import { normalizeLoginCode, type ExamineeSession, type LoginResponse } from '../../src/shared/contract.ts';
import { failureCodeOf } from '../shared/ports.ts';
import { uuidV4 } from '../shared/uuid.ts';
import type { SessionContext, SessionEvent, SessionInput, SessionParentEvent } from './session.types.ts';

/** Builds the stored session from the server's login answer (seed section 3). */
export function sessionFromLogin(response: LoginResponse, uuid: string): ExamineeSession {
  return {
    ...response.examinee,
    token: response.access_token,
    uuid,
    question_index: 0,
    question_list_flag: false,
    alphabets_keyboard_flag: false,
    mode_upper_case_flag: false,
    is_completed: false,
    error_code: null,
  };
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    /** POST /login with a login code; provided by the edge (session.actors.ts). */
    loginWithCode: fromPromise<LoginResponse, { code: string }>(async () => {
      throw new Error('loginWithCode is provided by the edge');
    }),
    /** POST /logout: ends the token on the server; failures do not keep anyone logged in. */
    endServerSession: fromPromise<void, void>(async () => {
      throw new Error('endServerSession is provided by the edge');
    }),
  },
  actions: {
    /** Writes the session to storage; provided by the edge. */
    persistSession: (_, _params: { session: ExamineeSession }) => {
      throw new Error('persistSession is provided by the edge');
    },
    /** Removes everything of the examinee from storage; provided by the edge. */
    wipeSession: () => {
      throw new Error('wipeSession is provided by the edge');
    },
    /** Applies a stored-field change (question index, completion...); provided by the edge. */
    persistChange: (_, _params: { change: Partial<ExamineeSession> }) => {
      throw new Error('persistChange is provided by the edge');
    },
    notifySignedIn: sendParent(({ context }): SessionParentEvent => ({
      type: 'session.signedIn',
      session: context.session as ExamineeSession,
    })),
    notifySignedOut: sendParent((): SessionParentEvent => ({ type: 'session.signedOut' })),
    clearLoginError: assign({ loginError: null }),
  },
  guards: {
    hasStoredSession: ({ context }) => context.session !== null,
    isCodeMissing: ({ event }) => event.type === 'loginCode.submitted' && event.code.trim() === '',
    isCodeMalformed: ({ event }) =>
      event.type === 'loginCode.submitted' && normalizeLoginCode(event.code) === undefined,
    isSignedOut: ({ context }) => context.session === null,
    isUnknownPath: ({ event }) => event.type === 'location.unmatched' && !event.known,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ session: input.storedSession, loginError: null, pendingCode: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'hasStoredSession', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      initial: 'loginCode',
      on: {
        // Rule 5: a protected path without a token goes to the login page; unknown: /404.
        'location.unmatched': [
          { guard: 'isUnknownPath', target: '#sessionNotFound' },
          { target: '#sessionLoginCode' },
        ],
      },
      states: {
        loginCode: {
          id: 'sessionLoginCode',
          meta: { path: '/login-code', screen: 'login-code' },
          route: { guard: 'isSignedOut' },
          initial: 'editing',
          states: {
            editing: {
              on: {
                'loginCode.submitted': [
                  { guard: 'isCodeMissing', actions: assign({ loginError: { kind: 'field', rule: 'required' } }) },
                  { guard: 'isCodeMalformed', actions: assign({ loginError: { kind: 'field', rule: 'invalid' } }) },
                  {
                    target: 'submitting',
                    actions: assign({
                      loginError: null,
                      pendingCode: ({ event }) => normalizeLoginCode(event.code) ?? null,
                    }),
                  },
                ],
              },
            },
            submitting: {
              tags: ['busy'],
              invoke: {
                id: 'loginWithCode',
                src: 'loginWithCode',
                input: ({ context }) => ({ code: context.pendingCode ?? '' }),
                onDone: {
                  target: '#session.signedIn',
                  actions: [
                    assign({
                      session: ({ event }) => sessionFromLogin(event.output, uuidV4()),
                      pendingCode: null,
                    }),
                    { type: 'persistSession', params: ({ context }) => ({ session: context.session as ExamineeSession }) },
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: assign({
                    loginError: ({ event }) => ({ kind: 'failure', code: failureCodeOf(event.error) }),
                    pendingCode: null,
                  }),
                },
              },
            },
          },
        },
        notFound: {
          id: 'sessionNotFound',
          meta: { path: '/404', screen: 'not-found' },
          route: { guard: 'isSignedOut' },
          on: { 'login.requested': { target: 'loginCode', actions: 'clearLoginError' } },
        },
      },
    },
    signedIn: {
      entry: 'notifySignedIn',
      on: {
        'logout.requested': 'signingOut',
        'session.updated': {
          actions: [
            assign({
              session: ({ context, event }) => ({ ...(context.session as ExamineeSession), ...event.change }),
            }),
            { type: 'persistChange', params: ({ event }) => ({ change: event.change }) },
          ],
        },
      },
    },
    signingOut: {
      tags: ['busy'],
      // Storage is wiped first: whatever the server says, the next pupil finds nothing.
      entry: 'wipeSession',
      invoke: {
        id: 'endServerSession',
        src: 'endServerSession',
        onDone: 'signedOut',
        onError: 'signedOut',
      },
      exit: [assign({ session: null, loginError: null }), 'notifySignedOut'],
    },
  },
});
