/**
 * The retry machine's own roles: `withRetry` (retry.actors.ts, the machine with the parent's
 * call) and `connectRetryDialog` (retry.connect.ts, what the dialog renders and sends), on real
 * retry actors. The dialog follows the machine: none while the first try runs, "connecting" while
 * a failed call is tried again, the variant's dialog once the window is used up; its buttons send
 * the parent's events; an unchanged dialog is the same value.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { withRetry } from '../../machines/retry/retry.actors.ts';
import { connectRetryDialog, type RetryDialogEvent } from '../../machines/retry/retry.connect.ts';
import type { retryMachine } from '../../machines/retry/retry.machine.ts';
import type { RetryInput, RetryVariant } from '../../machines/retry/retry.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';

/** Starts `withRetry`'s logic (declared as a promise of its output) as the retry machine it is. */
const start = (logic: ReturnType<typeof withRetry>, input: RetryInput) =>
  createActor(logic as unknown as typeof retryMachine, { input }).start();

/** A retry actor whose call fails on the network every time, in a window of `windowMs`. */
function failing(variant: RetryVariant, windowMs: number | undefined) {
  const call = fromPromise(() => Promise.reject(new ApiFailure('NETWORK_ERROR')));
  return start(withRetry(call, windowMs), { variant, input: { scheduleHistoryId: 7 } });
}

const offline = (actor: ReturnType<typeof start>) => waitFor(actor, (s) => s.matches('offline'));

describe('withRetry: the retry machine with the parent call', () => {
  it('outputs the call\'s value when it succeeds', async () => {
    const call = fromPromise(async ({ input }: { input: unknown }) => ({ echoed: input }));
    const actor = start(withRetry(call), { variant: 'autoConnect', input: 42 });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.output).toEqual({ ok: true, value: { echoed: 42 } });
  });

  it('asks the pupil at once when its window is 0, and tries the call again on Retry', async () => {
    let calls = 0;
    const call = fromPromise(() => {
      calls += 1;
      return Promise.reject(new ApiFailure('NETWORK_ERROR'));
    });
    const actor = start(withRetry(call, 0), { variant: 'autoConnect', input: null });
    await offline(actor);
    expect(calls).toBe(1);
    actor.send({ type: 'retry.requested' });
    await waitFor(actor, (s) => s.matches('offline') && calls === 2);
    expect(calls).toBe(2);
  });

  it('keeps the machine\'s own window when none is given (it waits, then tries again)', async () => {
    vi.useFakeTimers();
    try {
      const actor = failing('autoConnect', undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().matches('waiting')).toBe(true);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('connectRetryDialog', () => {
  it('shows nothing without a retry machine, or while the first try runs', () => {
    expect(connectRetryDialog(undefined, () => {})).toBeNull();
    const pending = start(withRetry(fromPromise(() => new Promise(() => {}))), { variant: 'autoConnect', input: null });
    expect(connectRetryDialog(pending.getSnapshot(), () => {})).toBeNull();
    pending.stop();
  });

  it('says "connecting" while a failed call waits to be tried again', async () => {
    vi.useFakeTimers();
    try {
      const actor = failing('checkConnection', undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(connectRetryDialog(actor.getSnapshot(), () => {})?.view).toEqual({ kind: 'connecting' });
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives each variant its dialog once the window is used up, and the buttons send the parent\'s events', async () => {
    const auto = failing('autoConnect', 0);
    const check = failing('checkConnection', 0);
    await Promise.all([offline(auto), offline(check)]);
    const sent: RetryDialogEvent[] = [];
    const send = (event: RetryDialogEvent) => void sent.push(event);
    const api = connectRetryDialog(auto.getSnapshot(), send)!;
    expect(api.view).toEqual({ kind: 'retry' });
    expect(connectRetryDialog(check.getSnapshot(), send)?.view).toEqual({ kind: 'checkConnection' });
    api.retry();
    api.close();
    expect(sent).toEqual([{ type: 'retry.requested' }, { type: 'dialog.closed' }]);
  });

  it('gives the same view and handlers for an unchanged dialog and the same send', async () => {
    const actor = failing('autoConnect', 0);
    await offline(actor);
    const send = () => {};
    const first = connectRetryDialog(actor.getSnapshot(), send)!;
    const second = connectRetryDialog(actor.getSnapshot(), send)!;
    expect(second.view).toBe(first.view);
    expect(second.retry).toBe(first.retry);
    expect(second.close).toBe(first.close);
    const other = connectRetryDialog(actor.getSnapshot(), () => {})!;
    expect(other.retry).not.toBe(first.retry);
  });

  it('shows nothing once the call has given up (OK in checkConnection)', async () => {
    const actor = failing('checkConnection', 0);
    await offline(actor);
    actor.send({ type: 'dialog.closed' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(connectRetryDialog(actor.getSnapshot(), () => {})).toBeNull();
  });
});
