// @vitest-environment jsdom
/**
 * exam-end: sent with its receipt, cancelled, the header's placeholders, Log out.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ExamEndScreen } from '../../src/screens/exam-end/exam-end.tsx';
import { renderView } from './render.tsx';

const digest = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

describe('exam-end', () => {
  it('says the test is complete and the answers were sent, with the receipt', async () => {
    await renderView(<ExamEndScreen outcome="sent" receipt={{ answer_count: 3, digest }} onLogout={vi.fn()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Test complete' })).toBeTruthy();
    expect(screen.getByText('Your answer data has been sent.')).toBeTruthy();
    expect(screen.getByText('Results will be available later.')).toBeTruthy();
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    const values = screen.getAllByRole('definition').map((d) => d.textContent);
    expect(terms).toEqual(['Answers received', 'Receipt']);
    expect(values).toEqual(['3', '9f86d081']);
  });

  it('shows the header with placeholders', async () => {
    await renderView(<ExamEndScreen outcome="sent" receipt={null} onLogout={vi.fn()} />);
    expect(screen.getByRole('timer', { name: 'Time left' }).textContent).toBe('--:--');
    expect(screen.getByText('Question -- of --')).toBeTruthy();
    expect(screen.queryByRole('term')).toBeNull();
  });

  it('says when the test was cancelled and the answers could not be sent', async () => {
    await renderView(<ExamEndScreen outcome="cancelled" receipt={null} onLogout={vi.fn()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'The test was cancelled' })).toBeTruthy();
    expect(screen.getByText('Your answers could not be sent.')).toBeTruthy();
    expect(screen.getByText(/tell your teacher/)).toBeTruthy();
    expect(screen.queryByText('Test complete')).toBeNull();
  });

  it('logs out', async () => {
    const onLogout = vi.fn();
    const { user } = await renderView(<ExamEndScreen outcome="sent" receipt={null} onLogout={onLogout} />);
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });
});
