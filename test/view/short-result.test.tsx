// @vitest-environment jsdom
/**
 * short-result: score out of the maximum, passed or not in words and an icon, the correct rate
 * with one decimal in the language's numbers (Arabic-Indic digits for the numerals variant), the
 * translated subject with its level, the exam date; Buy and Open the score report by what is
 * owned; the not-released and expired refusals in their own words; loading and failed states.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ShortResult } from '../../contract/results.ts';
import { hasItemsToBuy, isRetryableLoad, ownsResultSheet } from '../../machines/results/results.selectors.ts';
import type { OwnedItems } from '../../machines/results/results.types.ts';
import type { ShortResultApi } from '../../machines/results/results.connect.ts';
import { ShortResultScreen } from '../../src/screens/short-result/short-result.tsx';
import { renderView } from '../helpers/render-view.tsx';

const result: ShortResult = {
  schedule_history_id: 42,
  subject: { id: 1, name: 'English' },
  level: { id: 3, name: 'Level 3', order: 3 },
  exam_date: '2026-11-10T02:00:00.000Z',
  score: 72,
  max_score: 100,
  passed: true,
  correct_count: 29,
  question_count: 40,
  correct_rate: 72.5,
  viewable_until: '2028-11-10T02:00:00.000Z',
  server_time: '2026-11-22T09:00:00.000Z',
};

/**
 * The screen's props for these facts (what is owned, the result, the failure): what can be bought,
 * opened or tried again as results.connect.ts decides it, by the results' own rules.
 */
function props({ owned = { result_sheet: false, certificate: false }, ...overrides }: Partial<ShortResultApi> & { owned?: OwnedItems } = {}): ShortResultApi {
  const shown = 'result' in overrides ? (overrides.result ?? null) : result;
  return {
    status: 'ready',
    result: shown,
    error: null,
    canRetry: isRetryableLoad(overrides.error ?? null),
    canOpenReport: ownsResultSheet({ owned }),
    canBuy: shown !== null && hasItemsToBuy({ owned, passed: shown.passed }),
    onBuy: vi.fn(),
    onOpenReport: vi.fn(),
    onBack: vi.fn(),
    onRetry: vi.fn(),
    ...overrides,
  };
}

function value(term: string): string {
  const dt = screen.getAllByRole('term').find((t) => t.textContent === term);
  return dt?.nextElementSibling?.textContent ?? '';
}

describe('short-result', () => {
  it('shows score, passed, subject with level, exam date and the correct rate with one decimal', async () => {
    await renderView(<ShortResultScreen api={props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Your result' })).toBeTruthy();
    expect(screen.getByText('Passed')).toBeTruthy();
    expect(screen.getByText('Passed').parentElement?.querySelector('svg')).toBeTruthy();
    expect(screen.getByText('Score').parentElement?.textContent).toBe('Score72 / 100');
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['Subject', 'Exam date', 'Correct answer rate']);
    expect(value('Subject')).toBe('English (vocabulary), Level 3');
    expect(value('Exam date')).toBe('11/10/2026');
    expect(value('Correct answer rate')).toBe('72.5% (29 of 40 questions correct)');
    expect(screen.getByText('You can view this result until 11/10/2028.')).toBeTruthy();
  });

  it('says "Did not pass" in words with its own icon, and keeps one decimal on a round rate', async () => {
    await renderView(<ShortResultScreen api={props({ result: { ...result, passed: false, score: 40, correct_rate: 40 } })} />);
    const outcome = screen.getByText('Did not pass').parentElement as HTMLElement;
    expect(outcome.getAttribute('data-passed')).toBe('false');
    expect(outcome.querySelector('svg')).toBeTruthy();
    expect(value('Correct answer rate')).toMatch(/^40\.0% /);
  });

  it('writes the rate in the language: a decimal comma in German, Arabic-Indic digits for the numerals variant', async () => {
    const { unmount } = await renderView(<ShortResultScreen api={props()} />, { language: 'de' });
    expect(screen.getAllByRole('definition')[2]?.textContent).toMatch(/^72,5\s%/);
    unmount();
    await renderView(<ShortResultScreen api={props()} />, { language: 'ar-nu-arab' });
    expect(screen.getAllByRole('definition')[2]?.textContent).toContain('٧٢٫٥');
  });

  it('offers to buy (primary) while nothing is owned, and no score report yet', async () => {
    const onBuy = vi.fn();
    const { user } = await renderView(<ShortResultScreen api={props({ onBuy })} />);
    expect(screen.queryByRole('button', { name: 'Open the score report' })).toBeNull();
    const buy = screen.getByRole('button', { name: 'Buy the result sheet / certificate' });
    expect(buy.getAttribute('data-variant')).toBe('primary');
    await user.click(buy);
    expect(onBuy).toHaveBeenCalledOnce();
  });

  it('opens the score report once the result sheet is owned, and still sells the certificate of a pass', async () => {
    const onOpenReport = vi.fn();
    const { user } = await renderView(
      <ShortResultScreen api={props({ owned: { result_sheet: true, certificate: false }, onOpenReport })} />,
    );
    const open = screen.getByRole('button', { name: 'Open the score report' });
    expect(open.getAttribute('data-variant')).toBe('primary');
    await user.click(open);
    expect(onOpenReport).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Buy the result sheet / certificate' }).getAttribute('data-variant')).toBeNull();
  });

  it('sells nothing more when all that can be bought is owned', async () => {
    const { unmount } = await renderView(<ShortResultScreen api={props({ owned: { result_sheet: true, certificate: true } })} />);
    expect(screen.queryByRole('button', { name: 'Buy the result sheet / certificate' })).toBeNull();
    unmount();
    // Not passed: no certificate to buy, so the sheet is everything.
    await renderView(
      <ShortResultScreen api={props({ result: { ...result, passed: false }, owned: { result_sheet: true, certificate: false } })} />,
    );
    expect(screen.queryByRole('button', { name: 'Buy the result sheet / certificate' })).toBeNull();
  });

  it('goes back to the menu', async () => {
    const onBack = vi.fn();
    const { user } = await renderView(<ShortResultScreen api={props({ onBack })} />);
    await user.click(screen.getByRole('button', { name: 'Back to menu' }));
    expect(onBack).toHaveBeenCalledOnce();
  });

  it.each([
    ['RESULT_NOT_RELEASED', 'The result has not been released yet. Results can be viewed from one week after the exam.'],
    ['RESULT_VIEW_EXPIRED', 'Results can be viewed for two years after the exam. This result can no longer be viewed.'],
  ] as const)('says why the result cannot be seen (%s), with no retry', async (code, message) => {
    await renderView(<ShortResultScreen api={props({ status: 'error', result: null, error: code })} />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(message);
    expect(status.getAttribute('data-code')).toBe(code);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Back to menu']);
  });

  it.each([
    ['RESULT_NOT_RELEASED', '結果はまだ発表されていません。結果はテストの1週間後から見られます。'],
    ['RESULT_VIEW_EXPIRED', /^[^A-Za-z]+$/],
  ] as const)('says it in the pupil\'s language (%s in Japanese), never the code or the server\'s English', async (code, message) => {
    await renderView(<ShortResultScreen api={props({ status: 'error', result: null, error: code })} />, { language: 'ja' });
    const text = screen.getByRole('status').textContent ?? '';
    expect(text).toMatch(message);
    expect(text).not.toContain(code);
    expect(text).not.toContain('Results can be viewed');
  });

  it('tells another failure and offers Try again', async () => {
    const onRetry = vi.fn();
    const { user } = await renderView(<ShortResultScreen api={props({ status: 'error', result: null, error: 'TIMEOUT', onRetry })} />);
    expect(screen.getByRole('alert').textContent).toBe('Network error. Please check the connection and try again.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows a skeleton while loading, and no buttons yet', async () => {
    await renderView(<ShortResultScreen api={props({ status: 'loading', result: null })} />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('renders in Japanese: the subject translated and the date in the long format', async () => {
    await renderView(<ShortResultScreen api={props()} />, { language: 'ja' });
    const definitions = screen.getAllByRole('definition');
    expect(within(definitions[1]!).getByText('2026年11月10日')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('あなたの結果');
  });
});
