/**
 * The kiosk machine: the root of the app. It composes the domain machines (session always;
 * exam once a signed-in examinee's schedule history is known) and turns every location change
 * into an event the active one judges. What the pupil does goes from each screen straight to the
 * machine that owns it (its `connect`); the frame's own events (the terminal check) come here.
 *
 * Top states: visitor (the session machine's screens: the login pages and entry routes, and
 * after sign-in the basic information, testing menu and exam list) -> examinee (the exam
 * machine's screens, from login-confirm on); visitor <-> proctor (the staff page /proctor, its
 * own machine, invoked as the child `proctor` while the location is /proctor and left for the
 * session's screens at any other location; a pupil in the exam never reaches it); visitor <->
 * connectivity (the terminal check /checking-domain-connection, public: its own machine, invoked
 * as the child `connectivity` when a login screen's "Check this terminal" asks for it or the URL
 * is typed, and left when it is done, at any other location, or for the exam when a login sent
 * before it was opened goes through).
 * Invariants:
 * - exactly one child decides the current screen: session while visitor, exam while examinee,
 *   proctor while proctor, connectivity while connectivity (the session keeps running under
 *   those two, untouched: a pupil's stored session survives a terminal check);
 * - a URL becomes `xstate.route` only for a routable state of the active child; any other URL
 *   is reported as unmatched with its query, and the child decides (stay, log in, /403, /404);
 * - the pupil's storage is written only by the session machine (the exam reports progress
 *   through here); the proctor machine writes only its own staff token key.
 */
import { enqueueActions, not, sendTo, setup, assign, type AnyStateMachine } from 'xstate';
import { documentRequestOf } from '../document/document.rules.ts';
import { sessionMachine } from '../session/session.machine.ts';
import { allEntryPaths } from '../session/session.rules.ts';
import { lazyMachine } from '../shared/lazy-machine.ts';
import { connectivityRouteTable, examRouteTable, proctorRouteTable } from './child-routes.ts';
import { connectivityModules, documentModules, examModules, proctorModules } from './kiosk.lazy.ts';
import type { KioskContext, KioskEvent, KioskInput } from './kiosk.types.ts';
import { matchesPath, routeTableOf } from './routes.ts';

const sessionRoutes = routeTableOf(sessionMachine as AnyStateMachine);
// The exam, proctor, terminal check and document load on demand (kiosk.lazy.ts): their route
// tables are written out (child-routes.ts, held equal to their machines by a test).
const examRoutes = examRouteTable;
/** The proctor page's path (the proctor machine's `meta.path`: /proctor). */
const proctorPaths = proctorRouteTable.paths;
/** The terminal check's path (the connectivity machine's `meta.path`: /checking-domain-connection). */
const connectivityPaths = connectivityRouteTable.paths;
/** Paths that belong to the app; anything else is unknown (-> /404 for visitors). */
export const knownPaths: ReadonlySet<string> = new Set([
  '/',
  ...sessionRoutes.paths,
  ...examRoutes.paths,
  ...allEntryPaths,
  ...proctorPaths,
  ...connectivityPaths,
]);

/** Known: a path of the app, or one of its patterns (`/score-report/$id`). */
function isKnownPath(path: string): boolean {
  if (knownPaths.has(path)) return true;
  for (const pattern of knownPaths) if (pattern.includes('$id') && matchesPath(pattern, path)) return true;
  return false;
}

function routeEvent(routes: ReturnType<typeof routeTableOf>, path: string, search: Record<string, string> = {}) {
  const id = routes.routable.get(path);
  return id
    ? ({ type: 'xstate.route', to: `#${id}` } as const)
    : ({ type: 'location.unmatched', path, known: isKnownPath(path), search } as const);
}

export const kioskMachine = setup({
  types: {
    context: {} as KioskContext,
    events: {} as KioskEvent,
    input: {} as KioskInput,
    children: {} as { session: 'session'; exam: 'exam'; document: 'document'; proctor: 'proctor'; connectivity: 'connectivity' },
  },
  actors: {
    session: sessionMachine,
    // Loaded when first invoked, if not before (machines/shared/lazy-machine.ts); createKioskMachine
    // provides them with their real calls.
    exam: lazyMachine(examModules, ([module]) => module.examMachine),
    document: lazyMachine(documentModules, ([module]) => module.documentMachine),
    proctor: lazyMachine(proctorModules, ([module]) => module.proctorMachine),
    connectivity: lazyMachine(connectivityModules, ([module]) => module.connectivityMachine),
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
    // The print route of seed section 2 (score-report-embed/{id}): its login is the token in its
    // URL. Without one the session judges it (rule 7: /403, session.rules.ts `protectedPaths`).
    isDocumentLocation: ({ event }) =>
      event.type === 'location.changed' && (documentRequestOf(event.path, event.search)?.token ?? null) !== null,
    hasScheduleHistory: ({ event }) => event.type === 'session.signedIn' && event.session.schedule_history_id !== null,
    isProctorLocation: ({ event }) => event.type === 'location.changed' && proctorPaths.has(event.path),
    isConnectivityLocation: ({ event }) => event.type === 'location.changed' && connectivityPaths.has(event.path),
  },
}).createMachine({
  id: 'kiosk',
  context: ({ input }) => ({
    session: null,
    restoredSession: input.storedSession,
    storedToken: input.storedToken ?? null,
    storedErrorCode: input.storedErrorCode ?? null,
    appOrigin: input.appOrigin ?? 'http://localhost',
  }),
  invoke: {
    id: 'session',
    src: 'session',
    input: ({ context }) => ({
      storedSession: context.restoredSession,
      storedToken: context.storedToken,
      storedErrorCode: context.storedErrorCode,
      appOrigin: context.appOrigin,
    }),
  },
  initial: 'visitor',
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
        'location.changed': [
          { guard: 'isDocumentLocation', target: 'document' },
          { guard: 'isProctorLocation', target: 'proctor' },
          { guard: 'isConnectivityLocation', target: 'connectivity' },
          { actions: 'routeToSession' },
        ],
        // "Check this terminal" on a login screen: the check, whatever the session is doing.
        'connectivity.requested': { target: 'connectivity' },
      },
    },
    examinee: {
      invoke: {
        id: 'exam',
        src: 'exam',
        input: ({ context }) => ({ session: context.session! }),
      },
      entry: sendTo('exam', { type: 'INIT_TEST' }),
      // What the pupil does in the exam (its screens, the retry dialog) and the browser back online
      // go to the exam actor itself (machines/exam/exam.connect.ts, src/main.tsx), never through here.
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
      },
    },
    // A score report or certificate for printing: the document machine decides what it shows.
    document: {
      invoke: {
        id: 'document',
        src: 'document',
        input: ({ event }) =>
          documentRequestOf(event.type === 'location.changed' ? event.path : '', event.type === 'location.changed' ? event.search : {})!,
      },
    },
    // The staff page: its screens talk to the proctor actor itself (the kiosk's child `proctor`).
    proctor: {
      invoke: { id: 'proctor', src: 'proctor' },
      on: {
        // Any other path is the pupil's kiosk again: the session judges it (its own path changes nothing).
        'location.changed': { guard: not('isProctorLocation'), target: 'visitor', actions: 'routeToSession' },
      },
    },
    // The terminal check: its screen talks to the connectivity actor itself (the kiosk's child
    // `connectivity`); when the teacher is done ("Back") the session's screen shows again.
    connectivity: {
      invoke: { id: 'connectivity', src: 'connectivity', onDone: 'visitor' },
      on: {
        'location.changed': { guard: not('isConnectivityLocation'), target: 'visitor', actions: 'routeToSession' },
        // A login sent before the check was opened has gone through: the pupil's exam comes first.
        'session.signedIn': {
          guard: 'hasScheduleHistory',
          target: 'examinee',
          actions: assign({ session: ({ event }) => event.session }),
        },
      },
    },
  },
});
