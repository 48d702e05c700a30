// @vitest-environment jsdom
/**
 * An ordering question (Visual Programming): the blocks as SVG puzzle pieces in a vertical
 * program, the category in words; reordered with the keyboard (Space picks up, arrows move,
 * Space drops, Escape cancels) and with the Move up / Move down buttons, each step announced;
 * the answer is the ids in order, joined with ",".
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExamScreenApi } from '../../machines/exam/exam.connect.ts';
import { ExamScreen } from '../../src/screens/exam/exam.tsx';
import type { Question } from '../../contract/exam.ts';
import { examScreenApi } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

const ordering: Question = {
  id: 501,
  number: 1,
  type: 'ordering',
  prompt: 'Put the blocks in order so the cat says hello and then walks.',
  choices: [],
  blocks: [
    { id: 'b1', label: 'move 10 steps', category: 'motion' },
    { id: 'b2', label: 'when green flag clicked', category: 'event' },
    { id: 'b3', label: 'say Hello', category: 'looks' },
    { id: 'b4', label: 'play sound Meow', category: 'sound' },
  ],
};

function props(overrides: Partial<ExamScreenApi> = {}): ExamScreenApi {
  return examScreenApi({ questions: [ordering], ...overrides });
}

/** The program list, by its name in English or (the RTL test) in Arabic. */
const program = () => screen.getByRole('list', { name: /^(Your program|برنامجك)$/ });
const labels = () => within(program()).getAllByRole('listitem').map((item) => item.querySelector('[data-part="block"]')?.textContent);
const block = (label: string) => within(program()).getByRole('button', { name: new RegExp(`^${label}`) });
const announcement = (container: HTMLElement) => container.querySelector('[aria-live="assertive"]')?.textContent;

describe('the program', () => {
  it('shows the blocks in order, as SVG shapes with their category in words', async () => {
    await renderView(<ExamScreen api={props()} />);
    expect(labels()).toEqual(['move 10 stepsMotion', 'when green flag clickedEvent', 'say HelloLooks', 'play sound MeowSound']);
    const first = block('move 10 steps');
    expect(first.querySelector('svg path')).not.toBeNull();
    expect(first.getAttribute('data-category')).toBe('motion');
    expect(first.getAttribute('aria-roledescription')).toBe('movable block');
  });

  it('shows a saved order', async () => {
    await renderView(<ExamScreen api={props({ answers: { 501: { value: 'b2,b3,b1,b4', saved: 'server' } } })} />);
    expect(labels().map((l) => l?.replace(/(Motion|Event|Looks|Sound)$/, ''))).toEqual([
      'when green flag clicked',
      'say Hello',
      'move 10 steps',
      'play sound Meow',
    ]);
  });
});

describe('a saved order', () => {
  it('is ignored when it does not name exactly these blocks', async () => {
    await renderView(<ExamScreen api={props({ answers: { 501: { value: 'b2,b3,b9', saved: 'server' } } })} />);
    expect(labels()[0]).toBe('move 10 stepsMotion');
  });
});

describe('reordering with the keyboard', () => {
  it('hands nothing over when the block is dropped where it was', async () => {
    const onAnswer = vi.fn();
    const { user, container } = await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    block('say Hello').focus();
    await user.keyboard(' {ArrowUp}{ArrowDown} ');
    expect(announcement(container)).toBe('Dropped block say Hello, position 3 of 4.');
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it('picks up with Space, moves with the arrows, drops with Space, announcing each step', async () => {
    const onAnswer = vi.fn();
    const { user, container } = await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    block('when green flag clicked').focus();
    await user.keyboard(' ');
    expect(block('when green flag clicked').getAttribute('aria-pressed')).toBe('true');
    expect(announcement(container)).toContain('Picked up block when green flag clicked, position 2 of 4.');
    await user.keyboard('{ArrowUp}');
    expect(announcement(container)).toBe('Block when green flag clicked, position 1 of 4');
    // The moved block keeps the focus.
    expect(document.activeElement).toBe(block('when green flag clicked'));
    expect(onAnswer).not.toHaveBeenCalled();
    await user.keyboard('{ArrowUp}');
    await user.keyboard(' ');
    expect(announcement(container)).toBe('Dropped block when green flag clicked, position 1 of 4.');
    expect(onAnswer.mock.calls).toEqual([[501, 'b2,b1,b3,b4']]);
    expect(block('when green flag clicked').getAttribute('aria-pressed')).toBe('false');
  });

  it('moves down past several blocks', async () => {
    const onAnswer = vi.fn();
    const { user, container } = await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    block('move 10 steps').focus();
    await user.keyboard(' {ArrowDown}{ArrowDown}');
    expect(announcement(container)).toBe('Block move 10 steps, position 3 of 4');
    await user.keyboard(' ');
    expect(onAnswer.mock.calls).toEqual([[501, 'b2,b3,b1,b4']]);
  });

  it('puts the block back with Escape and hands nothing over', async () => {
    const onAnswer = vi.fn();
    const { user, container } = await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    block('say Hello').focus();
    await user.keyboard(' {ArrowUp}{ArrowUp}{Escape}');
    expect(announcement(container)).toBe('Move cancelled. Block say Hello, position 3 of 4');
    expect(labels()[2]).toBe('say HelloLooks');
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it('keeps the program top to bottom in Arabic: ↑ still moves a block up', async () => {
    const { user, container } = await renderView(<ExamScreen api={props()} />, { language: 'ar' });
    expect(document.documentElement.dir).toBe('rtl');
    block('say Hello').focus();
    await user.keyboard(' {ArrowUp}');
    expect(labels()[1]).toMatch(/^say Hello/);
    expect(announcement(container)).toContain('say Hello');
  });

  it('does not move a block that was not picked up', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    block('say Hello').focus();
    await user.keyboard('{ArrowUp}');
    expect(labels()[2]).toBe('say HelloLooks');
    expect(onAnswer).not.toHaveBeenCalled();
  });
});

describe('reordering with the buttons', () => {
  it('moves a block up and down, hands over each move and announces it', async () => {
    const onAnswer = vi.fn();
    const { user, container } = await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    await user.click(screen.getByRole('button', { name: 'Move up: when green flag clicked' }));
    expect(announcement(container)).toBe('Block when green flag clicked, position 1 of 4');
    // The focus follows the block (its Move up is disabled now: the Move down next to it).
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move down: when green flag clicked' }));
    await user.click(screen.getByRole('button', { name: 'Move down: move 10 steps' }));
    expect(announcement(container)).toBe('Block move 10 steps, position 3 of 4');
    expect(onAnswer.mock.calls).toEqual([
      [501, 'b2,b1,b3,b4'],
      [501, 'b2,b3,b1,b4'],
    ]);
  });

  it('cannot move the first block up or the last one down', async () => {
    await renderView(<ExamScreen api={props()} />);
    expect((screen.getByRole('button', { name: 'Move up: move 10 steps' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Move down: play sound Meow' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Move down: move 10 steps' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('moves nothing while the answers are being sent', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(<ExamScreen api={props({ answer: onAnswer, status: 'finishing' })} />);
    expect((screen.getByRole('button', { name: 'Move up: say Hello' }) as HTMLButtonElement).disabled).toBe(true);
    block('say Hello').focus();
    await user.keyboard(' {ArrowUp} ');
    expect(onAnswer).not.toHaveBeenCalled();
  });
});

describe('reordering by dragging', () => {
  it('follows the pointer and hands over the order on release', async () => {
    const onAnswer = vi.fn();
    const { container } = await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    // jsdom lays nothing out: each block is 60px high, one under the other.
    within(program())
      .getAllByRole('listitem')
      .forEach((item) => {
        item.getBoundingClientRect = () => {
          const index = [...item.parentElement!.children].indexOf(item);
          return { top: index * 60, height: 60, bottom: index * 60 + 60, left: 0, right: 300, width: 300, x: 0, y: index * 60, toJSON: () => ({}) };
        };
      });
    const dragged = block('move 10 steps');
    fireEvent.pointerDown(dragged, { pointerId: 1, pointerType: 'touch', clientY: 30 });
    fireEvent.pointerMove(dragged, { pointerId: 1, pointerType: 'touch', clientY: 33 });
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.pointerMove(dragged, { pointerId: 1, pointerType: 'touch', clientY: 160 });
    expect(labels()[2]).toBe('move 10 stepsMotion');
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.pointerUp(dragged, { pointerId: 1, pointerType: 'touch', clientY: 160 });
    expect(onAnswer.mock.calls).toEqual([[501, 'b2,b3,b1,b4']]);
    expect(announcement(container)).toBe('Dropped block move 10 steps, position 3 of 4.');
  });

  it('takes a tap for a tap: no move, nothing handed over', async () => {
    const onAnswer = vi.fn();
    await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    const tapped = block('say Hello');
    fireEvent.pointerDown(tapped, { pointerId: 2, pointerType: 'touch', clientY: 150 });
    fireEvent.pointerUp(tapped, { pointerId: 2, pointerType: 'touch', clientY: 151 });
    expect(labels()[2]).toBe('say HelloLooks');
    expect(onAnswer).not.toHaveBeenCalled();
  });
});
