// @vitest-environment jsdom
/**
 * exam-start: the warning that the test cannot be started over, Start, busy, and a failure; after
 * Start, the step while this terminal gets ready to work offline, and, when it cannot, the warning
 * and "Start anyway" (in every language: a German pupil reads them in German).
 */
import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ExamStartScreen } from '../../src/screens/exam-start/exam-start.tsx';
import { examStartApi as props } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

describe('exam-start', () => {
  it('warns that the 40 minutes begin and the test cannot be started over', async () => {
    await renderView(<ExamStartScreen api={props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Ready to start' })).toBeTruthy();
    expect(screen.getByText(/cannot start the test over/).textContent).toBe(
      'Once you press Start, the 40 minutes begin and you cannot start the test over.',
    );
  });

  it('starts with "Start the test"', async () => {
    const onStart = vi.fn();
    const { user } = await renderView(<ExamStartScreen api={props({ start: onStart })} />);
    await user.click(screen.getByRole('button', { name: 'Start the test' }));
    expect(onStart).toHaveBeenCalledOnce();
  });

  it('does not start twice while the server answers', async () => {
    const onStart = vi.fn();
    const { user } = await renderView(<ExamStartScreen api={props({ busy: true, start: onStart })} />);
    const button = screen.getByRole('button', { name: 'Starting…' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    await user.click(button);
    expect(onStart).not.toHaveBeenCalled();
  });

  it('shows the step while this terminal gets ready to work offline, and does not start twice', async () => {
    const onStart = vi.fn();
    const { user } = await renderView(<ExamStartScreen api={props({ busy: true, offline: 'preparing', start: onStart })} />);
    const step = screen.getByRole('button', { name: 'Preparing this terminal to work offline…' });
    expect(step.getAttribute('aria-busy')).toBe('true');
    await user.click(step);
    expect(onStart).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when this terminal could not get ready to work offline, and starts anyway on request', async () => {
    const onStart = vi.fn();
    const onStartAnyway = vi.fn();
    const { user } = await renderView(<ExamStartScreen api={props({ offline: 'unavailable', start: onStart, startAnyway: onStartAnyway })} />);
    expect(screen.getByRole('alert').textContent).toBe(
      'This terminal could not get ready to work offline. You can still start: your answers are saved as usual, but if the network drops, keep this page open and do not reload it.',
    );
    expect(screen.queryByRole('button', { name: 'Start the test' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Start anyway' }));
    expect(onStartAnyway).toHaveBeenCalledOnce();
    expect(onStart).not.toHaveBeenCalled();
  });

  it('says both in the pupil\'s language', async () => {
    await renderView(<ExamStartScreen api={props({ busy: true, offline: 'preparing' })} />, { language: 'de' });
    expect(screen.getByRole('button', { name: 'Dieses Gerät wird für die Arbeit ohne Netzwerk vorbereitet…' })).toBeTruthy();
    cleanup();
    await renderView(<ExamStartScreen api={props({ offline: 'unavailable' })} />, { language: 'de' });
    expect(screen.getByRole('alert').textContent).toMatch(/^Dieses Gerät konnte nicht für die Arbeit ohne Netzwerk vorbereitet werden\./);
    expect(screen.getByRole('button', { name: 'Trotzdem starten' })).toBeTruthy();
  });

  it('tells a failure', async () => {
    await renderView(<ExamStartScreen api={props({ error: 'DURING_MAINTENANCE' })} />);
    expect(screen.getByRole('alert').textContent).toBe('This is outside test hours.');
  });
});
