// @vitest-environment jsdom
/**
 * login (login ID and password): the page's school, the two fields and the password toggle,
 * field errors tied to their fields, refused logins as alerts, busy, loading, a failed load
 * with Try again, the invalid-URL page without a form, and the Japanese catalog.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LoginApi } from '../../machines/session/session.connect.ts';
import { LoginScreen } from '../../src/screens/login/login.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { loginApi } from '../helpers/session-fixtures.ts';

const place = { organizationName: 'Sakura Primary School', scheduleName: 'Spring test 2026', venueName: 'Room 2' };

function props(overrides: Partial<LoginApi> = {}): LoginApi {
  return loginApi({ place, ...overrides });
}

function describedText(field: HTMLElement): string[] {
  return (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '');
}

describe('login', () => {
  it('shows the heading, the school, schedule and venue, and the two fields with autocomplete off', async () => {
    await renderView(<LoginScreen api={props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['School', 'Schedule', 'Venue']);
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual(['Sakura Primary School', 'Spring test 2026', 'Room 2']);
    const loginId = screen.getByRole('textbox', { name: 'Login ID' });
    const password = screen.getByLabelText('Password');
    expect(loginId.getAttribute('autocomplete')).toBe('off');
    expect(password.getAttribute('autocomplete')).toBe('off');
    expect(password.getAttribute('type')).toBe('password');
    expect(loginId.getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(loginId);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows only the school when the page names no schedule or venue', async () => {
    await renderView(<LoginScreen api={props({ place: { organizationName: 'Sakura Primary School', scheduleName: null, venueName: null } })} />);
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['School']);
  });

  it('says "Log in to your exams" for an examinee login', async () => {
    await renderView(<LoginScreen api={props({ kind: 'examinee' })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Log in to your exams' })).toBeTruthy();
  });

  it('hands login ID and password to onSubmit, by button and by Enter', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderView(<LoginScreen api={props({ submit: onSubmit })} />);
    await user.type(screen.getByRole('textbox', { name: 'Login ID' }), 'pupil-01');
    await user.type(screen.getByLabelText('Password'), 'secret 1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await user.keyboard('{Enter}');
    expect(onSubmit.mock.calls).toEqual([
      [{ login_id: 'pupil-01', password: 'secret 1' }],
      [{ login_id: 'pupil-01', password: 'secret 1' }],
    ]);
  });

  it('shows and hides the password', async () => {
    const { user } = await renderView(<LoginScreen api={props()} />);
    const password = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle.getAttribute('aria-controls')).toBe(password.id);
    await user.click(toggle);
    expect(password.getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.getAttribute('type')).toBe('password');
  });

  it('shows "required" under each empty field, tied to it, and focuses the first after a submit', async () => {
    const onSubmit = vi.fn();
    const { user, rerender } = await renderView(<LoginScreen api={props({ submit: onSubmit })} />);
    await user.click(screen.getByLabelText('Password'));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    rerender(<LoginScreen api={props({ submit: onSubmit, error: { kind: 'fields', fields: { login_id: 'required', password: 'required' } } })} />);
    const loginId = screen.getByRole('textbox', { name: 'Login ID' });
    const password = screen.getByLabelText('Password');
    expect(loginId.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(loginId)).toEqual(['Login ID is a required field']);
    expect(describedText(password)).toEqual(['Password is a required field']);
    expect(document.activeElement).toBe(loginId);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells a field that is not valid', async () => {
    await renderView(<LoginScreen api={props({ error: { kind: 'fields', fields: { password: 'invalid' } } })} />);
    expect(screen.getByRole('textbox', { name: 'Login ID' }).getAttribute('aria-invalid')).toBeNull();
    expect(describedText(screen.getByLabelText('Password'))).toEqual(['This is too long. Please make it shorter.']);
  });

  it.each([
    ['INCORRECT_ID_PASSWORD', 'The test ID or password is incorrect.'],
    ['ACCOUNT_LOCKED', 'The account is locked. Please try again in 1 minute.'],
    ['INCORRECT_LOGIN_METHOD', 'This account cannot log in this way. Please ask your teacher how to log in.'],
    ['DISABLED_CLASS', 'This classroom is not valid. Please ask your teacher.'],
    ['DISABLED_ORGANIZATION', 'This organization has been disabled. Please ask your teacher.'],
    ['TIME_START', 'The test period has not started yet.'],
    ['TIME_END', 'The test period has ended.'],
    ['EXPIRED', 'The exam is closed.'],
    ['SCHEDULE_SUSPENSION_TIME', 'This is outside test hours.'],
    ['DURING_MAINTENANCE', 'This is outside test hours.'],
    ['ER_SCHEDULE_HISTORY_COMPLETED', 'This account has already been used or the exam has ended.'],
    ['ER_SCHEDULE_HISTORY_CANCELLED', 'This exam has been cancelled. Please ask your teacher.'],
    ['NETWORK_ERROR', 'Network error. Please check the connection and try again.'],
  ] as const)('tells a refused login (%s) as an alert above the form', async (code, text) => {
    await renderView(<LoginScreen api={props({ error: { kind: 'failure', code } })} />);
    expect(screen.getByRole('alert').textContent).toBe(text);
    expect(screen.getByRole('textbox', { name: 'Login ID' })).toBeTruthy();
  });

  it('waits while busy: the button says so and does not submit again', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderView(<LoginScreen api={props({ busy: true, submit: onSubmit })} />);
    const button = screen.getByRole('button', { name: 'Logging in…' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    await user.click(button);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows a skeleton and no form while the page loads', async () => {
    await renderView(<LoginScreen api={props({ status: 'loading', place: null })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
  });

  it('tells a failed load and offers Try again', async () => {
    const onRetry = vi.fn();
    const { user } = await renderView(
      <LoginScreen api={props({ status: 'error', place: null, error: { kind: 'failure', code: 'TIMEOUT' }, retry: onRetry })} />,
    );
    expect(screen.getByRole('alert').textContent).toBe('Network error. Please check the connection and try again.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows the invalid-URL page, with no form, when the page names no known schedule or school', async () => {
    await renderView(<LoginScreen api={props({ status: 'invalid', place: null })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'The venue, organization or schedule URL is not valid.' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByRole('combobox', { name: 'Language' })).toBeTruthy();
  });

  it('renders in Japanese from the ja catalog', async () => {
    await renderView(<LoginScreen api={props({ error: { kind: 'failure', code: 'INCORRECT_ID_PASSWORD' } })} />, { language: 'ja' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('ログイン');
    expect(screen.getByRole('textbox', { name: 'ログインID' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'パスワードを表示' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('テストIDかパスワードがちがいます。');
  });

  it('offers the school account instead of a form when the school signs its pupils in itself', async () => {
    await renderView(<LoginScreen api={props({ kind: 'sso', ssoUrl: '/api/sso/oidc/start?school=GRADUS-OAUTH' })} />);
    const link = screen.getByRole('link', { name: 'Sign in with your school account' });
    expect(link.getAttribute('href')).toBe('/api/sso/oidc/start?school=GRADUS-OAUTH');
    expect(screen.queryByRole('textbox', { name: 'Login ID' })).toBeNull();
  });

  it('says so when single sign-on is not set up on this server', async () => {
    await renderView(<LoginScreen api={props({ kind: 'sso', ssoUrl: null })} />);
    expect(screen.getByRole('alert').textContent).toContain('not set up here yet');
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Login ID' })).toBeNull();
  });
});
