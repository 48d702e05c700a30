// @vitest-environment jsdom
/**
 * login-code: the form, its field errors tied to the field, failures as alerts, the busy
 * state, the language picker, and the Japanese catalog.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storageKeys } from '../../machines/shared/storage.ts';
import { LoginCodeScreen } from '../../src/screens/login-code/login-code.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { loginCodeApi } from '../helpers/session-fixtures.ts';

const props = loginCodeApi;

describe('login-code', () => {
  it('shows the heading, the labelled code field with its format hint and the Log in button', async () => {
    await renderView(<LoginCodeScreen api={props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Log in with your login code' })).toBeTruthy();
    const field = screen.getByRole('textbox', { name: 'Login code' });
    expect(field.getAttribute('autocomplete')).toBe('off');
    expect(field.getAttribute('autocapitalize')).toBe('characters');
    expect(field.getAttribute('inputmode')).toBe('text');
    expect(field.getAttribute('aria-invalid')).toBeNull();
    const hint = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toContain('AC3E-F4GH-J6KM');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(document.activeElement).toBe(field);
  });

  it('hands the code as typed to onSubmit, by button and by Enter', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderView(<LoginCodeScreen api={props({ submit: onSubmit })} />);
    await user.type(screen.getByRole('textbox', { name: 'Login code' }), 'ac3e f4gh j6km');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await user.keyboard('{Enter}');
    expect(onSubmit.mock.calls).toEqual([['ac3e f4gh j6km'], ['ac3e f4gh j6km']]);
  });

  it('shows "required" under the field, tied to it', async () => {
    await renderView(<LoginCodeScreen api={props({ error: { kind: 'field', rule: 'required' } })} />);
    const field = screen.getByRole('textbox', { name: 'Login code' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const described = (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described[0]).toBe('Login code is a required field');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the format when the code is not a login code', async () => {
    await renderView(<LoginCodeScreen api={props({ error: { kind: 'field', rule: 'invalid' } })} />);
    const field = screen.getByRole('textbox', { name: 'Login code' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const errorId = (field.getAttribute('aria-describedby') ?? '').split(' ')[0] ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe(
      'A login code is three groups of four letters and numbers, like AC3E-F4GH-J6KM.',
    );
  });

  it('shows a failed login as an alert', async () => {
    await renderView(<LoginCodeScreen api={props({ error: { kind: 'failure', code: 'LOGIN_CODE_INCORRECT' } })} />);
    expect(screen.getByRole('alert').textContent).toBe('The login code is incorrect.');
    expect(screen.getByRole('textbox', { name: 'Login code' }).getAttribute('aria-invalid')).toBeNull();
  });

  it.each([
    ['NETWORK_ERROR', 'Network error. Please check the connection and try again.'],
    ['ACCOUNT_LOCKED', 'The account is locked. Please try again in 1 minute.'],
    ['TIME_START', 'The test period has not started yet.'],
    ['ER_SCHEDULE_HISTORY_COMPLETED', 'This account has already been used or the exam has ended.'],
  ] as const)('tells %s in words', async (code, text) => {
    await renderView(<LoginCodeScreen api={props({ error: { kind: 'failure', code } })} />);
    expect(screen.getByRole('alert').textContent).toBe(text);
  });

  it('waits while busy: the button says so and does not submit again', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderView(<LoginCodeScreen api={props({ busy: true, submit: onSubmit })} />);
    const button = screen.getByRole('button', { name: 'Logging in…' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    await user.click(button);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('offers every language by its own name and switches at once, remembering the choice', async () => {
    const { user, storage } = await renderView(<LoginCodeScreen api={props()} />);
    const picker = screen.getByRole('combobox', { name: 'Language' });
    const names = within(picker).getAllByRole('option').map((o) => o.textContent);
    expect(names).toHaveLength(24);
    expect(names).toEqual(expect.arrayContaining(['English', '日本語', 'العربية', 'العربية (٠١٢٣)', 'Español']));

    await user.selectOptions(picker, 'ja');
    expect(await screen.findByRole('heading', { name: 'ログインコードでログインしましょう' })).toBeTruthy();
    expect(storage.getItem(storageKeys.language)).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');
    expect(document.documentElement.dir).toBe('ltr');

    await user.selectOptions(screen.getByRole('combobox', { name: 'ことば' }), 'ar');
    await vi.waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
  });

  it('renders in Japanese from the ja catalog', async () => {
    await renderView(<LoginCodeScreen api={props({ error: { kind: 'failure', code: 'LOGIN_CODE_INCORRECT' } })} />, {
      language: 'ja',
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('ログインコードでログインしましょう');
    expect(screen.getByRole('textbox', { name: 'ログインコード' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'ログイン' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('ログインコードがちがいます。');
  });
});
