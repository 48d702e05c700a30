// @vitest-environment jsdom
/**
 * not-logged-in: the seed's "not logged in" view with the exam header and its placeholders.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NotLoggedInScreen } from '../../src/screens/not-logged-in/not-logged-in.tsx';
import { renderView } from '../helpers/render-view.tsx';

describe('not-logged-in', () => {
  it('shows the header with placeholders above the message', async () => {
    await renderView(<NotLoggedInScreen onGoToLogin={vi.fn()} />);
    const header = screen.getByRole('banner');
    expect(header.textContent).toContain('Gradus');
    expect(header.textContent).toContain('Question -- of --');
    expect(screen.getByRole('timer').textContent).toBe('--:--');
    expect(screen.getByRole('heading', { level: 1, name: 'You are not logged in.' })).toBeTruthy();
  });

  it('goes to the login page', async () => {
    const onGoToLogin = vi.fn();
    const { user } = await renderView(<NotLoggedInScreen onGoToLogin={onGoToLogin} />);
    await user.click(screen.getByRole('button', { name: 'Go to the login page' }));
    expect(onGoToLogin).toHaveBeenCalledOnce();
  });
});
