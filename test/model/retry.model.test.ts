/**
 * The retry machine walked transition by transition, for each of its variants: the call's
 * outcome and every backoff timer are explicit events of the path.
 */
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { retryMachine } from '../../machines/retry/retry.machine.ts';
import { selectRetryDialog } from '../../machines/retry/retry.selectors.ts';
import type { RetryContext, RetryInput } from '../../machines/retry/retry.types.ts';
import { backoffMs } from '../../machines/shared/backoff.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

const machine = retryMachine.provide({ actors: { call: never() } });

/** A window of 3 s: waits of 1 s and 2 s fit, the third (4 s) does not. */
const windowMs = 3_000;
const inputs: RetryInput[] = (['checkConnection', 'autoConnect'] as const).map((variant) => ({
  variant,
  input: { scheduleHistoryId: 7 },
  windowMs,
}));

describeModel({
  name: 'retry',
  machine,
  inputs,
  samples: {
    'xstate.done.actor.call': [{ type: 'xstate.done.actor.call', output: { answer_count: 3 } }],
    'xstate.error.actor.call': [
      { type: 'xstate.error.actor.call', error: new ApiFailure('NETWORK_ERROR') },
      { type: 'xstate.error.actor.call', error: new ApiFailure('TIMEOUT') },
      { type: 'xstate.error.actor.call', error: new ApiFailure('GENERIC_ERROR', 500) },
    ],
  },
  contextKey: (context) => {
    const c = context as unknown as RetryContext;
    return { attempt: Math.min(c.attempt, 4), error: c.error };
  },
  invariants: (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as RetryContext;
    const dialog = selectRetryDialog(snapshot as never);
    // Server answers are never tried again: a refusal ends the machine at once.
    if (context.error && context.error !== 'NETWORK_ERROR' && context.error !== 'TIMEOUT') {
      expect(snapshot.status).toBe('done');
    }
    // The backoff never waits more than the window in total; the pupil is asked only once it is used up.
    expect(context.waitedMs).toBeLessThanOrEqual(context.windowMs);
    if (snapshot.matches('offline')) {
      expect(context.waitedMs + backoffMs(context.attempt)).toBeGreaterThan(context.windowMs);
      expect(dialog).toEqual({ kind: context.variant === 'autoConnect' ? 'retry' : 'checkConnection' });
    }
    // The output says how the call ended.
    if (snapshot.status === 'done') {
      const output = snapshot.output as { ok: boolean; error?: string };
      expect(output.ok).toBe(snapshot.matches('succeeded'));
      if (!output.ok) expect(output.error).toBe(context.error);
    }
  },
});
