/**
 * The connectivity machine: the terminal check on /checking-domain-connection (seed
 * sections 2 and 7), which a lab teacher runs on each terminal before exam day. It owns one
 * round of checks at a time and each check's result; the kiosk runs it as its child `connectivity`
 * while that page is shown and leaves it when it is done (the teacher pressed "Back").
 *
 * The checks, in order: the API host (GET <API base>/health), the front host (the app's index),
 * KaTeX's script and stylesheet as this build loads them, the terminal's clock against the
 * server's, storage for the answer outbox (room left and an IndexedDB round trip), the offline
 * shell (the service worker in control of the page) and the fonts of the interface language.
 *
 * Top states: checking (one substate per check, run one after another so each time measured is
 * the check's alone, not shared with the others' downloads) -> done; done -> checking on "Check
 * again"; done -> checking.fonts when the language changes; any -> closed (final) on "Back".
 *
 * Invariants:
 * - every check ends: with its actor's result, as `broken` if the actor failed, or as a time-out
 *   after CHECK_TIMEOUT_MS (the actor is stopped, and its browser work aborted, with it);
 * - while checking, the checks before the running one have results, it and those after have
 *   none; in done every check has its result (never a dead end: "Check again" and "Back");
 * - a new round forgets every result of the last one first: nothing on screen is from an older
 *   round than it says;
 * - the machine writes nothing: no storage key of the pupil's (or anyone's) is touched; the
 *   storage check's round trip uses its own IndexedDB database (the edge's).
 */
import { assign, fromPromise, setup, type DoneActorEvent } from 'xstate';
import { CHECK_TIMEOUT_MS, broken, timedOut } from './connectivity.rules.ts';
import { checkIds, type CheckId, type CheckResult, type ConnectivityContext, type ConnectivityEvent } from './connectivity.types.ts';

/** The check's page (seed section 2: `checking-domain-connection`, a child of the main wrapper). */
export const CHECK_PATH = '/checking-domain-connection';

/** No result yet for any check. */
export const noResults = (): Record<CheckId, CheckResult | null> =>
  Object.fromEntries(checkIds.map((id) => [id, null])) as Record<CheckId, CheckResult | null>;

/** The actor (and invoke id) of each check. */
export const actorOf = {
  api: 'checkApi',
  front: 'checkFront',
  mathScript: 'checkMathScript',
  mathStyle: 'checkMathStyle',
  clock: 'checkClock',
  storage: 'checkStorage',
  offlineShell: 'checkOfflineShell',
  fonts: 'checkFonts',
} as const satisfies Record<CheckId, string>;

const unprovided = (name: string) =>
  fromPromise<CheckResult>(async () => {
    throw new Error(`${name} is provided by the edge (connectivity.actors.ts)`);
  });

/** One check's state: its actor, its time-out, and where the round goes next. */
function step<C extends CheckId>(check: C, next: string) {
  const record = {
    type: 'recordResult',
    params: ({ event }: { event: DoneActorEvent<CheckResult> }) => ({ check, result: event.output }),
  } as const;
  return {
    invoke: {
      id: actorOf[check] as (typeof actorOf)[C],
      src: actorOf[check] as (typeof actorOf)[C],
      onDone: { target: next, actions: record },
      onError: { target: next, actions: { type: 'recordBroken', params: { check } } as const },
    },
    after: { checkTimeout: { target: next, actions: { type: 'recordTimeout', params: { check } } as const } },
  };
}

export const connectivityMachine = setup({
  types: {
    context: {} as ConnectivityContext,
    events: {} as ConnectivityEvent,
  },
  actors: {
    /** GET <API base>/health, judged. */
    checkApi: unprovided('checkApi'),
    /** GET the app's index from the front host, judged. */
    checkFront: unprovided('checkFront'),
    /** GET KaTeX's script chunk of this build, judged. */
    checkMathScript: unprovided('checkMathScript'),
    /** GET KaTeX's stylesheet of this build, judged. */
    checkMathStyle: unprovided('checkMathStyle'),
    /** The server's time (GET /health) against this terminal's clock. */
    checkClock: unprovided('checkClock'),
    /** navigator.storage.estimate and an IndexedDB write, read and delete. */
    checkStorage: unprovided('checkStorage'),
    /** The service worker: registered, active, in control of this page. */
    checkOfflineShell: unprovided('checkOfflineShell'),
    /** The interface language's sample drawn without missing-glyph boxes. */
    checkFonts: unprovided('checkFonts'),
  },
  actions: {
    recordResult: assign(({ context }, params: { check: CheckId; result: CheckResult }) => ({
      results: { ...context.results, [params.check]: params.result },
    })),
    recordBroken: assign(({ context }, params: { check: CheckId }) => ({
      results: { ...context.results, [params.check]: broken() },
    })),
    recordTimeout: assign(({ context }, params: { check: CheckId }) => ({
      results: { ...context.results, [params.check]: timedOut(params.check) },
    })),
    forgetResults: assign({ results: () => noResults() }),
    forgetFonts: assign(({ context }) => ({ results: { ...context.results, fonts: null } })),
  },
  delays: {
    checkTimeout: CHECK_TIMEOUT_MS,
  },
}).createMachine({
  id: 'connectivity',
  context: { results: noResults() },
  // One page: the seed's route (section 2), public, no login needed.
  meta: { path: CHECK_PATH, screen: 'connectivity' },
  initial: 'checking',
  on: {
    'check.closed': '.closed',
  },
  states: {
    checking: {
      tags: ['busy'],
      initial: 'api',
      states: {
        api: step('api', 'front'),
        front: step('front', 'mathScript'),
        mathScript: step('mathScript', 'mathStyle'),
        mathStyle: step('mathStyle', 'clock'),
        clock: step('clock', 'storage'),
        storage: step('storage', 'offlineShell'),
        offlineShell: step('offlineShell', 'fonts'),
        fonts: {
          ...step('fonts', '#connectivity.done'),
          on: {
            // The fonts under way are the old language's: check the new one's instead.
            'language.changed': { target: 'fonts', reenter: true },
          },
        },
      },
    },
    done: {
      on: {
        'check.requested': { target: 'checking', actions: 'forgetResults' },
        // Only the fonts depend on the language; the other results still hold.
        'language.changed': { target: 'checking.fonts', actions: 'forgetFonts' },
      },
    },
    closed: { type: 'final' },
  },
});
