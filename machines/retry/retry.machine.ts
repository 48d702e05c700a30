/**
 * The retry machine: runs one call (the `call` actor, provided by whoever invokes it) and,
 * while the network fails, runs it again with exponential backoff (seed section 7); when the
 * backoff window is used up, the retry dialog asks the pupil (seed section 4).
 *
 * Its work is given by its parent: it has no call of its own, so retry.actors.ts holds only
 * `withRetry(call)`, this machine with the parent's call provided. The dialog is bound by
 * retry.connect.ts; its events reach this machine through the parent that runs it.
 *
 * Top states: calling -> succeeded; calling -> waiting (backoff) -> calling; calling ->
 * offline (the dialog) -> calling (Retry, or the browser is online again) or failed (OK);
 * calling -> failed (the server answered with a refusal).
 *
 * Invariants:
 * - only network failures (NETWORK_ERROR, TIMEOUT) are tried again; a server's answer never is;
 * - the backoff waits 1 s, then doubles (machines/shared/backoff.ts), and never waits more than
 *   the window in total;
 * - OK exists only in the checkConnection variant, Retry only in autoConnect.
 *
 * The seed's third variant, "reconnects without a message" (section 4), is not this machine's:
 * it is the exam's background answer save (machines/exam, region `sync`), which tries again
 * quietly with the same backoff and never gives up. It cannot run here, because each try must
 * send the outbox's newest answer, while this machine calls again with the input it was given.
 */
import { assign, fromPromise, setup } from 'xstate';
import { backoffMs } from '../shared/backoff.ts';
import { failureCodeOf, failureOfEvent, isNetworkFailure } from '../shared/ports.ts';
import type { RetryContext, RetryEvent, RetryInput, RetryOutput } from './retry.types.ts';

/** Total window of the backoff before the pupil is asked. */
export const RETRY_WINDOW_MS = 60_000;

/** The wait before attempt `attempt + 1`: 1 s, 2 s, 4 s... */
function delayOf(context: RetryContext): number {
  return backoffMs(context.attempt);
}

/** Whether the next wait still fits in a window of `windowMs`. */
export function withinWindow(context: RetryContext, windowMs = context.windowMs): boolean {
  return context.waitedMs + delayOf(context) <= windowMs;
}

export const retryMachine = setup({
  types: {
    context: {} as RetryContext,
    events: {} as RetryEvent,
    input: {} as RetryInput,
    output: {} as RetryOutput,
  },
  actors: {
    /** The call to run; provided by the machine that invokes this one. */
    call: fromPromise<unknown, unknown>(async () => {
      throw new Error('call is provided by the invoking machine');
    }),
  },
  actions: {
    assignFailure: assign({ error: failureOfEvent }),
    startOver: assign({ attempt: 0, waitedMs: 0 }),
  },
  guards: {
    isNetworkFailure: (args) => isNetworkFailure(failureOfEvent(args)),
    // The next wait still fits in the window.
    isWithinWindow: ({ context }) => withinWindow(context),
    offersRetry: ({ context }) => context.variant === 'autoConnect',
    offersOk: ({ context }) => context.variant === 'checkConnection',
  },
  delays: {
    backoff: ({ context }) => delayOf(context),
  },
}).createMachine({
  id: 'retry',
  context: ({ input }) => ({
    variant: input.variant,
    input: input.input,
    windowMs: input.windowMs ?? RETRY_WINDOW_MS,
    attempt: 0,
    waitedMs: 0,
    error: null,
    result: null,
  }),
  initial: 'calling',
  states: {
    calling: {
      tags: ['busy'],
      invoke: {
        id: 'call',
        src: 'call',
        input: ({ context }: { context: RetryContext }) => context.input,
        onDone: {
          target: 'succeeded',
          actions: assign({ result: ({ event }) => ({ ok: true as const, value: event.output }) }),
        },
        onError: [
          {
            guard: 'isNetworkFailure',
            // Chosen below: wait and call again, or ask the pupil.
            target: 'failedOnNetwork',
            actions: 'assignFailure',
          },
          {
            target: 'failed',
            actions: [
              'assignFailure',
              assign({ result: ({ event }) => ({ ok: false as const, error: failureCodeOf(event.error) }) }),
            ],
          },
        ],
      },
    },
    failedOnNetwork: {
      always: [{ guard: 'isWithinWindow', target: 'waiting' }, { target: 'offline' }],
    },
    waiting: {
      tags: ['busy'],
      after: {
        backoff: {
          target: 'calling',
          actions: assign({
            waitedMs: ({ context }) => context.waitedMs + delayOf(context),
            attempt: ({ context }) => context.attempt + 1,
          }),
        },
      },
      on: { 'connection.restored': { target: 'calling', actions: 'startOver' } },
    },
    offline: {
      tags: ['dialog'],
      on: {
        'retry.requested': { guard: 'offersRetry', target: 'calling', actions: 'startOver' },
        'connection.restored': { target: 'calling', actions: 'startOver' },
        'dialog.closed': {
          guard: 'offersOk',
          target: 'failed',
          actions: assign({ result: ({ context }) => ({ ok: false as const, error: context.error ?? 'NETWORK_ERROR' }) }),
        },
      },
    },
    succeeded: { type: 'final' },
    failed: { type: 'final' },
  },
  output: ({ context }: { context: RetryContext }) => context.result ?? { ok: false, error: context.error ?? 'GENERIC_ERROR' },
});
