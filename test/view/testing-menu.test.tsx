// @vitest-environment jsdom
/**
 * testing-menu: every seed TestingMenu state live on three cards (pay fee, fee paid, payment not
 * completed, take test, exam completed, waiting for the result with its release date, view
 * results), one primary action, no button that leads nowhere, loading, a failed load with Try
 * again, and Log out.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MenuView } from '../../machines/session/session.selectors.ts';
import type { MenuApi } from '../../machines/session/session.connect.ts';
import { TestingMenuScreen } from '../../src/screens/testing-menu/testing-menu.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { menuApi } from '../helpers/session-fixtures.ts';

function menu(overrides: Partial<MenuView> = {}): MenuView {
  return { fee: 'paid', exam: 'can_take', result: 'not_finished', releaseAt: null, next: 'take_test', ...overrides };
}

function props(overrides: Partial<MenuApi> = {}): MenuApi {
  return menuApi({ menu: menu(), ...overrides });
}

function card(name: string): HTMLElement {
  return screen.getByRole('heading', { level: 2, name }).closest('li') as HTMLElement;
}

function primaryButtons(): string[] {
  return screen
    .getAllByRole('button')
    .filter((button) => button.getAttribute('data-variant') === 'primary')
    .map((button) => button.textContent ?? '');
}

describe('testing-menu', () => {
  it('shows the three cards as a list: fee paid, take test, results after the exam', async () => {
    await renderView(<TestingMenuScreen api={props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Menu' })).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Exam fee', 'Test', 'Results']);
    expect(within(card('Exam fee')).getByText('Fee paid')).toBeTruthy();
    expect(within(card('Exam fee')).queryAllByRole('button')).toHaveLength(0);
    expect(within(card('Results')).getByText('Your result will be shown here one week after the exam.')).toBeTruthy();
    expect(within(card('Results')).queryAllByRole('button')).toHaveLength(0);
  });

  it('takes the test with "Take test", the one primary action', async () => {
    const onTakeTest = vi.fn();
    const { user } = await renderView(<TestingMenuScreen api={props({ takeTest: onTakeTest })} />);
    const take = screen.getByRole('button', { name: 'Take test' }) as HTMLButtonElement;
    expect(take.disabled).toBe(false);
    expect(primaryButtons()).toEqual(['Take test']);
    await user.click(take);
    expect(onTakeTest).toHaveBeenCalledOnce();
  });

  it('pays the fee with "Pay fee" (primary) while Take test waits for the payment', async () => {
    const onPayFee = vi.fn();
    const onTakeTest = vi.fn();
    const { user } = await renderView(
      <TestingMenuScreen api={props({ menu: menu({ fee: 'to_pay', exam: 'needs_fee', next: 'pay_fee' }), payFee: onPayFee, takeTest: onTakeTest })} />,
    );
    expect(primaryButtons()).toEqual(['Pay fee']);
    await user.click(within(card('Exam fee')).getByRole('button', { name: 'Pay fee' }));
    expect(onPayFee).toHaveBeenCalledOnce();
    const take = screen.getByRole('button', { name: 'Take test' }) as HTMLButtonElement;
    expect(take.disabled).toBe(true);
    expect(within(card('Test')).getByText('You can take the test once the exam fee is paid.')).toBeTruthy();
    await user.click(take);
    expect(onTakeTest).not.toHaveBeenCalled();
  });

  it('shows "Payment not completed" with a way back to the pending payment', async () => {
    const onPayFee = vi.fn();
    const { user } = await renderView(
      <TestingMenuScreen api={props({ menu: menu({ fee: 'pending', exam: 'needs_fee', next: 'pay_fee' }), payFee: onPayFee })} />,
    );
    const fee = card('Exam fee');
    expect(within(fee).getByText('Payment not completed')).toBeTruthy();
    expect(within(fee).getByText(/nothing is charged twice/)).toBeTruthy();
    await user.click(within(fee).getByRole('button', { name: 'Go to the payment' }));
    expect(onPayFee).toHaveBeenCalledOnce();
  });

  it('shows the fee state in words, with no button, when the host has no payment screen', async () => {
    const { payFee: _omit, ...rest } = props({ menu: menu({ fee: 'to_pay', exam: 'needs_fee', next: 'pay_fee' }) });
    await renderView(<TestingMenuScreen api={rest} />);
    expect(within(card('Exam fee')).getByText('Pay fee')).toBeTruthy();
    expect(within(card('Exam fee')).queryAllByRole('button')).toHaveLength(0);
  });

  it('hides the payment card when no fee is paid online', async () => {
    await renderView(<TestingMenuScreen api={props({ menu: menu({ fee: 'not_required' }) })} />);
    expect(screen.queryByRole('heading', { name: 'Exam fee' })).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('says why the test cannot be taken when the fee is settled', async () => {
    await renderView(<TestingMenuScreen api={props({ menu: menu({ exam: 'unavailable', next: null }) })} />);
    expect(within(card('Test')).getByText('You cannot take the test right now.')).toBeTruthy();
    expect(primaryButtons()).toEqual([]);
  });

  it('shows "Exam completed" and "Waiting for the result to be released", with the release date in the language\'s format', async () => {
    const view = menu({ exam: 'completed', result: 'waiting', releaseAt: '2026-11-29T12:00:00.000Z', next: null });
    await renderView(<TestingMenuScreen api={props({ menu: view })} />);
    expect(within(card('Test')).getByText('Exam completed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take test' })).toBeNull();
    const results = card('Results');
    expect(within(results).getByText('Waiting for the result to be released')).toBeTruthy();
    expect(within(results).getByText('The result will be released on 11/29/2026.')).toBeTruthy();
  });

  it('writes the release date in Japanese long format in Japanese', async () => {
    const view = menu({ exam: 'completed', result: 'waiting', releaseAt: '2026-11-29T12:00:00.000Z', next: null });
    await renderView(<TestingMenuScreen api={props({ menu: view })} />, { language: 'ja' });
    expect(within(screen.getByRole('list')).getByText(/2026年11月29日/)).toBeTruthy();
  });

  it('says when results come when the release date is not known', async () => {
    await renderView(<TestingMenuScreen api={props({ menu: menu({ exam: 'completed', result: 'waiting', next: null }) })} />);
    expect(within(card('Results')).getByText('Results can be viewed from one week after the exam.')).toBeTruthy();
  });

  it('opens the results with "View results" (primary) once released', async () => {
    const onViewResults = vi.fn();
    const view = menu({ exam: 'completed', result: 'viewable', next: 'view_results' });
    const { user } = await renderView(<TestingMenuScreen api={props({ menu: view, viewResults: onViewResults })} />);
    expect(primaryButtons()).toEqual(['View results']);
    await user.click(within(card('Results')).getByRole('button', { name: 'View results' }));
    expect(onViewResults).toHaveBeenCalledOnce();
  });

  it('says a result past its two years can no longer be viewed (not that it waits), in English and Japanese', async () => {
    const view = menu({ exam: 'completed', result: 'expired', next: null });
    const { unmount } = await renderView(<TestingMenuScreen api={props({ menu: view })} />);
    const results = card('Results');
    expect(within(results).getByText('Results can be viewed for two years after the exam. This result can no longer be viewed.')).toBeTruthy();
    expect(within(results).queryByText('Waiting for the result to be released')).toBeNull();
    expect(within(results).queryAllByRole('button')).toHaveLength(0);
    expect(primaryButtons()).toEqual([]);
    unmount();
    await renderView(<TestingMenuScreen api={props({ menu: view })} />, { language: 'ja' });
    expect(screen.getByText('結果はテストから2年間見られます。この結果はもう見られません。')).toBeTruthy();
  });

  it('explains a cancelled or expired exam, which has no result', async () => {
    const { unmount } = await renderView(<TestingMenuScreen api={props({ menu: menu({ exam: 'cancelled', result: 'none', next: null }) })} />);
    expect(within(card('Test')).getByText('This exam has been cancelled. Please ask your teacher.')).toBeTruthy();
    expect(within(card('Results')).getByText('There is no result for this exam.')).toBeTruthy();
    unmount();
    await renderView(<TestingMenuScreen api={props({ menu: menu({ exam: 'expired', result: 'none', next: null }) })} />);
    expect(within(card('Test')).getByText('The test period has ended.')).toBeTruthy();
  });

  it('is used with the keyboard: Tab reaches the actions in order and Enter presses them', async () => {
    const onPayFee = vi.fn();
    const view = menu({ fee: 'to_pay', exam: 'needs_fee', next: 'pay_fee' });
    const { user } = await renderView(<TestingMenuScreen api={props({ menu: view, payFee: onPayFee })} />);
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Pay fee');
    await user.keyboard('{Enter}');
    expect(onPayFee).toHaveBeenCalledOnce();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Log out');
  });

  it('logs out with "Log out"', async () => {
    const onLogout = vi.fn();
    const { user } = await renderView(<TestingMenuScreen api={props({ logout: onLogout })} />);
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('shows a skeleton while the menu loads, and only Log out', async () => {
    await renderView(<TestingMenuScreen api={props({ status: 'loading', menu: null })} />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Log out']);
  });

  it('tells a failed load and offers Try again', async () => {
    const onRetry = vi.fn();
    const { user } = await renderView(<TestingMenuScreen api={props({ status: 'error', menu: null, error: 'NETWORK_ERROR', retry: onRetry })} />);
    expect(screen.getByRole('alert').textContent).toBe('Network error. Please check the connection and try again.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('renders in Japanese from the ja catalog', async () => {
    await renderView(<TestingMenuScreen api={props({ menu: menu({ exam: 'can_take', result: 'waiting' }) })} />, { language: 'ja' });
    expect(screen.getByRole('button', { name: 'テストを受ける' })).toBeTruthy();
    expect(screen.getByText('結果の発表をまっています')).toBeTruthy();
  });
});
