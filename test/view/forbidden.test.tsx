// @vitest-environment jsdom
/**
 * forbidden (/403): the "not logged in" view with the header; a login is needed; one way on, the login page.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ForbiddenScreen } from '../../src/screens/forbidden/forbidden.tsx';
import { renderView } from '../helpers/render-view.tsx';

describe('forbidden', () => {
  it('says a login is needed and goes to the login page', async () => {
    const onGoToLogin = vi.fn();
    const { user } = await renderView(<ForbiddenScreen api={{ goToLogin: onGoToLogin }} />);
    expect(screen.getByRole('heading', { level: 1, name: 'You are not logged in.' })).toBeTruthy();
    expect(screen.getByText('You need to log in to see this page.')).toBeTruthy();
    // The seed's "not logged in" view: the exam header above it, one main landmark, one h1.
    expect(screen.getByRole('banner').textContent).toContain('Question -- of --');
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Go to the login page' }));
    expect(onGoToLogin).toHaveBeenCalledOnce();
  });

  it('renders in Japanese from the ja catalog', async () => {
    await renderView(<ForbiddenScreen api={{ goToLogin: vi.fn() }} />, { language: 'ja' });
    expect(screen.getByText('このページを見るには、ログインしてください。')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'ログインページへ' })).toBeTruthy();
  });
});
