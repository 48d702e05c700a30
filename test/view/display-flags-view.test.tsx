// @vitest-environment jsdom
/**
 * The seed's section 3 display flag and group mode as the pupil sees them: a score report whose
 * school hides rankings (the server sent `rank: { status: 'hidden' }` and `distribution: null`)
 * has no rank row at all, not even "in progress", and no score distribution (neither the chart,
 * its table, nor a "not available yet" note); a testing menu in group mode says the school paid the exam fee and
 * offers no payment.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MenuView } from '../../machines/session/session.selectors.ts';
import { ScoreReportScreen } from '../../src/screens/score-report/score-report.tsx';
import { TestingMenuScreen } from '../../src/screens/testing-menu/testing-menu.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { menuApi } from '../helpers/session-fixtures.ts';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';

function renderReport(rank: Parameters<typeof scoreReportFixture>[0]) {
  return renderView(
    <ScoreReportScreen api={{ variant: 'print', status: 'ready', report: scoreReportFixture(rank), error: null }} />,
  );
}

describe('score report: rank display flag', () => {
  it('shown (display flag 1): the rank row with position and total, and the score distribution', async () => {
    await renderReport({ rank: { status: 'complete', position: 12, total: 148 } });
    expect(document.querySelector('[data-item="rank"]')?.textContent).toContain('12 out of 148 at this level');
    expect(document.querySelectorAll('svg[data-chart="distribution"]')).toHaveLength(1);
    expect(screen.getByRole('table', { name: 'Score distribution at this level' })).toBeTruthy();
  });

  it('hidden (display flag 3): no rank and no score distribution on the page, the rest of the result stays', async () => {
    await renderReport({ rank: { status: 'hidden' }, distribution: null });
    expect(document.querySelector('[data-item="rank"]')).toBeNull();
    expect(document.body.textContent).not.toMatch(/Rank at this level|Rank aggregation/);
    expect(document.querySelector('svg[data-chart="distribution"]')).toBeNull();
    expect(screen.queryByRole('table', { name: 'Score distribution at this level' })).toBeNull();
    expect(document.body.textContent).not.toMatch(/score distribution/i);
    // The rating and the per-unit analysis stay.
    expect(document.querySelector('[data-rating="B"]')).not.toBeNull();
    expect(document.querySelector('svg[data-chart="units"]')).not.toBeNull();
    expect(document.querySelector('[data-item="score"]')?.textContent).toContain('78 out of 100');
    expect(document.querySelector('[data-item="certificate"]')).not.toBeNull();
  });
});

describe('testing menu: group mode', () => {
  const menu: MenuView = { fee: 'school_paid', exam: 'can_take', result: 'not_finished', releaseAt: null, next: 'take_test' };

  it('the fee card says the school paid and offers no payment; the test is the one primary action', async () => {
    const onPayFee = vi.fn();
    await renderView(
      <TestingMenuScreen api={menuApi({ status: 'ready', menu, error: null, payFee: onPayFee, takeTest: vi.fn(), viewResults: vi.fn(), retry: vi.fn(), logout: vi.fn() })} />,
    );
    const fee = screen.getByRole('heading', { level: 2, name: 'Exam fee' }).closest('li') as HTMLElement;
    expect(within(fee).getByText('Paid by your school')).toBeTruthy();
    expect(within(fee).getByText(/You do not pay an exam fee/)).toBeTruthy();
    expect(within(fee).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByText('Pay fee')).toBeNull();
    const primary = screen.getAllByRole('button').filter((b) => b.getAttribute('data-variant') === 'primary');
    expect(primary.map((b) => b.textContent)).toEqual(['Take test']);
  });
});
