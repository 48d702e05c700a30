// @vitest-environment jsdom
/**
 * exam-start: the warning that the test cannot be started over, Start, busy, and a failure.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ExamStartScreen, type ExamStartScreenProps } from '../../src/screens/exam-start/exam-start.tsx';
import { renderView } from './render.tsx';

function props(overrides: Partial<ExamStartScreenProps> = {}): ExamStartScreenProps {
  return { busy: false, error: null, timeLimitMinutes: 40, onStart: vi.fn(), ...overrides };
}

describe('exam-start', () => {
  it('warns that the 40 minutes begin and the test cannot be started over', async () => {
    await renderView(<ExamStartScreen {...props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Ready to start' })).toBeTruthy();
    expect(screen.getByText(/cannot start the test over/).textContent).toBe(
      'Once you press Start, the 40 minutes begin and you cannot start the test over.',
    );
  });

  it('starts with "Start the test"', async () => {
    const onStart = vi.fn();
    const { user } = await renderView(<ExamStartScreen {...props({ onStart })} />);
    await user.click(screen.getByRole('button', { name: 'Start the test' }));
    expect(onStart).toHaveBeenCalledOnce();
  });

  it('does not start twice while the server answers', async () => {
    const onStart = vi.fn();
    const { user } = await renderView(<ExamStartScreen {...props({ busy: true, onStart })} />);
    const button = screen.getByRole('button', { name: 'Starting…' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    await user.click(button);
    expect(onStart).not.toHaveBeenCalled();
  });

  it('tells a failure', async () => {
    await renderView(<ExamStartScreen {...props({ error: 'DURING_MAINTENANCE' })} />);
    expect(screen.getByRole('alert').textContent).toBe('This is outside test hours.');
  });
});
