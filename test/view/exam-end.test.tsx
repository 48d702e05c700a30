// @vitest-environment jsdom
/**
 * exam-end: sent with its receipt, cancelled (and why, when the code says), moved to another
 * terminal (answers still kept here, no Log out; or all sent; or how many the server refused), the header's placeholders, Log out; and the end screen the whole app keeps after a reload without a login
 * (seed section 2, rule 5), which says why from the stored error code.
 */
import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorCode } from '../../contract/errors.ts';
import { ExamEndScreen } from '../../src/screens/exam-end/exam-end.tsx';
import { createControlledApi } from '../helpers/controlled-api.ts';
import { examEndApi } from '../helpers/exam-fixtures.ts';
import { renderKioskApp } from '../helpers/render-app.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { memoryStorage } from '../helpers/memory-storage.ts';

const digest = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

describe('exam-end', () => {
  it('says the test is complete and the answers were sent, with the receipt', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'sent', receipt: { answer_count: 3, digest }, logout: vi.fn() })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Test complete' })).toBeTruthy();
    expect(screen.getByText('Your answer data has been sent.')).toBeTruthy();
    expect(screen.getByText('Results will be available later.')).toBeTruthy();
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    const values = screen.getAllByRole('definition').map((d) => d.textContent);
    expect(terms).toEqual(['Answers received', 'Receipt']);
    expect(values).toEqual(['3', '9f86d081']);
  });

  it('shows the header with placeholders', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'sent', receipt: null, logout: vi.fn() })} />);
    expect(screen.getByRole('timer', { name: 'Time left' }).textContent).toBe('--:--');
    expect(screen.getByText('Question -- of --')).toBeTruthy();
    expect(screen.queryByRole('term')).toBeNull();
  });

  it('says when the test was cancelled and the answers could not be sent', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'cancelled', receipt: null, logout: vi.fn() })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'The test was cancelled' })).toBeTruthy();
    expect(screen.getByText('Your answers could not be sent.')).toBeTruthy();
    expect(screen.getByText(/tell your teacher/)).toBeTruthy();
    expect(screen.queryByText('Test complete')).toBeNull();
  });

  it('moved to another terminal with answers still kept here: says how many, that they are sent later, and offers no Log out', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'sent', receipt: null, movedAway: { waiting: 3, refused: 0 }, canLogout: false })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Your test goes on at another terminal' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Answers given on this terminal and not sent yet: 3');
    expect(screen.getByText(/sent as soon as the network is back/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
    expect(screen.queryByText('Test complete')).toBeNull();
  });

  it('moved to another terminal with every answer sent: says so, and offers Log out', async () => {
    const logout = vi.fn();
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'sent', receipt: null, movedAway: { waiting: 0, refused: 0 }, logout })} />);
    expect(screen.getByRole('status').textContent).toBe(
      'Your teacher moved your test to another terminal. The answers given on this terminal were sent.',
    );
    expect(screen.queryByText(/could not be kept/)).toBeNull();
    screen.getByRole('button', { name: 'Log out' }).click();
    expect(logout).toHaveBeenCalledOnce();
  });

  it('moved to another terminal, some answers refused by the server: never says they were sent, says how many could not be kept', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'sent', receipt: null, movedAway: { waiting: 0, refused: 2 }, logout: vi.fn() })} />);
    expect(screen.getByRole('status').textContent).toBe('Your teacher moved your test to another terminal.');
    expect(screen.queryByText(/were sent/)).toBeNull();
    expect(screen.getByText('2 answers given on this terminal could not be kept. Please tell your teacher.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('moved to another terminal, one answer refused while others still wait: both counts', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'sent', receipt: null, movedAway: { waiting: 2, refused: 1 }, canLogout: false })} />);
    expect(screen.getByRole('status').textContent).toBe('Answers given on this terminal and not sent yet: 2');
    expect(screen.getByText('1 answer given on this terminal could not be kept. Please tell your teacher.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
  });

  it('says the test was started on another terminal', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'cancelled', receipt: null, errorCode: 'INCORRECT_DEVICE', logout: vi.fn() })} />);
    expect(screen.getByRole('alert').textContent).toBe('An exam was already started for this account on another terminal.');
    expect(screen.queryByText('Your answers could not be sent.')).toBeNull();
  });

  it('says an administrator reset the account', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'cancelled', receipt: null, errorCode: 'ER_SCHEDULE_HISTORY_RETAKE', logout: vi.fn() })} />);
    expect(screen.getByRole('alert').textContent).toBe('An administrator has reset this account. Please log in again.');
  });

  it('keeps the general words for other codes', async () => {
    await renderView(<ExamEndScreen api={examEndApi({ outcome: 'cancelled', receipt: null, errorCode: 'ER_SCHEDULE_HISTORY_CANCELLED', logout: vi.fn() })} />);
    expect(screen.getByText('Your answers could not be sent.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('logs out', async () => {
    const onLogout = vi.fn();
    const { user } = await renderView(<ExamEndScreen api={examEndApi({ outcome: 'sent', receipt: null, logout: onLogout })} />);
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });
});

describe('exam-end kept after a reload without a login (rule 5)', () => {
  let stop: (() => void) | undefined;
  beforeAll(() => {
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  });
  afterEach(() => {
    stop?.();
    stop = undefined;
  });

  const cases: Array<[ErrorCode, string]> = [
    ['INCORRECT_DEVICE', 'An exam was already started for this account on another terminal.'],
    ['ER_SCHEDULE_HISTORY_RETAKE', 'An administrator has reset this account. Please log in again.'],
  ];
  for (const [code, message] of cases) {
    it(`says why from the stored ${code}`, async () => {
      const control = createControlledApi();
      const { kiosk, history, stopSync } = await renderKioskApp({
        deps: { api: control.api, storage: memoryStorage() },
        input: { storedSession: null, storedToken: null, storedErrorCode: code },
        url: '/exam-end',
        inspect: () => {},
      });
      stop = () => {
        stopSync();
        kiosk.stop();
      };
      expect(await screen.findByRole('heading', { level: 1, name: 'The test was cancelled' })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toBe(message);
      expect(screen.queryByText('Your answers could not be sent.')).toBeNull();
      expect(history.location.pathname).toBe('/exam-end');
      expect(control.waiting()).toEqual([]);
    });
  }
});
