// @vitest-environment jsdom
/**
 * The exam screen's question list, flag for review and kiosk behaviours: the list shows every
 * question as answered / not answered / flagged in text and jumps to it; the flag toggles; copy
 * and cut are blocked; leaving asks first while answering; focus losses are reported once each.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ExamScreen } from '../../src/screens/exam/exam.tsx';
import { examScreenApi, questions } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

const props = examScreenApi;

describe('question list', () => {
  it('lists every question with its state in text, and jumps to one by keyboard', async () => {
    const onSelect = vi.fn();
    const [q1, q2, q3] = questions;
    const { user } = await renderView(
      <ExamScreen
        api={props({
          listOpen: true,
          flagged: [q3!.id],
          answers: { [q1!.id]: { value: 'b', saved: 'server' } },
          select: onSelect,
        })}
      />,
    );
    const list = screen.getByRole('navigation', { name: 'Question list' });
    const items = within(list).getAllByRole('button');
    expect(items.map((b) => b.textContent)).toEqual([
      expect.stringMatching(/^1.*Answered$/),
      expect.stringMatching(/^2.*Not answered$/),
      expect.stringMatching(/^3.*Not answered, Flagged for review$/),
    ]);
    expect(items[0]!.getAttribute('aria-current')).toBe('step');
    expect(q2).toBeDefined();
    items[2]!.focus();
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith(2);
  });

  it('is toggled by its button, which says whether it is open', async () => {
    const onToggleList = vi.fn();
    const { user } = await renderView(<ExamScreen api={props({ toggleList: onToggleList })} />);
    const toggle = screen.getByRole('button', { name: 'Question list' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('navigation', { name: 'Question list' })).toBeNull();
    await user.click(toggle);
    expect(onToggleList).toHaveBeenCalledTimes(1);
  });
});

describe('flag for review', () => {
  it('flags the question on screen, and offers to remove the flag once flagged', async () => {
    const onFlag = vi.fn();
    const { user, rerender } = await renderView(<ExamScreen api={props({ flag: onFlag })} />);
    await user.click(screen.getByRole('button', { name: 'Flag for review' }));
    expect(onFlag).toHaveBeenCalledWith(questions[0]!.id);
    rerender(<ExamScreen api={props({ flag: onFlag, flagged: [questions[0]!.id] })} />);
    expect(screen.getByRole('button', { name: 'Remove flag' }).getAttribute('aria-pressed')).toBe('true');
  });
});

describe('kiosk', () => {
  it('blocks copy and cut outside the answer field', async () => {
    await renderView(<ExamScreen api={props()} />);
    const prompt = screen.getByRole('heading', { level: 1 });
    expect(fireEvent.copy(prompt)).toBe(false);
    expect(fireEvent.cut(prompt)).toBe(false);
  });

  it('asks before leaving the page while answering, not after', async () => {
    const { rerender } = await renderView(<ExamScreen api={props()} />);
    const during = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(during);
    expect(during.defaultPrevented).toBe(true);
    rerender(<ExamScreen api={props({ status: 'finishing' })} />);
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });

  it('reports each focus loss once: a blur, and a hidden tab (which also blurs)', async () => {
    const onFocusLost = vi.fn();
    await renderView(<ExamScreen api={props({ focusLost: onFocusLost })} />);
    window.dispatchEvent(new Event('blur'));
    expect(onFocusLost).toHaveBeenCalledTimes(1);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('blur'));
    expect(onFocusLost).toHaveBeenCalledTimes(2);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('blur'));
    expect(onFocusLost).toHaveBeenCalledTimes(3);
    visibility.mockRestore();
  });
});
