/**
 * The retry machine as the actor of one call: `withRetry(call)` is the machine with its `call`
 * provided, tried again on network failures and asking the pupil when that takes too long. The
 * machine that invokes it (the exam: exam.actors.ts) gives the call; the retry machine has no
 * call of its own.
 */
import type { AnyActorLogic, PromiseActorLogic } from 'xstate';
import { retryMachine, withinWindow } from './retry.machine.ts';
import type { RetryInput, RetryOutput } from './retry.types.ts';

/**
 * `call` run inside the retry machine; `windowMs` overrides its backoff window (the UI-level
 * tests use 0). The invoking machine declares such an actor by what it outputs (RetryOutput), so
 * its tests can fake it as a promise; the child is really the machine.
 */
export function withRetry(call: AnyActorLogic, windowMs?: number): PromiseActorLogic<RetryOutput, RetryInput> {
  const provided = retryMachine.provide({
    actors: { call },
    ...(windowMs === undefined ? {} : { guards: { isWithinWindow: ({ context }) => withinWindow(context, windowMs) } }),
  });
  return provided as unknown as PromiseActorLogic<RetryOutput, RetryInput>;
}
