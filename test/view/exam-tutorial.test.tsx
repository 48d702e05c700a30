// @vitest-environment jsdom
/**
 * exam-tutorial: what the pupil is told before starting, and Continue.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ExamTutorialScreen } from '../../src/screens/exam-tutorial/exam-tutorial.tsx';
import { renderView } from './render.tsx';

describe('exam-tutorial', () => {
  it('explains the number of questions, the time, the timer, moving and saving', async () => {
    await renderView(<ExamTutorialScreen questionCount={12} timeLimitMinutes={40} onContinue={vi.fn()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'How the test works' })).toBeTruthy();
    const text = document.body.textContent ?? '';
    expect(text).toContain('The test has 12 questions.');
    expect(text).toContain('You have 40 minutes.');
    expect(text).toContain('The timer at the top of the screen');
    expect(text).toContain('Previous and Next');
    expect(text).toContain('You can change them until you finish the test.');
    expect(text).toContain('Your answers are saved as you go.');
  });

  it('uses the singular for one question', async () => {
    await renderView(<ExamTutorialScreen questionCount={1} timeLimitMinutes={40} onContinue={vi.fn()} />);
    expect(document.body.textContent).toContain('The test has 1 question.');
  });

  it('continues', async () => {
    const onContinue = vi.fn();
    const { user } = await renderView(<ExamTutorialScreen questionCount={3} timeLimitMinutes={40} onContinue={onContinue} />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledOnce();
  });
});
