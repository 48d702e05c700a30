// @vitest-environment jsdom
/**
 * not-found and booting: the two screens without a journey of their own.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BootingScreen } from '../../src/screens/booting/booting.tsx';
import { NotFoundScreen } from '../../src/screens/not-found/not-found.tsx';
import { renderView } from '../helpers/render-view.tsx';

describe('not-found', () => {
  it('says the page was not found and goes to the login page', async () => {
    const onGoToLogin = vi.fn();
    const { user } = await renderView(<NotFoundScreen api={{ goToLogin: onGoToLogin }} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to the login page' }));
    expect(onGoToLogin).toHaveBeenCalledOnce();
  });
});

describe('booting', () => {
  it('shows a calm skeleton that says it is loading, and nothing to press', async () => {
    await renderView(<BootingScreen />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByRole('main').getAttribute('aria-busy')).toBeNull();
  });
});
