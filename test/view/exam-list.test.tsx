// @vitest-environment jsdom
/**
 * exam-list (/exam and /exam-step-mode): the table with its caption and the seed's columns,
 * Start and Continue, completed and locked rows, scores and scoring states, step mode's order,
 * the empty list, loading, a failed load with Try again, and Log out. The rows are the session's
 * (examRowsOf decides each row's order and what it offers); the screen renders them.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExamListItem } from '../../contract/session.ts';
import { examRowsOf } from '../../machines/session/session.selectors.ts';
import type { ExamListApi } from '../../machines/session/session.connect.ts';
import { ExamListScreen } from '../../src/screens/exam-list/exam-list.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { examListApi } from '../helpers/session-fixtures.ts';

function item(id: number, overrides: Partial<ExamListItem> = {}): ExamListItem {
  return {
    schedule_history_id: id,
    subject: { id: 2, name: 'Calc' },
    level: { id: id, name: `Level ${id}`, order: id },
    exam: { id: 100 + id, title: `Calculation level ${id}` },
    status: 0,
    score: null,
    scoring: 'not_taken',
    locked: false,
    ...overrides,
  };
}

const exams: ExamListItem[] = [
  item(1, { status: 4, score: 87, scoring: 'scored' }),
  item(2, { status: 6 }),
  item(3, { status: 1, scoring: 'scoring', subject: { id: 1, name: 'Eng' } }),
  item(4),
];

/** The screen's props for these exams, their rows as the session machine's selector gives them. */
function props(overrides: Partial<Omit<ExamListApi, 'rows'>> & { exams?: ExamListItem[] } = {}): ExamListApi {
  const { exams: list = exams, ...rest } = overrides;
  const stepMode = rest.stepMode ?? false;
  return examListApi({ rows: examRowsOf(list, stepMode), stepMode, ...rest });
}

function bodyRows(): HTMLElement[] {
  return within(screen.getByRole('table')).getAllByRole('row').slice(1);
}

function cells(row: HTMLElement): string[] {
  return [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '');
}

describe('exam-list', () => {
  it('shows a table with a caption and the seed columns: level, exam, score, subject, scoring', async () => {
    await renderView(<ExamListScreen api={props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Choose an exam' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Your exams' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Level', 'Exam', 'Score', 'Subject', 'Scoring', 'What you can do']);
    expect(within(table).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Level 1', 'Level 2', 'Level 3', 'Level 4']);
    expect(screen.getByRole('region', { name: 'Your exams' }).getAttribute('tabindex')).toBe('0');
  });

  it('shows score, subject through its translation, and the scoring state in words', async () => {
    await renderView(<ExamListScreen api={props()} />);
    const [first, , third, fourth] = bodyRows();
    expect(cells(first!)).toEqual(['Level 1', 'Calculation level 1', '87', 'Calculation', 'Scored', 'Completed']);
    expect(cells(third!)).toEqual(['Level 3', 'Calculation level 3', '–No score yet', 'English (vocabulary)', 'Scoring', 'Completed']);
    expect(cells(fourth!).slice(4)).toEqual(['Not taken', 'Start']);
  });

  it('starts a pending exam and continues one in progress, each button described by its exam', async () => {
    const onChoose = vi.fn();
    const { user } = await renderView(<ExamListScreen api={props({ choose: onChoose })} />);
    const start = screen.getByRole('button', { name: 'Start' });
    expect(document.getElementById(start.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Calculation level 4');
    await user.click(start);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onChoose.mock.calls).toEqual([[4], [2]]);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Continue', 'Start', 'Log out']);
  });

  it('in step mode shows the levels in order as steps, and locked steps with a lock and words, no button', async () => {
    const onChoose = vi.fn();
    const stepExams = [
      item(3, { locked: true, level: { id: 3, name: 'Level 3', order: 3 } }),
      item(1, { status: 1, scoring: 'scoring', level: { id: 1, name: 'Level 1', order: 1 } }),
      item(2, { level: { id: 2, name: 'Level 2', order: 2 } }),
    ];
    await renderView(<ExamListScreen api={props({ exams: stepExams, stepMode: true, choose: onChoose })} />);
    expect(screen.getByRole('table', { name: 'Your exams, step by step' })).toBeTruthy();
    expect(screen.getByText('Take the levels in order. The next level opens when you finish the one before.')).toBeTruthy();
    const rows = bodyRows();
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Step 1Level 1', 'Step 2Level 2', 'Step 3Level 3']);
    expect(cells(rows[2]!).at(-1)).toBe('Finish the earlier level first');
    expect(rows[2]!.querySelector('svg')).toBeTruthy();
    expect(within(rows[2]!).queryByRole('button')).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Start' })).toHaveLength(1);
  });

  it('shows cancelled and closed exams in words, with nothing to press', async () => {
    await renderView(<ExamListScreen api={props({ exams: [item(1, { status: 2 }), item(2, { status: 7 })] })} />);
    expect(bodyRows().map((r) => cells(r).at(-1))).toEqual(['Cancelled', 'Closed']);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Log out']);
  });

  it('says so when there are no exams', async () => {
    await renderView(<ExamListScreen api={props({ exams: [] })} />);
    expect(screen.getByText('You have no exams right now.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a skeleton while the list loads', async () => {
    await renderView(<ExamListScreen api={props({ status: 'loading', exams: [] })} />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('tells a failed load, offers Try again, and logs out', async () => {
    const onRetry = vi.fn();
    const onLogout = vi.fn();
    const { user } = await renderView(<ExamListScreen api={props({ status: 'error', exams: [], error: 'GENERIC_ERROR', retry: onRetry, logout: onLogout })} />);
    expect(screen.getByRole('alert').textContent).toBe('An error has occurred.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('names each level in the pupil\'s language and digits, not the server\'s English name', async () => {
    await renderView(<ExamListScreen api={props({ exams: [item(1, { level: { id: 1, name: 'Level 1', order: 1 } })] })} />, { language: 'ar-nu-arab' });
    const level = screen.getAllByRole('rowheader')[0]!;
    expect(level.textContent).toBe('المستوى ١');
    expect(level.textContent).not.toContain('Level');
  });

  it('renders in Japanese from the ja catalog', async () => {
    await renderView(<ExamListScreen api={props()} />, { language: 'ja' });
    expect(screen.getByRole('button', { name: 'はじめる' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'つづける' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent).slice(0, 5)).toEqual(['レベル', 'テスト', '点数', '教科', '採点']);
    expect(screen.getAllByText('採点中')).toHaveLength(1);
  });
});
