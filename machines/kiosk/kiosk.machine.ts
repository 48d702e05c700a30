/**
 * The kiosk machine: the root of the app. It composes the domain machines (session always;
 * exam once a signed-in examinee's schedule history is known), forwards what the pupil does to the machine that owns
 * it, and turns every location change into an event that machine judges.
 *
 * Top states: visitor (the session machine's screens: the login pages and entry routes, and
 * after sign-in the basic information, testing menu and exam list) -> examinee (the exam
 * machine's screens, from login-confirm on).
 * Invariants:
 * - exactly one child decides the current screen: session while visitor, exam while examinee;
 * - a URL becomes `xstate.route` only for a routable state of the active child; any other URL
 *   is reported as unmatched with its query, and the child decides (stay, log in, /403, /404);
 * - storage is written only by the session machine (the exam reports progress through here).
 */
import { enqueueActions, forwardTo, sendTo, setup, assign, type AnyStateMachine } from 'xstate';
import { examMachine } from '../exam/exam.machine.ts';
import { sessionMachine } from '../session/session.machine.ts';
import { allEntryPaths } from '../session/session.rules.ts';
import type { KioskContext, KioskEvent, KioskInput } from './kiosk.types.ts';
import { routeTableOf } from './routes.ts';

const sessionRoutes = routeTableOf(sessionMachine as AnyStateMachine);
const examRoutes = routeTableOf(examMachine as AnyStateMachine);
/** Paths that belong to the app; anything else is unknown (-> /404 for visitors). */
export const knownPaths: ReadonlySet<string> = new Set(['/', ...sessionRoutes.paths, ...examRoutes.paths, ...allEntryPaths]);

function routeEvent(routes: ReturnType<typeof routeTableOf>, path: string, search: Record<string, string> = {}) {
  const id = routes.routable.get(path);
  return id
    ? ({ type: 'xstate.route', to: `#${id}` } as const)
    : ({ type: 'location.unmatched', path, known: knownPaths.has(path), search } as const);
}

export const kioskMachine = setup({
  types: {
    context: {} as KioskContext,
    events: {} as KioskEvent,
    input: {} as KioskInput,
  },
  actors: {
    session: sessionMachine,
    exam: examMachine,
  },
  actions: {
    routeToSession: enqueueActions(({ enqueue, event }) => {
      if (event.type !== 'location.changed') return;
      enqueue.sendTo('session', routeEvent(sessionRoutes, event.path, event.search) as never);
    }),
    routeToExam: enqueueActions(({ enqueue, event }) => {
      if (event.type !== 'location.changed') return;
      enqueue.sendTo('exam', routeEvent(examRoutes, event.path, event.search) as never);
    }),
  },
  guards: {
    hasScheduleHistory: ({ event }) => event.type === 'session.signedIn' && event.session.schedule_history_id !== null,
  },
}).createMachine({
  id: 'kiosk',
  context: ({ input }) => ({
    session: null,
    restoredSession: input.storedSession,
    storedToken: input.storedToken ?? null,
    storedErrorCode: input.storedErrorCode ?? null,
  }),
  invoke: {
    id: 'session',
    src: 'session',
    input: ({ context }) => ({
      storedSession: context.restoredSession,
      storedToken: context.storedToken,
      storedErrorCode: context.storedErrorCode,
    }),
  },
  initial: 'visitor',
  on: {
    'loginCode.submitted': { actions: forwardTo('session') },
    'login.requested': { actions: forwardTo('session') },
    'login.submitted': { actions: forwardTo('session') },
    'basicInfo.changed': { actions: forwardTo('session') },
    'basicInfo.reviewed': { actions: forwardTo('session') },
    'basicInfo.edited': { actions: forwardTo('session') },
    'basicInfo.confirmed': { actions: forwardTo('session') },
    'basicInfo.acknowledged': { actions: forwardTo('session') },
    'test.chosen': { actions: forwardTo('session') },
    'exam.chosen': { actions: forwardTo('session') },
  },
  states: {
    visitor: {
      on: {
        // The exam machine starts only once a schedule history is known (an examinee login
        // chooses it on the exam list first).
        'session.signedIn': {
          guard: 'hasScheduleHistory',
          target: 'examinee',
          actions: assign({ session: ({ event }) => event.session }),
        },
        'location.changed': { actions: 'routeToSession' },
        'logout.requested': { actions: forwardTo('session') },
        'retry.requested': { actions: forwardTo('session') },
      },
    },
    examinee: {
      invoke: {
        id: 'exam',
        src: 'exam',
        input: ({ context }) => ({ session: context.session! }),
      },
      entry: sendTo('exam', { type: 'INIT_TEST' }),
      on: {
        'session.signedOut': { target: 'visitor', actions: assign({ session: null }) },
        'exam.logoutRequested': {
          actions: sendTo('session', ({ event }) => ({ type: 'logout.requested' as const, errorCode: event.errorCode })),
        },
        'exam.unauthorized': { actions: sendTo('session', { type: 'logout.requested' }) },
        'exam.progressed': {
          actions: sendTo('session', ({ event }) => ({ type: 'session.updated' as const, change: event.change })),
        },
        'location.changed': { actions: 'routeToExam' },
        'identity.confirmed': { actions: forwardTo('exam') },
        'identity.rejected': { actions: forwardTo('exam') },
        'retry.requested': { actions: forwardTo('exam') },
        'tutorial.completed': { actions: forwardTo('exam') },
        'start.confirmed': { actions: forwardTo('exam') },
        'answer.given': { actions: forwardTo('exam') },
        'question.next': { actions: forwardTo('exam') },
        'question.previous': { actions: forwardTo('exam') },
        'question.selected': { actions: forwardTo('exam') },
        'question.flagged': { actions: forwardTo('exam') },
        'questionList.toggled': { actions: forwardTo('exam') },
        'focus.lost': { actions: forwardTo('exam') },
        'finish.requested': { actions: forwardTo('exam') },
        'finish.cancelled': { actions: forwardTo('exam') },
        'finish.confirmed': { actions: forwardTo('exam') },
        'logout.requested': { actions: forwardTo('exam') },
        // The retry dialog's OK, and the browser back online (src/main.tsx).
        'dialog.closed': { actions: forwardTo('exam') },
        'connection.restored': { actions: forwardTo('exam') },
      },
    },
  },
});
