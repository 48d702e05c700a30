// @vitest-environment jsdom
/**
 * login-confirm: loading skeleton, the candidate's details, confirm and reject, a failed load
 * with Try again.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LoginConfirmScreen } from '../../src/screens/login-confirm/login-confirm.tsx';
import { examDetails, loginConfirmApi as props } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

describe('login-confirm', () => {
  it('shows a skeleton while the details load, and no buttons yet', async () => {
    await renderView(<LoginConfirmScreen api={props({ status: 'loading', details: null })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Is this you?' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('shows name, subject and level in a description list', async () => {
    await renderView(<LoginConfirmScreen api={props()} />);
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    const values = screen.getAllByRole('definition').map((d) => d.textContent);
    expect(terms).toEqual(['Name', 'Subject', 'Level']);
    expect(values).toEqual(['Aiko Tanaka', 'English (vocabulary)', 'Level 3']);
  });

  it('continues with "Yes, continue" and logs out with "No, log out"', async () => {
    const onConfirm = vi.fn();
    const onReject = vi.fn();
    const { user } = await renderView(<LoginConfirmScreen api={props({ confirm: onConfirm, reject: onReject })} />);
    await user.click(screen.getByRole('button', { name: 'Yes, continue' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'No, log out' }));
    expect(onReject).toHaveBeenCalledOnce();
  });

  it('tells a failed load and offers Try again', async () => {
    const onRetry = vi.fn();
    const { user } = await renderView(
      <LoginConfirmScreen api={props({ status: 'error', details: null, error: 'TIMEOUT', retry: onRetry })} />,
    );
    expect(screen.getByRole('alert').textContent).toBe('Network error. Please check the connection and try again.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('term')).toBeNull();
  });

  it('keeps the server name of a subject it does not know', async () => {
    const details = { ...examDetails, subject: { id: 99 as 1, name: 'Music' } };
    await renderView(<LoginConfirmScreen api={props({ details })} />);
    expect(within(screen.getAllByRole('definition')[1]!).getByText('Music')).toBeTruthy();
  });
});
