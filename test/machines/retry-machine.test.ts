/**
 * The retry machine (machines/retry/retry.machine.ts) stated outright, outside the model walk
 * (test/model/retry.model.test.ts): only network failures are tried again, the waits are 1 s,
 * 2 s, 4 s... (SimulatedClock: each wait is a step of the test) and fit the window exactly,
 * then the dialog asks the pupil: OK only in checkConnection, Retry only in autoConnect, and
 * the browser coming back online calls again at once with the backoff started over.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, toPromise, type AnyActorLogic } from 'xstate';
import { withRetry } from '../../machines/retry/retry.actors.ts';
import { connectRetryDialog } from '../../machines/retry/retry.connect.ts';
import { RETRY_WINDOW_MS, retryMachine, withinWindow } from '../../machines/retry/retry.machine.ts';
import { isNetworkFailure } from '../../machines/shared/ports.ts';
import { selectRetryDialog } from '../../machines/retry/retry.selectors.ts';
import type { RetryContext, RetryInput } from '../../machines/retry/retry.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';

/** The machine with a call that never settles (the test answers it) and a simulated clock. */
function start(input: RetryInput) {
  const calls: unknown[] = [];
  const clock = new SimulatedClock();
  const machine = retryMachine.provide({
    actors: {
      call: fromPromise<unknown, unknown>(({ input: callInput }) => {
        calls.push(callInput);
        return new Promise(() => {});
      }),
    },
  });
  const actor = createActor(machine, { input, clock }).start();
  const fail = (error: unknown) => actor.send({ type: 'xstate.error.actor.call', error } as never);
  const succeed = (output: unknown) => actor.send({ type: 'xstate.done.actor.call', output } as never);
  return { actor, clock, calls, fail, succeed };
}

const contextOf = (actor: { getSnapshot(): { context: RetryContext } }) => actor.getSnapshot().context;

describe('the retry machine', () => {
  it('calls with its input, and ends with the value the call gave', () => {
    const { actor, calls, succeed } = start({ variant: 'checkConnection', input: { scheduleHistoryId: 7 } });
    expect(calls).toEqual([{ scheduleHistoryId: 7 }]);
    expect(actor.getSnapshot().value).toBe('calling');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(selectRetryDialog(actor.getSnapshot())).toBeNull();
    succeed({ answer_count: 3 });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().value).toBe('succeeded');
    expect(actor.getSnapshot().output).toEqual({ ok: true, value: { answer_count: 3 } });
    expect(selectRetryDialog(actor.getSnapshot())).toBeNull();
  });

  it('a server refusal ends it at once with its code, never tried again', () => {
    for (const [error, code] of [
      [new ApiFailure('GENERIC_ERROR', 500), 'GENERIC_ERROR'],
      [new ApiFailure('ER_SCHEDULE_HISTORY_RETAKE', 403), 'ER_SCHEDULE_HISTORY_RETAKE'],
      [{ code: 'NOT_LOGGED_IN' }, 'NOT_LOGGED_IN'],
    ] as const) {
      const { actor, calls, fail, clock } = start({ variant: 'autoConnect', input: 1 });
      fail(error);
      expect(actor.getSnapshot().value, code).toBe('failed');
      expect(actor.getSnapshot().output).toEqual({ ok: false, error: code });
      expect(contextOf(actor).error).toBe(code);
      clock.increment(RETRY_WINDOW_MS);
      expect(calls).toHaveLength(1);
    }
  });

  it('waits 1 s, then 2 s, calling again after each, while the waits fit the window exactly', () => {
    const { actor, clock, calls, fail } = start({ variant: 'checkConnection', input: 'in', windowMs: 3_000 });
    fail(new ApiFailure('NETWORK_ERROR'));
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(contextOf(actor)).toMatchObject({ error: 'NETWORK_ERROR', attempt: 0, waitedMs: 0 });
    expect(selectRetryDialog(actor.getSnapshot())).toEqual({ kind: 'connecting' });
    clock.increment(999);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(calls).toHaveLength(1);
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('calling');
    expect(contextOf(actor)).toMatchObject({ attempt: 1, waitedMs: 1_000 });
    expect(calls).toEqual(['in', 'in']);
    // Still "connecting again" while the second try runs.
    expect(selectRetryDialog(actor.getSnapshot())).toEqual({ kind: 'connecting' });

    fail(new ApiFailure('TIMEOUT'));
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(contextOf(actor).error).toBe('TIMEOUT');
    clock.increment(1_999);
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(1);
    // 1 s + 2 s = 3 s: the whole window, which still counts as within it.
    expect(contextOf(actor)).toMatchObject({ attempt: 2, waitedMs: 3_000 });
    expect(calls).toHaveLength(3);

    // The next wait (4 s) does not fit: the pupil is asked.
    fail(new ApiFailure('NETWORK_ERROR'));
    expect(actor.getSnapshot().value).toBe('offline');
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    clock.increment(RETRY_WINDOW_MS);
    expect(calls).toHaveLength(3);
  });

  it('checkConnection: OK ends it with the last network failure; Retry is not offered', () => {
    const { actor, fail, calls } = start({ variant: 'checkConnection', input: 1, windowMs: 0 });
    fail(new ApiFailure('TIMEOUT'));
    expect(actor.getSnapshot().value).toBe('offline');
    expect(selectRetryDialog(actor.getSnapshot())).toEqual({ kind: 'checkConnection' });
    actor.send({ type: 'retry.requested' });
    expect(actor.getSnapshot().value).toBe('offline');
    expect(calls).toHaveLength(1);
    actor.send({ type: 'dialog.closed' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().output).toEqual({ ok: false, error: 'TIMEOUT' });
    expect(selectRetryDialog(actor.getSnapshot())).toBeNull();
  });

  it('autoConnect: Retry calls again with the backoff started over; OK is not offered', () => {
    const { actor, clock, fail, calls, succeed } = start({ variant: 'autoConnect', input: 1, windowMs: 1_000 });
    fail(new ApiFailure('NETWORK_ERROR'));
    clock.increment(1_000);
    fail(new ApiFailure('NETWORK_ERROR'));
    expect(actor.getSnapshot().value).toBe('offline');
    expect(contextOf(actor)).toMatchObject({ attempt: 1, waitedMs: 1_000 });
    expect(selectRetryDialog(actor.getSnapshot())).toEqual({ kind: 'retry' });
    actor.send({ type: 'dialog.closed' });
    expect(actor.getSnapshot().value).toBe('offline');
    actor.send({ type: 'retry.requested' });
    expect(actor.getSnapshot().value).toBe('calling');
    expect(contextOf(actor)).toMatchObject({ attempt: 0, waitedMs: 0 });
    expect(calls).toHaveLength(3);
    succeed('saved');
    expect(actor.getSnapshot().output).toEqual({ ok: true, value: 'saved' });
  });

  it('the browser online again calls at once, from a wait or from the dialog, the backoff started over', () => {
    const { actor, clock, fail, calls } = start({ variant: 'checkConnection', input: 1, windowMs: 3_000 });
    fail(new ApiFailure('NETWORK_ERROR'));
    clock.increment(1_000);
    fail(new ApiFailure('NETWORK_ERROR'));
    expect(contextOf(actor)).toMatchObject({ attempt: 1, waitedMs: 1_000 });
    actor.send({ type: 'connection.restored' });
    expect(actor.getSnapshot().value).toBe('calling');
    expect(contextOf(actor)).toMatchObject({ attempt: 0, waitedMs: 0 });
    expect(calls).toHaveLength(3);
    // The pending 2 s wait is gone with the state it belonged to.
    fail(new ApiFailure('NETWORK_ERROR'));
    clock.increment(999);
    expect(calls).toHaveLength(3);

    const offline = start({ variant: 'checkConnection', input: 1, windowMs: 1_000 });
    offline.fail(new ApiFailure('NETWORK_ERROR'));
    offline.clock.increment(1_000);
    offline.fail(new ApiFailure('NETWORK_ERROR'));
    expect(offline.actor.getSnapshot().value).toBe('offline');
    expect(contextOf(offline.actor)).toMatchObject({ attempt: 1, waitedMs: 1_000 });
    offline.actor.send({ type: 'connection.restored' });
    expect(offline.actor.getSnapshot().value).toBe('calling');
    expect(contextOf(offline.actor)).toMatchObject({ attempt: 0, waitedMs: 0 });
    expect(offline.calls).toHaveLength(3);
  });

  it('without a window of its own, waits 1+2+4+8+16 s (31 s) before asking: the next 32 s would pass 60 s', () => {
    const { actor, clock, fail } = start({ variant: 'autoConnect', input: 1 });
    expect(contextOf(actor).windowMs).toBe(60_000);
    expect(RETRY_WINDOW_MS).toBe(60_000);
    for (const wait of [1_000, 2_000, 4_000, 8_000, 16_000]) {
      fail(new ApiFailure('NETWORK_ERROR'));
      expect(actor.getSnapshot().value).toBe('waiting');
      clock.increment(wait);
      expect(actor.getSnapshot().value).toBe('calling');
    }
    expect(contextOf(actor)).toMatchObject({ attempt: 5, waitedMs: 31_000 });
    fail(new ApiFailure('NETWORK_ERROR'));
    expect(actor.getSnapshot().value).toBe('offline');
  });

  it('tells a network failure from an answer, and whether the next wait fits', () => {
    expect(isNetworkFailure('NETWORK_ERROR')).toBe(true);
    expect(isNetworkFailure('TIMEOUT')).toBe(true);
    for (const code of ['GENERIC_ERROR', 'NOT_LOGGED_IN', 'DURING_MAINTENANCE'] as const) expect(isNetworkFailure(code)).toBe(false);
    const context = (attempt: number, waitedMs: number): RetryContext => ({
      variant: 'autoConnect', input: null, windowMs: 7_000, attempt, waitedMs, error: null, result: null,
    });
    expect(withinWindow(context(2, 3_000))).toBe(true);
    expect(withinWindow(context(2, 3_001))).toBe(false);
    expect(withinWindow(context(0, 0), 999)).toBe(false);
    expect(withinWindow(context(0, 0), 1_000)).toBe(true);
  });

  it('shows no dialog without a snapshot or once the machine ended', () => {
    expect(selectRetryDialog(undefined)).toBeNull();
    const { actor, fail } = start({ variant: 'autoConnect', input: 1 });
    fail(new ApiFailure('GENERIC_ERROR', 500));
    expect(contextOf(actor).error).toBe('GENERIC_ERROR');
    expect(selectRetryDialog(actor.getSnapshot())).toBeNull();
  });

  it('unprovided, the call fails loudly, naming who provides it', async () => {
    const call = retryMachine.implementations.actors.call as AnyActorLogic;
    const message = await toPromise(createActor(call, { input: null }).start()).catch((error: Error) => error.message);
    expect(message).toBe('call is provided by the invoking machine');
  });
});

describe('withRetry: the machine as the actor of one call', () => {
  const failing = (calls: unknown[]) =>
    fromPromise<unknown, unknown>(async ({ input }) => {
      calls.push(input);
      throw new ApiFailure('NETWORK_ERROR');
    });

  it('runs the given call with the input, tried again within the machine\'s own window', async () => {
    const calls: unknown[] = [];
    const clock = new SimulatedClock();
    const actor = createActor(withRetry(failing(calls)) as unknown as typeof retryMachine, {
      input: { variant: 'autoConnect', input: 'in', windowMs: 1_000 },
      clock,
    }).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['in']);
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(1_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['in', 'in']);
    expect(actor.getSnapshot().value).toBe('offline');
  });

  it('with a window of its own, asks the pupil as soon as the next wait does not fit it', async () => {
    const calls: unknown[] = [];
    const actor = createActor(withRetry(failing(calls), 0) as unknown as typeof retryMachine, {
      input: { variant: 'checkConnection', input: 'in', windowMs: 60_000 },
    }).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['in']);
    expect(actor.getSnapshot().value).toBe('offline');
    const wide = createActor(withRetry(failing([]), 1_000) as unknown as typeof retryMachine, {
      input: { variant: 'checkConnection', input: 'in', windowMs: 0 },
    }).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(wide.getSnapshot().value).toBe('waiting');
    wide.stop();
  });
});

describe('connectRetryDialog', () => {
  it('no dialog without a call, before a failure, or once the call ended', () => {
    const send = () => {};
    expect(connectRetryDialog(undefined, send)).toBeNull();
    const { actor, succeed } = start({ variant: 'autoConnect', input: 1 });
    expect(connectRetryDialog(actor.getSnapshot(), send)).toBeNull();
    succeed('x');
    expect(connectRetryDialog(actor.getSnapshot(), send)).toBeNull();
  });

  it('gives the kind, the same objects while nothing changed, and handlers that send Retry and OK', () => {
    const sent: unknown[] = [];
    const send = (event: unknown) => void sent.push(event);
    const { actor, fail, clock } = start({ variant: 'autoConnect', input: 1, windowMs: 1_000 });
    fail(new ApiFailure('NETWORK_ERROR'));
    const connecting = connectRetryDialog(actor.getSnapshot(), send)!;
    expect(connecting.view).toEqual({ kind: 'connecting' });
    clock.increment(1_000);
    const again = connectRetryDialog(actor.getSnapshot(), send)!;
    expect(again.view).toBe(connecting.view);
    expect(again.retry).toBe(connecting.retry);
    expect(again.close).toBe(connecting.close);
    fail(new ApiFailure('NETWORK_ERROR'));
    const dialog = connectRetryDialog(actor.getSnapshot(), send)!;
    expect(dialog.view).toEqual({ kind: 'retry' });
    dialog.retry();
    dialog.close();
    expect(sent).toEqual([{ type: 'retry.requested' }, { type: 'dialog.closed' }]);
    const other = connectRetryDialog(actor.getSnapshot(), () => {})!;
    expect(other.retry).not.toBe(dialog.retry);

    const ok = start({ variant: 'checkConnection', input: 1, windowMs: 0 });
    ok.fail(new ApiFailure('TIMEOUT'));
    expect(connectRetryDialog(ok.actor.getSnapshot(), send)!.view).toEqual({ kind: 'checkConnection' });
  });
});
