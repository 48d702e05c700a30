// @vitest-environment jsdom
/**
 * The exam at /start: the question and its answer input, the saved indicator, Previous and Next,
 * text answers handed over on blur, Next and a pause (the position machine's, run live), the finish dialog, no context menu.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEXT_COMMIT_DELAY_MS } from '../../machines/position/position.machine.ts';
import { ExamScreen } from '../../src/screens/exam/exam.tsx';
import { examScreenApi } from '../helpers/exam-fixtures.ts';
import { TypingExamScreen } from '../helpers/exam-typing.tsx';
import { renderView } from '../helpers/render-view.tsx';

const props = examScreenApi;

afterEach(() => {
  vi.useRealTimers();
});

describe('loading', () => {
  it('shows the header and a skeleton until the questions are there', async () => {
    await renderView(<ExamScreen api={props({ status: 'loading', questions: [], deadlineAt: 0 })} />);
    expect(screen.getByRole('timer', { name: 'Time left' }).textContent).toBe('--:--');
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryByRole('radio')).toBeNull();
  });
});

describe('a single-choice question', () => {
  it('shows the counter, the prompt as a heading and the choices as radio buttons', async () => {
    await renderView(<ExamScreen api={props()} />);
    expect(screen.getByText('Question 1 of 3')).toBeTruthy();
    const heading = screen.getByRole('heading', { level: 1, name: 'Which word means "big"?' });
    expect(document.activeElement).toBe(heading);
    const group = screen.getByRole('group', { name: 'Which word means "big"?' });
    expect(within(group).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['a', 'b', 'c']);
    expect(screen.getByRole('radio', { name: 'large' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Not answered yet');
  });

  it('answers with the choice id', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(<ExamScreen api={props({ answer: onAnswer })} />);
    await user.click(screen.getByRole('radio', { name: 'small' }));
    expect(onAnswer).toHaveBeenCalledWith(101, 'b');
  });

  it('shows the chosen answer and where it is saved, in words', async () => {
    const { rerender } = await renderView(<ExamScreen api={props({ answers: { 101: { value: 'a', saved: 'saving' } } })} />);
    expect((screen.getByRole('radio', { name: 'large' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Saving…');
    rerender(<ExamScreen api={props({ answers: { 101: { value: 'a', saved: 'server' } } })} />);
    expect(screen.getByRole('status').textContent).toBe('Saved on the server');
  });

  it.each([
    ['server', 'Saved on the server'],
    ['terminal', 'Saved on this terminal'],
    ['none', 'Not saved'],
  ] as const)('tells a %s answer apart with an icon and words: "%s"', async (saved, words) => {
    await renderView(<ExamScreen api={props({ answers: { 101: { value: 'a', saved } } })} />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(words);
    expect(status.getAttribute('data-state')).toBe(saved);
    // Never colour alone: an icon beside the words.
    expect(status.querySelector('svg')).not.toBeNull();
  });
});

describe('moving between questions', () => {
  it('disables Previous on the first question and Next on the last', async () => {
    const { rerender } = await renderView(<ExamScreen api={props()} />);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
    rerender(<ExamScreen api={props({ index: 2 })} />);
    expect(screen.getByText('Question 3 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends Next and Previous', async () => {
    const onNext = vi.fn();
    const onPrevious = vi.fn();
    const { user } = await renderView(<ExamScreen api={props({ index: 1, next: onNext, previous: onPrevious })} />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onNext).toHaveBeenCalledOnce();
    expect(onPrevious).toHaveBeenCalledOnce();
  });

  it('offers "Finish the test" on every question', async () => {
    const onFinishRequest = vi.fn();
    const { user, rerender } = await renderView(<ExamScreen api={props({ requestFinish: onFinishRequest })} />);
    await user.click(screen.getByRole('button', { name: 'Finish the test' }));
    rerender(<ExamScreen api={props({ index: 1, requestFinish: onFinishRequest })} />);
    await user.click(screen.getByRole('button', { name: 'Finish the test' }));
    expect(onFinishRequest).toHaveBeenCalledTimes(2);
  });
});

describe('a text question', () => {
  it('shows the saved answer in a box labelled "Your answer"', async () => {
    await renderView(<TypingExamScreen api={props({ index: 1, answers: { 102: { value: 'cold', saved: 'server' } } })} />);
    expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('cold');
    expect(screen.getByRole('status').textContent).toBe('Saved on the server');
  });

  it('hands the answer over when the box loses focus, once', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(<TypingExamScreen api={props({ index: 1, answer: onAnswer })} />);
    await user.type(screen.getByRole('textbox', { name: 'Your answer' }), 'cold');
    await user.tab();
    await user.click(document.body);
    expect(onAnswer.mock.calls).toEqual([[102, 'cold']]);
  });

  it('hands the answer over before moving on', async () => {
    const calls: string[] = [];
    const { user } = await renderView(
      <TypingExamScreen
        api={props({
          index: 1,
          answer: (id, value) => calls.push(`answer ${id} ${value}`),
          next: () => calls.push('next'),
        })}
      />,
    );
    const box = screen.getByRole('textbox', { name: 'Your answer' });
    await user.type(box, 'cold');
    // Keyboard users press Next without leaving the box first.
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(calls).toEqual(['answer 102 cold', 'next']);
  });

  it('hands the answer over after a short pause in typing', async () => {
    const onAnswer = vi.fn();
    await renderView(<TypingExamScreen api={props({ index: 1, answer: onAnswer })} />);
    // Only the clocks are faked, after the catalog has loaded.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const box = screen.getByRole('textbox', { name: 'Your answer' });
    fireEvent.change(box, { target: { value: 'co' } });
    act(() => vi.advanceTimersByTime(TEXT_COMMIT_DELAY_MS / 2));
    fireEvent.change(box, { target: { value: 'col' } });
    act(() => vi.advanceTimersByTime(TEXT_COMMIT_DELAY_MS - 10));
    expect(onAnswer).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(20));
    expect(onAnswer.mock.calls).toEqual([[102, 'col']]);
  });
});

describe('finishing', () => {
  it('asks "Finish the test?" in a modal dialog, telling how many questions are unanswered', async () => {
    await renderView(<ExamScreen api={props({ confirmingFinish: true, answers: { 101: { value: 'a', saved: 'server' } } })} />);
    const dialog = screen.getByRole('dialog', { name: 'Finish the test?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByText('2 questions are not answered yet.')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep working' }));
  });

  it('says when every question is answered', async () => {
    const answers = { 101: { value: 'a', saved: 'server' }, 102: { value: 'cold', saved: 'server' }, 103: { value: 'b', saved: 'terminal' } } as const;
    await renderView(<ExamScreen api={props({ confirmingFinish: true, answers })} />);
    expect(screen.getByText('You have answered every question.')).toBeTruthy();
  });

  it('keeps focus inside the dialog', async () => {
    const { user } = await renderView(<ExamScreen api={props({ confirmingFinish: true })} />);
    const dialog = screen.getByRole('dialog');
    const keep = within(dialog).getByRole('button', { name: 'Keep working' });
    const finish = within(dialog).getByRole('button', { name: 'Finish' });
    await user.tab();
    expect(document.activeElement).toBe(finish);
    await user.tab();
    expect(document.activeElement).toBe(keep);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(finish);
  });

  it('finishes with "Finish" and goes back with "Keep working" or Escape', async () => {
    const onFinishConfirm = vi.fn();
    const onFinishCancel = vi.fn();
    const { user } = await renderView(<ExamScreen api={props({ confirmingFinish: true, confirmFinish: onFinishConfirm, cancelFinish: onFinishCancel })} />);
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(onFinishConfirm).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Keep working' }));
    await user.keyboard('{Escape}');
    expect(onFinishCancel).toHaveBeenCalledTimes(2);
  });

  it('waits while the answers are sent', async () => {
    const onFinishConfirm = vi.fn();
    const { user } = await renderView(
      <ExamScreen api={props({ status: 'finishing', confirmingFinish: true, confirmFinish: onFinishConfirm })} />,
    );
    const dialog = screen.getByRole('dialog');
    const sending = within(dialog).getByRole('button', { name: 'Sending your answers…' });
    expect(sending.getAttribute('aria-busy')).toBe('true');
    await user.click(sending);
    expect(onFinishConfirm).not.toHaveBeenCalled();
  });
});

describe('a shared terminal', () => {
  it('shows no context menu', async () => {
    await renderView(<ExamScreen api={props()} />);
    const notPrevented = fireEvent.contextMenu(screen.getByRole('heading', { level: 1 }));
    expect(notPrevented).toBe(false);
  });

  it('tells a failure and offers to try again', async () => {
    const onRetry = vi.fn();
    const { user } = await renderView(<ExamScreen api={props({ error: 'NETWORK_ERROR', retry: onRetry })} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Network error. Please check the connection and try again.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
