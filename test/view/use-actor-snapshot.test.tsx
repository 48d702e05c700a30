// @vitest-environment jsdom
/**
 * The exam screens' subscription (src/app/connect/use-exam.ts, `useActorSnapshot`): it renders the
 * actor's newest snapshot after every change, reads another actor at once, and misses no change
 * made between the render and the subscription.
 */
import { act, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, assign } from 'xstate';
import { useActorSnapshot } from '../../src/app/connect/use-exam.ts';

const counter = createMachine({
  types: {} as { context: { count: number }; events: { type: 'add' } },
  context: { count: 0 },
  on: { add: { actions: assign({ count: ({ context }) => context.count + 1 }) } },
});

function Count({ actor }: { actor: ReturnType<typeof createActor<typeof counter>> | undefined }) {
  const snapshot = useActorSnapshot(actor);
  return <p>{snapshot ? `count ${snapshot.context.count}` : 'no actor'}</p>;
}

describe('useActorSnapshot', () => {
  it('renders the newest snapshot after each change', () => {
    const actor = createActor(counter).start();
    render(<Count actor={actor} />);
    expect(screen.getByText('count 0')).toBeTruthy();
    act(() => actor.send({ type: 'add' }));
    expect(screen.getByText('count 1')).toBeTruthy();
    act(() => actor.send({ type: 'add' }));
    expect(screen.getByText('count 2')).toBeTruthy();
  });

  it('reads another actor in the render that first sees it, and none without one', () => {
    const first = createActor(counter).start();
    const second = createActor(counter).start();
    second.send({ type: 'add' });
    second.send({ type: 'add' });
    const seen: string[] = [];
    function Recording({ actor }: { actor: typeof first | undefined }) {
      const snapshot = useActorSnapshot(actor);
      seen.push(snapshot ? String(snapshot.context.count) : 'none');
      return null;
    }
    const { rerender } = render(<Recording actor={first} />);
    rerender(<Recording actor={second} />);
    // Never a render of the first actor's count with the second actor.
    expect(seen.slice(1).every((count) => count === '2')).toBe(true);
    act(() => second.send({ type: 'add' }));
    expect(seen.at(-1)).toBe('3');
    // The first actor's changes no longer reach it.
    const length = seen.length;
    act(() => first.send({ type: 'add' }));
    expect(seen.length).toBe(length);
    rerender(<Recording actor={undefined} />);
    expect(seen.at(-1)).toBe('none');
  });

  it('misses no change made between the render and the subscription', () => {
    const actor = createActor(counter).start();
    // The sibling before it has its layout effect run first (in order): it changes the actor after
    // the render read the snapshot and before the hook subscribes.
    function Changer() {
      useLayoutEffect(() => actor.send({ type: 'add' }), []);
      return null;
    }
    render(
      <>
        <Changer />
        <Count actor={actor} />
      </>,
    );
    expect(screen.getByText('count 1')).toBeTruthy();
  });
});
