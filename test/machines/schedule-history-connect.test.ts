/**
 * schedule-history.connect.ts: what the pupil's screens say of a sitting in each of the nine
 * statuses of seed section 4, written out here rather than derived, and how the testing menu's
 * test card and the exam list's rows (session.selectors.ts) follow it for every status.
 */
import { describe, expect, it } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import type { ChoosePageStatus } from '../../contract/results.ts';
import type { ExamListItem } from '../../contract/session.ts';
import { connect, sittingOf, type SittingApi } from '../../machines/schedule-history/schedule-history.connect.ts';
import { snapshotOf } from '../../machines/schedule-history/schedule-history.machine.ts';
import { statusNames, type StatusName } from '../../machines/schedule-history/schedule-history.types.ts';
import { examRowsOf, menuViewOf, type ExamRowAction, type ExamState } from '../../machines/session/session.selectors.ts';

type Facts = SittingApi;
const none: Facts = { open: false, inProgress: false, finished: false, sat: false, cancelled: false, expired: false };

/** Every status, what the screens say of it. */
const expected: Record<StatusName, Facts> = {
  PENDING: { ...none, open: true },
  DOING: { ...none, open: true, inProgress: true },
  COMPLETED: { ...none, finished: true, sat: true },
  SCORING_COMPLETED: { ...none, finished: true, sat: true },
  STATISTIC_COMPLETED: { ...none, finished: true, sat: true },
  RESULT_PUBLIC: { ...none, finished: true, sat: true },
  CANCELED_PENDING: { ...none, cancelled: true },
  CANCELED_COMPLETED: { ...none, sat: true, cancelled: true },
  EXPIRED: { ...none, expired: true },
};

/** The exam list's row (not locked) and the menu's test card (the test cannot be taken now), by status. */
const rowAction: Record<StatusName, ExamRowAction> = {
  PENDING: 'start',
  DOING: 'continue',
  COMPLETED: 'completed',
  SCORING_COMPLETED: 'completed',
  STATISTIC_COMPLETED: 'completed',
  RESULT_PUBLIC: 'completed',
  CANCELED_PENDING: 'cancelled',
  CANCELED_COMPLETED: 'completed',
  EXPIRED: 'closed',
};
const menuExam: Record<StatusName, ExamState> = {
  PENDING: 'unavailable',
  DOING: 'unavailable',
  COMPLETED: 'completed',
  SCORING_COMPLETED: 'completed',
  STATISTIC_COMPLETED: 'completed',
  RESULT_PUBLIC: 'completed',
  CANCELED_PENDING: 'cancelled',
  CANCELED_COMPLETED: 'cancelled',
  EXPIRED: 'expired',
};

const row = (status: (typeof S)[StatusName], locked = false): ExamListItem => ({
  schedule_history_id: 7,
  subject: { id: 1, name: 'English' },
  level: { id: 1, name: 'Level 1', order: 1 },
  exam: { id: 1, title: 'English Level 1' },
  status,
  score: null,
  scoring: 'not_taken',
  locked,
});

const menu = (status: (typeof S)[StatusName] | null, canTake = false): ChoosePageStatus => ({
  exam_fee: { required: false, status: 0 },
  exam: { schedule_history_id: 7, status, can_take: canTake },
  result: { released: false, payment_status: 0 },
  server_time: '2026-11-22T09:00:00.000Z',
});

const now = new Date('2026-11-22T09:00:00.000Z');

describe('schedule history connect', () => {
  it.each(statusNames)('%s: says what the table says', (name) => {
    expect(sittingOf(S[name])).toEqual(expected[name]);
    expect(connect(snapshotOf(S[name]))).toEqual(expected[name]);
  });

  it('gives one object per status', () => {
    for (const name of statusNames) expect(sittingOf(S[name])).toBe(sittingOf(S[name]));
    expect(sittingOf(S.PENDING)).not.toBe(sittingOf(S.DOING));
  });

  it('says nothing can be done with a status the seed does not list (as before: a closed row)', () => {
    expect(sittingOf(9 as never)).toEqual(none);
    expect(examRowsOf([row(9 as never)], false)[0]!.action).toBe('closed');
  });

  it.each(statusNames)('%s: the exam list row and the menu test card follow it', (name) => {
    expect(examRowsOf([row(S[name])], false)[0]!.action).toBe(rowAction[name]);
    expect(menuViewOf(menu(S[name]), now).exam).toBe(menuExam[name]);
  });

  it('locks only an open row, and lets the server decide an open sitting on the menu', () => {
    expect(examRowsOf([row(S.PENDING, true), row(S.DOING, true), row(S.COMPLETED, true)], false).map((r) => r.action)).toEqual([
      'locked',
      'locked',
      'completed',
    ]);
    expect(menuViewOf(menu(S.PENDING, true), now).exam).toBe('can_take');
    expect(menuViewOf(menu(null, true), now).exam).toBe('can_take');
    expect(menuViewOf(menu(null, false), now).exam).toBe('unavailable');
  });
});
