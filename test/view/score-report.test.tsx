// @vitest-environment jsdom
/**
 * score-report: every item of seed section 2 "Score report content" on the page, the rank or the
 * seed's "rank aggregation in progress" message, the correct rate with one decimal in the
 * language's digits, right to left for Arabic, the print variant without buttons, and the
 * loading, not-released and not-paid states.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ScoreReportApi, ScoreReportScreenApi } from '../../machines/results/results.connect.ts';
import { ScoreReportScreen } from '../../src/screens/score-report/score-report.tsx';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';
import { renderView } from '../helpers/render-view.tsx';

function props(overrides: Partial<ScoreReportScreenApi> = {}): ScoreReportScreenApi {
  return {
    status: 'ready',
    report: scoreReportFixture(),
    error: null,
    variant: 'screen',
    download: { report: 'idle', certificate: 'idle' },
    onPrint: vi.fn(),
    onDownloadPdf: vi.fn(),
    onDownloadCertificate: vi.fn(),
    onBack: vi.fn(),
    ...overrides,
  };
}

/** The print route's part (the document connect's): the same report, no buttons. */
function printed(): ScoreReportApi {
  const { status, report, error } = props();
  return { variant: 'print', status, report, error };
}

function item(name: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`[data-item="${name}"]`);
  if (!element) throw new Error(`no item ${name}`);
  return element;
}

describe('score-report', () => {
  it('shows every item of the seed: examinee, overall result, chart and rating, units, wrong answer, print and PDF', async () => {
    await renderView(<ScoreReportScreen api={props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Score report' })).toBeTruthy();
    for (const title of ['Examinee information', 'Overall result', 'Chart and rating', 'Correct answers per unit', 'A wrong answer, explained']) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeTruthy();
    }
    expect(item('name').textContent).toContain('Aiko Tanaka');
    expect(item('age').textContent).toContain('11');
    expect(item('region').textContent).toContain('Japan');
    expect(item('grade').textContent).toContain('Grade 5');
    expect(item('organization').textContent).toContain('Sakura Elementary School');
    expect(item('subject').textContent).toContain('Calculation, Level 3');
    expect(item('exam-date').textContent).toContain('10/14/2026');
    expect(item('score').textContent).toContain('78 out of 100 (pass mark 60)');
    expect(item('correct-rate').textContent).toContain('77.5%');
    expect(item('correct-rate').textContent).toContain('31 of 40 questions');
    expect(item('passed').textContent).toContain('Passed');
    expect(item('passed').querySelector('svg')).not.toBeNull();
    expect(item('rank').textContent).toContain('12 out of 148 at this level');
    expect(item('certificate').textContent).toContain('Available');
    // The chart and its text alternatives.
    expect(screen.getByRole('img', { name: /Score distribution at this level.*Your score, 78, is marked/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: /Correct answers per unit/ })).toBeTruthy();
    expect(document.querySelectorAll('[data-chart="distribution"] [data-mine="true"]')).toHaveLength(1);
    expect(item('chart').textContent).toContain('Rating B: Very good');
    const distribution = screen.getByRole('table', { name: 'Score distribution at this level' });
    expect(within(distribution).getAllByRole('row')).toHaveLength(1 + 6);
    // Per unit: the pupil against all examinees and the organisation; no averages yet reads so.
    const units = screen.getByRole('table', { name: /Correct answers per unit, against all examinees/ });
    const fractions = within(units).getByRole('row', { name: /Fractions/ });
    expect(fractions.textContent).toContain('6 of 10');
    expect(fractions.textContent).toContain('60.0%');
    expect(fractions.textContent).toContain('55.1%');
    expect(fractions.textContent).toContain('58.4%');
    expect(within(units).getByRole('row', { name: /Word problems/ }).textContent).toContain('Not yet available');
    // The wrong-answer example, with the right answer.
    expect(item('wrong-answer').textContent).toContain('Question 14 (Fractions)');
    expect(item('given').textContent).toContain('2/6');
    expect(item('correct-answer').textContent).toContain('3/4');
    // Print and save as PDF, and the certificate.
    for (const name of ['Print', 'Save as PDF', 'Download the certificate']) expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it('calls back print, save as PDF and the certificate download', async () => {
    const p = props();
    const { user } = await renderView(<ScoreReportScreen api={p} />);
    await user.click(screen.getByRole('button', { name: 'Print' }));
    await user.click(screen.getByRole('button', { name: 'Save as PDF' }));
    await user.click(screen.getByRole('button', { name: 'Download the certificate' }));
    expect(p.onPrint).toHaveBeenCalledOnce();
    expect(p.onDownloadPdf).toHaveBeenCalledOnce();
    expect(p.onDownloadCertificate).toHaveBeenCalledOnce();
  });

  it('says when rank aggregation is still in progress, and a result that did not pass', async () => {
    const base = scoreReportFixture();
    const report = scoreReportFixture({
      rank: { status: 'in_progress' },
      result: { ...base.result, passed: false, score: 40, rating: 'D' },
      certificate_available: false,
    });
    await renderView(<ScoreReportScreen api={props({ report })} />);
    expect(item('rank').textContent).toContain('Rank aggregation is in progress. Please check again later.');
    expect(item('rank').textContent).not.toMatch(/out of/);
    expect(item('passed').textContent).toContain('Did not pass');
    expect(item('certificate').textContent).toContain('Not available');
    expect(screen.queryByRole('button', { name: 'Download the certificate' })).toBeNull();
  });

  it('shows the correct rate with one decimal in English and in Arabic digits, right to left', async () => {
    const english = await renderView(<ScoreReportScreen api={props()} />, { language: 'en' });
    expect(document.querySelector('[data-value="correct-rate"]')!.textContent).toBe('77.5%');
    english.unmount();
    await renderView(<ScoreReportScreen api={props()} />, { language: 'ar-nu-arab' });
    const expected = new Intl.NumberFormat('ar-u-nu-arab', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(0.775);
    const rate = document.querySelector('[data-value="correct-rate"]')!.textContent!;
    expect(rate).toBe(expected);
    expect(rate).toMatch(/٧٧٫٥/);
    expect(document.documentElement.dir).toBe('rtl');
    // Day, month name, year for Arabic (seed section 9).
    const date = item('exam-date').querySelector('time')!.textContent!;
    expect(date).toBe(new Intl.DateTimeFormat('ar-u-nu-arab', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date('2026-10-14T01:30:00.000Z')));
  });

  it('isolates the content text in an Arabic report: the question, both answers and the unit', async () => {
    const report = scoreReportFixture({
      wrong_answer_example: { question_number: 3, unit: 'Colour words', type: 'single_choice', prompt: 'Which one is a colour?', math: false, given: 'Apple', correct: 'Red' },
    });
    await renderView(<ScoreReportScreen api={props({ report })} />, { language: 'ar' });
    expect(document.documentElement.dir).toBe('rtl');
    const example = item('wrong-answer');
    // The question is a paragraph of its own direction: its "?" stays at its end, not at the left.
    const prompt = within(example).getByText('Which one is a colour?');
    expect(prompt.closest('[dir="auto"]')).toBe(prompt);
    // Answers and the unit sit inside translated sentences and rows: each in a <bdi>.
    for (const text of ['Apple', 'Red', 'Colour words']) {
      expect(within(example).getByText(text).tagName).toBe('BDI');
    }
  });

  it('writes Japanese dates in the long format', async () => {
    await renderView(<ScoreReportScreen api={props()} />, { language: 'ja' });
    expect(item('exam-date').textContent).toContain('2026年10月14日');
    expect(document.querySelector('[data-value="correct-rate"]')!.textContent).toBe('77.5%');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('prints without buttons (the embed route)', async () => {
    await renderView(<ScoreReportScreen api={printed()} />);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(item('name').textContent).toContain('Aiko Tanaka');
  });

  it('shows a skeleton while loading, and why a report is not there', async () => {
    const view = await renderView(<ScoreReportScreen api={props({ status: 'loading', report: null })} />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    view.rerender(<ScoreReportScreen api={props({ status: 'error', report: null, error: 'RESULT_NOT_RELEASED' })} />);
    expect(screen.getByRole('status').textContent).toContain('Waiting for the result to be released');
    view.rerender(<ScoreReportScreen api={props({ status: 'error', report: null, error: 'PAYMENT_REQUIRED' })} />);
    expect(screen.getByRole('status').textContent).toContain('The result sheet has not been purchased yet');
    const onRetry = vi.fn();
    view.rerender(<ScoreReportScreen api={props({ status: 'error', report: null, error: 'NETWORK_ERROR', onRetry })} />);
    await view.user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows the download as under way, and a failed one', async () => {
    await renderView(<ScoreReportScreen api={props({ download: { report: 'working', certificate: 'failed' } })} />);
    const pdf = screen.getByRole('button', { name: 'Preparing the PDF…' }) as HTMLButtonElement;
    expect(pdf.disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toContain('The document cannot be created right now');
  });
});
