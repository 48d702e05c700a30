// @vitest-environment jsdom
/**
 * entry: what /oauth*, /app-entry show while the session machine works, and why it failed (an
 * SSO error code or a failed call), with the way to the login page.
 */
import { screen } from '@testing-library/react';
import { setupI18n } from '@lingui/core';
import { describe, expect, it, vi } from 'vitest';
import { ssoErrorCodes } from '../../contract/session.ts';
import { ssoErrorMessage, ssoErrorMessages } from '../../src/i18n/sso-messages.ts';
import { EntryScreen } from '../../src/screens/entry/entry.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { entryApi } from '../helpers/session-fixtures.ts';

describe('entry', () => {
  it('shows a skeleton while signing in, and nothing to press', async () => {
    await renderView(<EntryScreen api={entryApi({ status: 'working', error: null }, vi.fn())} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Signing you in…' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it.each([
    ['invalid_role', 'This account cannot sit tests. Please ask your teacher.'],
    ['school_notfound', 'Your school could not be found. Please ask your teacher.'],
    ['user_notfound', 'Your account could not be found. Please ask your teacher.'],
    ['disabled_org', 'The organization is disabled.'],
    ['disabled_class', 'This classroom is not valid.'],
    ['invalid_login_method', 'This account cannot log in this way. Please ask your teacher how to log in.'],
    ['invalid_state', 'Sign-in did not work. Please try again.'],
    ['invalid_nonce', 'Sign-in did not work. Please try again.'],
    ['id_token_notfound', 'Sign-in did not work. Please try again.'],
    ['unknown', 'Sign-in did not work. Please try again.'],
  ] as const)('tells the SSO error %s as an alert', async (code, text) => {
    await renderView(<EntryScreen api={entryApi({ status: 'failed', error: { kind: 'sso', code } }, vi.fn())} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Could not log in' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(text);
  });

  it('tells a failed call as an alert', async () => {
    await renderView(<EntryScreen api={entryApi({ status: 'failed', error: { kind: 'failure', code: 'DURING_MAINTENANCE' } }, vi.fn())} />);
    expect(screen.getByRole('alert').textContent).toBe('This is outside test hours.');
  });

  it('reads a failure without a known reason as "try again", and goes to the login page', async () => {
    const onGoToLogin = vi.fn();
    const { user } = await renderView(<EntryScreen api={entryApi({ status: 'failed', error: null }, onGoToLogin)} />);
    expect(screen.getByRole('alert').textContent).toBe('Sign-in did not work. Please try again.');
    await user.click(screen.getByRole('button', { name: 'Go to the login page' }));
    expect(onGoToLogin).toHaveBeenCalledOnce();
  });

  it('has a message for every SSO code of the contract, and "try again" for an unknown one', () => {
    const i18n = setupI18n({ locale: 'en', messages: { en: {} } });
    expect(Object.keys(ssoErrorMessages).sort()).toEqual([...ssoErrorCodes].sort());
    expect(i18n._(ssoErrorMessage('something_new'))).toBe('Sign-in did not work. Please try again.');
  });

  it('renders in Japanese from the ja catalog', async () => {
    await renderView(<EntryScreen api={entryApi({ status: 'failed', error: { kind: 'sso', code: 'invalid_role' } }, vi.fn())} />, { language: 'ja' });
    expect(screen.getByRole('alert').textContent).toBe('このアカウントでは、テストを受けられません。先生に聞いてください。');
  });
});
