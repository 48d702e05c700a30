// @vitest-environment jsdom
/**
 * testing-menu: the seed's TestingMenu states on three cards (pay fee, fee paid, payment not
 * completed, take test, exam completed, waiting for the result, view results), no button that
 * leads nowhere, loading, a failed load with Try again, and Log out.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChoosePageStatus } from '../../src/shared/contract.ts';
import { TestingMenuScreen, type TestingMenuScreenProps } from '../../src/screens/testing-menu/testing-menu.tsx';
import { renderView } from './render.tsx';

function menu(overrides: {
  exam_fee?: Partial<ChoosePageStatus['exam_fee']>;
  exam?: Partial<ChoosePageStatus['exam']>;
  result?: Partial<ChoosePageStatus['result']>;
} = {}): ChoosePageStatus {
  return {
    exam_fee: { required: true, status: 2, ...overrides.exam_fee },
    exam: { schedule_history_id: 42, status: 0, can_take: true, ...overrides.exam },
    result: { released: false, payment_status: 0, ...overrides.result },
    server_time: '2026-11-22T09:00:00.000Z',
  };
}

function props(overrides: Partial<TestingMenuScreenProps> = {}): TestingMenuScreenProps {
  return { status: 'ready', menu: menu(), error: null, onTakeTest: vi.fn(), onRetry: vi.fn(), onLogout: vi.fn(), ...overrides };
}

function card(name: string): HTMLElement {
  return screen.getByRole('heading', { level: 2, name }).closest('li') as HTMLElement;
}

describe('testing-menu', () => {
  it('shows the three cards as a list: fee paid, take test, waiting for the result', async () => {
    await renderView(<TestingMenuScreen {...props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Menu' })).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Exam fee', 'Test', 'Results']);
    expect(within(card('Exam fee')).getByText('Fee paid')).toBeTruthy();
    expect(within(card('Results')).getByText('Waiting for the result to be released')).toBeTruthy();
    expect(within(card('Exam fee')).queryAllByRole('button')).toHaveLength(0);
    expect(within(card('Results')).queryAllByRole('button')).toHaveLength(0);
  });

  it('takes the test with "Take test" when it can be taken', async () => {
    const onTakeTest = vi.fn();
    const { user } = await renderView(<TestingMenuScreen {...props({ onTakeTest })} />);
    const take = screen.getByRole('button', { name: 'Take test' }) as HTMLButtonElement;
    expect(take.disabled).toBe(false);
    expect(take.getAttribute('data-variant')).toBe('primary');
    await user.click(take);
    expect(onTakeTest).toHaveBeenCalledOnce();
  });

  it('shows "Pay fee" as a state with a note, no payment button, and Take test disabled until paid', async () => {
    const onTakeTest = vi.fn();
    const { user } = await renderView(
      <TestingMenuScreen {...props({ menu: menu({ exam_fee: { status: 0 }, exam: { can_take: false } }), onTakeTest })} />,
    );
    const fee = card('Exam fee');
    expect(within(fee).getByText('Pay fee')).toBeTruthy();
    expect(within(fee).getByText(/Online payment will open here/)).toBeTruthy();
    expect(within(fee).queryAllByRole('button')).toHaveLength(0);
    const take = screen.getByRole('button', { name: 'Take test' }) as HTMLButtonElement;
    expect(take.disabled).toBe(true);
    expect(within(card('Test')).getByText('You can take the test once the exam fee is paid.')).toBeTruthy();
    await user.click(take);
    expect(onTakeTest).not.toHaveBeenCalled();
  });

  it('shows "Payment not completed" while the payment is pending', async () => {
    await renderView(<TestingMenuScreen {...props({ menu: menu({ exam_fee: { status: 1 }, exam: { can_take: false } }) })} />);
    expect(within(card('Exam fee')).getByText('Payment not completed')).toBeTruthy();
  });

  it('hides the payment card when no fee is paid online', async () => {
    await renderView(<TestingMenuScreen {...props({ menu: menu({ exam_fee: { required: false, status: 0 } }) })} />);
    expect(screen.queryByRole('heading', { name: 'Exam fee' })).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('says why the test cannot be taken when the fee is settled', async () => {
    await renderView(<TestingMenuScreen {...props({ menu: menu({ exam: { can_take: false } }) })} />);
    expect(within(card('Test')).getByText('You cannot take the test right now.')).toBeTruthy();
  });

  it.each([1, 4, 5, 8])('shows "Exam completed" and no Take test button in status %i', async (status) => {
    await renderView(<TestingMenuScreen {...props({ menu: menu({ exam: { status: status as 1, can_take: false } }) })} />);
    expect(within(card('Test')).getByText('Exam completed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take test' })).toBeNull();
  });

  it('shows "View results" as a state, not a link, once results are released', async () => {
    await renderView(<TestingMenuScreen {...props({ menu: menu({ exam: { status: 5, can_take: false }, result: { released: true } }) })} />);
    const results = card('Results');
    expect(within(results).getByText('View results')).toBeTruthy();
    expect(within(results).queryAllByRole('button')).toHaveLength(0);
    expect(within(results).queryAllByRole('link')).toHaveLength(0);
  });

  it('logs out with "Log out"', async () => {
    const onLogout = vi.fn();
    const { user } = await renderView(<TestingMenuScreen {...props({ onLogout })} />);
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('shows a skeleton while the menu loads, and only Log out', async () => {
    await renderView(<TestingMenuScreen {...props({ status: 'loading', menu: null })} />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Log out']);
  });

  it('tells a failed load and offers Try again', async () => {
    const onRetry = vi.fn();
    const { user } = await renderView(<TestingMenuScreen {...props({ status: 'error', menu: null, error: 'NETWORK_ERROR', onRetry })} />);
    expect(screen.getByRole('alert').textContent).toBe('Network error. Please check the connection and try again.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('renders in Japanese from the ja catalog', async () => {
    await renderView(<TestingMenuScreen {...props()} />, { language: 'ja' });
    expect(screen.getByRole('button', { name: 'テストを受ける' })).toBeTruthy();
    expect(screen.getByText('結果の発表をまっています')).toBeTruthy();
  });
});
