/**
 * A machine whose definition loads on demand (machines/shared/lazy-machine.ts):
 * invoked before its module has arrived it waits, with no path, tag or state, keeping every event
 * in order; once the module is there it is the machine itself (entry, invocations, sendParent,
 * done), the waiting events replayed. Loaded already, it is the machine from the first step. A
 * failed load is tried again; a stop while waiting ends it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromCallback, sendParent, setup, type AnyActorRef } from 'xstate';
import { isPendingSnapshot, lazyMachine, lazyModule } from '../../machines/shared/lazy-machine.ts';
import { pathOf } from '../../machines/kiosk/routes.ts';

const started: string[] = [];

const childMachine = setup({
  types: {
    context: {} as { label: string; seen: string[] },
    input: {} as { label: string },
    events: {} as { type: 'note'; text: string } | { type: 'ping' } | { type: 'finish' },
    output: {} as string[],
  },
  actors: { helper: fromCallback(() => void started.push('helper')) },
}).createMachine({
  id: 'child',
  context: ({ input }) => ({ label: input.label, seen: [] }),
  initial: 'idle',
  states: {
    idle: {
      meta: { path: '/child' },
      tags: ['ready'],
      invoke: { id: 'helper', src: 'helper' },
      on: {
        note: { actions: assign({ seen: ({ context, event }) => [...context.seen, event.text] }) },
        ping: { actions: sendParent({ type: 'pong' }) },
        finish: 'done',
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => [context.label, ...context.seen],
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function parentOf(child: typeof childMachine) {
  return setup({
    types: { context: {} as { pongs: number; output: string[] | null }, events: {} as { type: 'pong' } | { type: 'leave' } },
    actors: { child },
  }).createMachine({
    context: { pongs: 0, output: null },
    initial: 'on',
    states: {
      on: {
        invoke: {
          id: 'child',
          src: 'child',
          input: { label: 'x' },
          onDone: { target: 'finished', actions: assign({ output: ({ event }) => event.output }) },
        },
        on: { pong: { actions: assign({ pongs: ({ context }) => context.pongs + 1 }) }, leave: 'off' },
      },
      off: {},
      finished: {},
    },
  });
}

const childOf = (parent: AnyActorRef) => parent.getSnapshot().children.child as AnyActorRef;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  started.length = 0;
  vi.useRealTimers();
});

describe('a lazily loaded machine', () => {
  it('waits for its module with no path or tag, then replays the events it kept, in order', async () => {
    const load = deferred<{ childMachine: typeof childMachine }>();
    const module = lazyModule(() => load.promise);
    const parent = createActor(parentOf(lazyMachine(module, (loaded) => loaded.childMachine))).start();

    const waiting = childOf(parent).getSnapshot();
    expect(isPendingSnapshot(waiting)).toBe(true);
    expect(pathOf(waiting)).toBeUndefined();
    expect(waiting.hasTag('ready')).toBe(false);
    childOf(parent).send({ type: 'note', text: 'a' });
    childOf(parent).send({ type: 'ping' });
    childOf(parent).send({ type: 'note', text: 'b' });
    expect(started).toEqual([]);
    expect(parent.getSnapshot().context.pongs).toBe(0);

    load.resolve({ childMachine });
    await settle();
    const child = childOf(parent).getSnapshot();
    expect(isPendingSnapshot(child)).toBe(false);
    expect(pathOf(child)).toBe('/child');
    expect(child.hasTag('ready')).toBe(true);
    expect(child.context).toEqual({ label: 'x', seen: ['a', 'b'] });
    // Its own invocation ran, and sendParent reached the parent, as from a machine invoked at once.
    expect(started).toEqual(['helper']);
    expect(parent.getSnapshot().context.pongs).toBe(1);

    childOf(parent).send({ type: 'finish' });
    expect(parent.getSnapshot().value).toBe('finished');
    expect(parent.getSnapshot().context.output).toEqual(['x', 'a', 'b']);
  });

  it('ends as it was asked to when a replayed event finishes it', async () => {
    const load = deferred<{ childMachine: typeof childMachine }>();
    const parent = createActor(parentOf(lazyMachine(lazyModule(() => load.promise), (loaded) => loaded.childMachine))).start();
    childOf(parent).send({ type: 'note', text: 'only' });
    childOf(parent).send({ type: 'finish' });
    childOf(parent).send({ type: 'note', text: 'after the end' });
    load.resolve({ childMachine });
    await settle();
    expect(parent.getSnapshot().value).toBe('finished');
    expect(parent.getSnapshot().context.output).toEqual(['x', 'only']);
  });

  it('is the machine itself from the first step once its module is loaded', async () => {
    const module = lazyModule(async () => ({ childMachine }));
    await module.load();
    const parent = createActor(parentOf(lazyMachine(module, (loaded) => loaded.childMachine))).start();
    expect(isPendingSnapshot(childOf(parent).getSnapshot())).toBe(false);
    childOf(parent).send({ type: 'ping' });
    expect(parent.getSnapshot().context.pongs).toBe(1);
    expect(started).toEqual(['helper']);
  });

  it('stopped while it waits, it ends; the module arriving later starts nothing', async () => {
    const load = deferred<{ childMachine: typeof childMachine }>();
    const parent = createActor(parentOf(lazyMachine(lazyModule(() => load.promise), (loaded) => loaded.childMachine))).start();
    const child = childOf(parent);
    parent.send({ type: 'leave' });
    expect(parent.getSnapshot().value).toBe('off');
    expect(child.getSnapshot().status).toBe('stopped');
    load.resolve({ childMachine });
    await settle();
    expect(started).toEqual([]);
    expect(parent.getSnapshot().children.child).toBeUndefined();
  });

  it('tries a failed load again (1 s later, the one backoff) and then runs', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const module = lazyModule(async () => {
      attempts += 1;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { childMachine };
    });
    const parent = createActor(parentOf(lazyMachine(module, (loaded) => loaded.childMachine))).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toBe(1);
    expect(isPendingSnapshot(childOf(parent).getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(attempts).toBe(2);
    expect(isPendingSnapshot(childOf(parent).getSnapshot())).toBe(false);
    expect(started).toEqual(['helper']);
  });
});
