/**
 * The rules of a lazily loaded machine (machines/shared/lazy-machine.ts) that
 * test/machines/lazy-machine.test.ts leaves implicit, stated outright: what a waiting actor's
 * snapshot holds (and what it answers), which values count as one, that a stop forgets the events
 * kept, that a loaded module is not loaded again, the waits between failed loads (1 s doubling,
 * at most 30 s) and that they end with the actor, two modules loaded as one, and what is persisted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, setup, type AnyActorRef } from 'xstate';
import { bothModules, isPendingSnapshot, lazyMachine, lazyModule, type LazyModule } from '../../machines/shared/lazy-machine.ts';

const childMachine = setup({
  types: { context: {} as { label: string }, input: {} as { label: string }, events: {} as { type: 'note' } | { type: 'ping' } },
}).createMachine({
  id: 'child',
  context: ({ input }) => ({ label: input.label }),
  initial: 'idle',
  states: { idle: { tags: ['ready'], on: { ping: 'pinged' } }, pinged: {} },
});
type Loaded = { childMachine: typeof childMachine };

function parentOf(child: typeof childMachine) {
  return setup({ types: { events: {} as { type: 'leave' } }, actors: { child } }).createMachine({
    initial: 'on',
    states: { on: { invoke: { id: 'child', src: 'child', input: { label: 'x' } }, on: { leave: 'off' } }, off: {} },
  });
}
const childOf = (parent: AnyActorRef) => parent.getSnapshot().children.child as AnyActorRef;
const never = () => new Promise<Loaded>(() => {});

afterEach(() => {
  vi.useRealTimers();
});

describe('a waiting actor', () => {
  it('holds its input and the events it kept, no state, and answers no to every question', () => {
    const parent = createActor(parentOf(lazyMachine(lazyModule(never), (loaded) => loaded.childMachine))).start();
    childOf(parent).send({ type: 'note' });
    const waiting = childOf(parent).getSnapshot();
    expect(waiting).toMatchObject({
      status: 'active',
      output: undefined,
      error: undefined,
      pending: { input: { label: 'x' }, events: [{ type: 'note' }] },
      value: null,
      context: {},
      children: {},
    });
    expect(waiting.matches('idle')).toBe(false);
    expect(waiting.hasTag('ready')).toBe(false);
    expect(waiting.can({ type: 'ping' })).toBe(false);
    expect(waiting.getMeta()).toEqual({});
  });

  it('stopped, it keeps its input and forgets the events', () => {
    const parent = createActor(parentOf(lazyMachine(lazyModule(never), (loaded) => loaded.childMachine))).start();
    const child = childOf(parent);
    child.send({ type: 'note' });
    parent.send({ type: 'leave' });
    expect(child.getSnapshot()).toMatchObject({ status: 'stopped', pending: { input: { label: 'x' }, events: [] }, value: null });
  });

  it('is persisted as it is; once loaded, the machine persists its own snapshot', async () => {
    const waitingParent = createActor(parentOf(lazyMachine(lazyModule(never), (loaded) => loaded.childMachine))).start();
    const waiting = childOf(waitingParent);
    expect(waiting.getPersistedSnapshot()).toBe(waiting.getSnapshot());
    const module = lazyModule(async () => ({ childMachine }));
    await module.load();
    const parent = createActor(parentOf(lazyMachine(module, (loaded) => loaded.childMachine))).start();
    childOf(parent).send({ type: 'ping' });
    const persisted = childOf(parent).getPersistedSnapshot();
    expect(isPendingSnapshot(persisted)).toBe(false);
    expect(persisted).toMatchObject({ status: 'active', value: 'pinged', context: { label: 'x' } });
  });
});

describe('isPendingSnapshot', () => {
  it('is true only for an object with `pending`', () => {
    for (const value of [null, undefined, 0, 'pending', true]) expect(isPendingSnapshot(value)).toBe(false);
    expect(isPendingSnapshot({})).toBe(false);
    expect(isPendingSnapshot({ value: 'idle' })).toBe(false);
    expect(isPendingSnapshot({ pending: null })).toBe(true);
  });
});

describe('loading', () => {
  it('a module loaded already is not loaded again', () => {
    const load = vi.fn(() => Promise.resolve({ childMachine }));
    const module: LazyModule<Loaded> = { load, current: () => ({ childMachine }) };
    const parent = createActor(parentOf(lazyMachine(module, (loaded) => loaded.childMachine))).start();
    expect(childOf(parent).getSnapshot().value).toBe('idle');
    expect(load).not.toHaveBeenCalled();
  });

  it('keeps every event until its own load has ended, even when the module is there already', () => {
    const arrived: { module?: Loaded } = {};
    const module: LazyModule<Loaded> = { load: () => new Promise<Loaded>(() => {}), current: () => arrived.module };
    const parent = createActor(parentOf(lazyMachine(module, (found) => found.childMachine))).start();
    childOf(parent).send({ type: 'note' });
    arrived.module = { childMachine };
    childOf(parent).send({ type: 'ping' });
    expect(childOf(parent).getSnapshot()).toMatchObject({ value: null, pending: { input: { label: 'x' }, events: [{ type: 'note' }, { type: 'ping' }] } });
  });

  it('tries a failing load again after 1 s, 2 s, 4 s, 8 s, 16 s, then every 30 s', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const module = lazyModule<Loaded>(() => {
      attempts += 1;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    });
    const parent = createActor(parentOf(lazyMachine(module, (loaded) => loaded.childMachine))).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toBe(1);
    for (const [wait, expected] of [
      [1_000, 2],
      [2_000, 3],
      [4_000, 4],
      [8_000, 5],
      [16_000, 6],
      [30_000, 7],
      [30_000, 8],
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(attempts).toBe(expected - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempts).toBe(expected);
    }
    expect(isPendingSnapshot(childOf(parent).getSnapshot())).toBe(true);
  });

  it('stops trying once the actor has stopped', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const module = lazyModule<Loaded>(() => {
      attempts += 1;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    });
    const parent = createActor(parentOf(lazyMachine(module, (loaded) => loaded.childMachine))).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toBe(1);
    parent.send({ type: 'leave' });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(attempts).toBe(1);
  });
});

describe('bothModules', () => {
  it('loads both as one pair, current only once both are', async () => {
    let first: string | undefined;
    let second: number | undefined;
    const a: LazyModule<string> = { load: vi.fn(async () => (first = 'a')), current: () => first };
    const b: LazyModule<number> = { load: vi.fn(async () => (second = 2)), current: () => second };
    const both = bothModules(a, b);
    expect(both.current()).toBeUndefined();
    first = 'a';
    expect(both.current()).toBeUndefined();
    first = undefined;
    second = 2;
    expect(both.current()).toBeUndefined();
    second = undefined;
    await expect(both.load()).resolves.toEqual(['a', 2]);
    expect(a.load).toHaveBeenCalledTimes(1);
    expect(b.load).toHaveBeenCalledTimes(1);
    expect(both.current()).toEqual(['a', 2]);
  });
});
