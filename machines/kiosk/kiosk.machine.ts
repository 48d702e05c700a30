/**
 * The kiosk machine: the root of the app. It composes the domain machines (session always;
 * exam while an examinee is signed in), forwards what the pupil does to the machine that owns
 * it, and turns every location change into an event that machine judges.
 *
 * Top states: visitor (the session machine's screens) -> examinee (the exam machine's screens).
 * Invariants:
 * - exactly one child decides the current screen: session while visitor, exam while examinee;
 * - a URL becomes `xstate.route` only for a routable state of the active child; any other URL
 *   is reported as unmatched, and the child decides (stay, log in, /404);
 * - storage is written only by the session machine (the exam reports progress through here).
 */
import { enqueueActions, forwardTo, sendTo, setup, assign, type AnyStateMachine } from 'xstate';
import { examMachine } from '../exam/exam.machine.ts';
import { sessionMachine } from '../session/session.machine.ts';
import type { KioskContext, KioskEvent, KioskInput } from './kiosk.types.ts';
import { routeTableOf } from './routes.ts';

const sessionRoutes = routeTableOf(sessionMachine as AnyStateMachine);
const examRoutes = routeTableOf(examMachine as AnyStateMachine);
/** Paths that belong to the app; anything else is unknown (-> /404 for visitors). */
export const knownPaths: ReadonlySet<string> = new Set(['/', ...sessionRoutes.paths, ...examRoutes.paths]);

function routeEvent(routes: ReturnType<typeof routeTableOf>, path: string) {
  const id = routes.routable.get(path);
  return id
    ? ({ type: 'xstate.route', to: `#${id}` } as const)
    : ({ type: 'location.unmatched', path, known: knownPaths.has(path) } as const);
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
      enqueue.sendTo('session', routeEvent(sessionRoutes, event.path) as never);
    }),
    routeToExam: enqueueActions(({ enqueue, event }) => {
      if (event.type !== 'location.changed') return;
      enqueue.sendTo('exam', routeEvent(examRoutes, event.path) as never);
    }),
  },
}).createMachine({
  id: 'kiosk',
  context: ({ input }) => ({ session: null, restoredSession: input.storedSession }),
  invoke: {
    id: 'session',
    src: 'session',
    input: ({ context }) => ({ storedSession: context.restoredSession }),
  },
  initial: 'visitor',
  on: {
    'loginCode.submitted': { actions: forwardTo('session') },
    'login.requested': { actions: forwardTo('session') },
  },
  states: {
    visitor: {
      on: {
        'session.signedIn': {
          target: 'examinee',
          actions: assign({ session: ({ event }) => event.session }),
        },
        'location.changed': { actions: 'routeToSession' },
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
        'exam.logoutRequested': { actions: sendTo('session', { type: 'logout.requested' }) },
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
        'finish.requested': { actions: forwardTo('exam') },
        'finish.cancelled': { actions: forwardTo('exam') },
        'finish.confirmed': { actions: forwardTo('exam') },
        'logout.requested': { actions: forwardTo('exam') },
      },
    },
  },
});
