// @vitest-environment jsdom
/**
 * The exam header: the counter, and the timer counting down from the server's deadline with the
 * clock offset, never below 00:00, with a polite announcement at five and one minute left.
 */
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExamHeader } from '../../src/components/exam-header/exam-header.tsx';
import { secondsLeft } from '../../machines/exam/exam.rules.ts';
import { renderView } from '../helpers/render-view.tsx';

const T0 = Date.parse('2026-11-22T09:00:00.000Z');
const MIN = 60_000;

function seeTimeLeft(): string {
  return screen.getByRole('timer', { name: 'Time left' }).textContent ?? '';
}

function liveRegion(): HTMLElement {
  return document.querySelector('[aria-live="polite"]') as HTMLElement;
}

describe('secondsLeft', () => {
  it('counts against the server clock and rounds up to whole seconds', () => {
    expect(secondsLeft(T0 + 40 * MIN, 0, T0)).toBe(2400);
    expect(secondsLeft(T0 + 40 * MIN, 0, T0 + 1)).toBe(2400);
    expect(secondsLeft(T0 + 40 * MIN, 0, T0 + 1000)).toBe(2399);
    // The server is a minute ahead of this terminal: a minute less is left.
    expect(secondsLeft(T0 + 40 * MIN, MIN, T0)).toBe(2340);
    expect(secondsLeft(T0 + 40 * MIN, 0, T0 + 41 * MIN)).toBe(0);
  });

  it('never shows more than the time limit, even with a clock reading from before Start', () => {
    // The offset lags the server by the response's travel time; the tick may be 250 ms old.
    expect(secondsLeft(T0 + 40 * MIN, -300, T0 - 250, 2400)).toBe(2400);
    expect(secondsLeft(T0 + 40 * MIN, -300, T0 - 250)).toBe(2401);
  });
});

describe('exam header', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows "Question n of total"', async () => {
    await renderView(<ExamHeader questionNumber={2} questionCount={3} deadlineAt={T0 + 40 * MIN} clockOffsetMs={0} />);
    expect(screen.getByText('Question 2 of 3')).toBeTruthy();
    expect(screen.getByRole('banner').textContent).toContain('Gradus');
  });

  it('counts down from 40:00 against the time limit', async () => {
    await renderView(<ExamHeader questionNumber={1} questionCount={3} deadlineAt={T0 + 40 * MIN} clockOffsetMs={0} />);
    expect(seeTimeLeft()).toBe('40:00');
    expect(screen.getByRole('banner').textContent).toContain('/ 40:00');
    act(() => vi.advanceTimersByTime(1000));
    expect(seeTimeLeft()).toBe('39:59');
    act(() => vi.advanceTimersByTime(64_000));
    expect(seeTimeLeft()).toBe('38:55');
  });

  it('uses the clock offset: a server a minute ahead leaves a minute less', async () => {
    await renderView(<ExamHeader questionNumber={1} questionCount={3} deadlineAt={T0 + 40 * MIN} clockOffsetMs={MIN} />);
    expect(seeTimeLeft()).toBe('39:00');
  });

  it('never goes below 00:00', async () => {
    await renderView(<ExamHeader questionNumber={1} questionCount={3} deadlineAt={T0 + 2000} clockOffsetMs={0} />);
    act(() => vi.advanceTimersByTime(10_000));
    expect(seeTimeLeft()).toBe('00:00');
    expect(liveRegion().textContent).toBe('Time is up.');
  });

  it('announces politely when five minutes and one minute remain', async () => {
    await renderView(<ExamHeader questionNumber={1} questionCount={3} deadlineAt={T0 + 6 * MIN} clockOffsetMs={0} />);
    expect(liveRegion().textContent).toBe('');
    act(() => vi.advanceTimersByTime(MIN));
    expect(seeTimeLeft()).toBe('05:00');
    expect(liveRegion().textContent).toBe('5 minutes left.');
    act(() => vi.advanceTimersByTime(4 * MIN));
    expect(liveRegion().textContent).toBe('1 minute left.');
  });

  it('shows placeholders when no exam is running', async () => {
    await renderView(<ExamHeader questionNumber={null} questionCount={null} deadlineAt={null} clockOffsetMs={0} />);
    expect(seeTimeLeft()).toBe('--:--');
  });

  it('writes the time in Arabic-Indic digits for the Arabic numerals variant', async () => {
    await renderView(<ExamHeader questionNumber={1} questionCount={3} deadlineAt={T0 + 40 * MIN} clockOffsetMs={0} />, {
      language: 'ar-nu-arab',
    });
    expect(screen.getByRole('timer', { name: 'الوقت المتبقي' }).textContent).toBe('٤٠:٠٠');
    expect(screen.getByText('السؤال ١ من ٣')).toBeTruthy();
  });
});
