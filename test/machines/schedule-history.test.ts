/**
 * The schedule history machine against the table in its README (machines/schedule-history/),
 * written out here rather than derived from the machine: the model test
 * (test/model/schedule-history.model.test.ts) builds its expected paths from the machine itself,
 * so a wrong guard or a lost transition would walk through it unnoticed. Each guard is tried on
 * both sides of its boundary (the instants are inclusive or exclusive as the seed and the README
 * say), and every status is asked every event, so a transition added, lost or retargeted fails
 * here.
 */
import { describe, expect, it } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { nextStatus, RESULT_RELEASE_MS, snapshotOf } from '../../machines/schedule-history/schedule-history.machine.ts';
import {
  isFinishedStatus,
  isScoredStatus,
  releaseAt,
  resultAvailability,
} from '../../machines/schedule-history/schedule-history.selectors.ts';
import type { ScheduleHistoryEvent, ScheduleHistoryEventType, StatusName } from '../../machines/schedule-history/schedule-history.types.ts';

const T = Date.parse('2026-06-01T09:00:00.000Z');
const DAY = 86_400_000;

/** One event of each type whose guard (if any) says yes. */
const allowed: Record<ScheduleHistoryEventType, ScheduleHistoryEvent> = {
  'exam.started': { type: 'exam.started', now: T, startsAt: T - DAY, endsAt: T + DAY },
  'exam.finished': { type: 'exam.finished' },
  'exam.autoFinished': { type: 'exam.autoFinished', now: T + 2 * DAY, deadlineAt: T, uploadWindowMs: DAY },
  'scoring.completed': { type: 'scoring.completed' },
  'statistics.completed': { type: 'statistics.completed', now: T + DAY, scheduleEndsAt: T, openSittings: 0 },
  'result.released': { type: 'result.released', now: T + RESULT_RELEASE_MS, finishedAt: T },
  'exam.cancelled': { type: 'exam.cancelled' },
  'schedule.ended': { type: 'schedule.ended', now: T + 1, scheduleEndsAt: T },
  'retake.reset': { type: 'retake.reset' },
};

/** The README's table: from each status, where each event leads (absent: refused). */
const table: Record<StatusName, Partial<Record<ScheduleHistoryEventType, StatusName>>> = {
  PENDING: { 'exam.started': 'DOING', 'schedule.ended': 'EXPIRED', 'exam.cancelled': 'CANCELED_PENDING' },
  DOING: {
    'exam.finished': 'COMPLETED',
    'exam.autoFinished': 'COMPLETED',
    'exam.cancelled': 'CANCELED_PENDING',
    'retake.reset': 'PENDING',
  },
  COMPLETED: { 'scoring.completed': 'SCORING_COMPLETED', 'exam.cancelled': 'CANCELED_COMPLETED', 'retake.reset': 'PENDING' },
  SCORING_COMPLETED: {
    'statistics.completed': 'STATISTIC_COMPLETED',
    'result.released': 'RESULT_PUBLIC',
    'exam.cancelled': 'CANCELED_COMPLETED',
    'retake.reset': 'PENDING',
  },
  STATISTIC_COMPLETED: {
    'result.released': 'RESULT_PUBLIC',
    'statistics.completed': 'STATISTIC_COMPLETED',
    'exam.cancelled': 'CANCELED_COMPLETED',
    'retake.reset': 'PENDING',
  },
  RESULT_PUBLIC: { 'statistics.completed': 'RESULT_PUBLIC', 'exam.cancelled': 'CANCELED_COMPLETED' },
  CANCELED_PENDING: {},
  CANCELED_COMPLETED: {},
  EXPIRED: {},
};

const statuses = Object.keys(table) as StatusName[];

describe('every status answers every event as the header says', () => {
  for (const from of statuses) {
    it(`from ${from}`, () => {
      for (const [type, event] of Object.entries(allowed) as [ScheduleHistoryEventType, ScheduleHistoryEvent][]) {
        const to = table[from][type];
        expect(nextStatus(S[from], event), `${from} + ${type}`).toBe(to === undefined ? undefined : S[to]);
      }
    });
  }

  it('only the cancelled and expired sittings are final', () => {
    const final = statuses.filter((name) => snapshotOf(S[name]).status === 'done');
    expect(final).toEqual(['CANCELED_PENDING', 'CANCELED_COMPLETED', 'EXPIRED']);
  });

  it('a number that is no status is refused by name', () => {
    expect(() => snapshotOf(9)).toThrow('Not a schedule history status: 9');
    expect(() => nextStatus(-1, allowed['exam.cancelled'])).toThrow('Not a schedule history status: -1');
  });
});

describe('the guards at their boundaries', () => {
  it('Start: within the test period, both ends included', () => {
    const start = (now: number) => nextStatus(S.PENDING, { type: 'exam.started', now, startsAt: T, endsAt: T + DAY });
    expect(start(T - 1)).toBeUndefined();
    expect(start(T)).toBe(S.DOING);
    expect(start(T + DAY / 2)).toBe(S.DOING);
    expect(start(T + DAY)).toBe(S.DOING);
    expect(start(T + DAY + 1)).toBeUndefined();
  });

  it('the auto-finish: only once the deadline and the upload window after it have passed', () => {
    const autoFinish = (now: number) =>
      nextStatus(S.DOING, { type: 'exam.autoFinished', now, deadlineAt: T, uploadWindowMs: DAY });
    expect(autoFinish(T - DAY)).toBeUndefined();
    expect(autoFinish(T + 1)).toBeUndefined();
    expect(autoFinish(T + DAY - 1)).toBeUndefined();
    expect(autoFinish(T + DAY)).toBeUndefined();
    expect(autoFinish(T + DAY + 1)).toBe(S.COMPLETED);
  });

  it('statistics: after the schedule ended, with no sitting of the cohort still open', () => {
    const ranked = (from: number, now: number, openSittings: number) =>
      nextStatus(from, { type: 'statistics.completed', now, scheduleEndsAt: T, openSittings });
    for (const [from, to] of [
      [S.SCORING_COMPLETED, S.STATISTIC_COMPLETED],
      [S.STATISTIC_COMPLETED, S.STATISTIC_COMPLETED],
      [S.RESULT_PUBLIC, S.RESULT_PUBLIC],
    ] as const) {
      expect(ranked(from, T - 1, 0), `${from} before the end`).toBeUndefined();
      expect(ranked(from, T, 0), `${from} at the end`).toBeUndefined();
      expect(ranked(from, T + 1, 1), `${from} with an open sitting`).toBeUndefined();
      expect(ranked(from, T + 1, 0), `${from} closed`).toBe(to);
    }
  });

  it('release: from one week after the exam, to the millisecond', () => {
    for (const from of [S.SCORING_COMPLETED, S.STATISTIC_COMPLETED]) {
      const release = (now: number) => nextStatus(from, { type: 'result.released', now, finishedAt: T });
      expect(release(T)).toBeUndefined();
      expect(release(T + RESULT_RELEASE_MS - 1)).toBeUndefined();
      expect(release(T + RESULT_RELEASE_MS)).toBe(S.RESULT_PUBLIC);
    }
    expect(RESULT_RELEASE_MS).toBe(7 * DAY);
  });

  it('expiry: only after the schedule ended', () => {
    const expire = (now: number) => nextStatus(S.PENDING, { type: 'schedule.ended', now, scheduleEndsAt: T });
    expect(expire(T - 1)).toBeUndefined();
    expect(expire(T)).toBeUndefined();
    expect(expire(T + 1)).toBe(S.EXPIRED);
  });
});

describe('what a status means for results', () => {
  const finished = ['COMPLETED', 'SCORING_COMPLETED', 'STATISTIC_COMPLETED', 'RESULT_PUBLIC'];
  const scored = ['SCORING_COMPLETED', 'STATISTIC_COMPLETED', 'RESULT_PUBLIC'];

  it('finished and scored, status by status', () => {
    for (const name of statuses) {
      expect(isFinishedStatus(S[name]), name).toBe(finished.includes(name));
      expect(isScoredStatus(S[name]), name).toBe(scored.includes(name));
    }
  });

  it('both cancellations say cancelled, whatever the dates', () => {
    for (const status of [S.CANCELED_PENDING, S.CANCELED_COMPLETED]) {
      expect(resultAvailability({ status, finishedAt: null, now: new Date(T) })).toBe('cancelled');
      expect(resultAvailability({ status, finishedAt: new Date(T), now: releaseAt(new Date(T)) })).toBe('cancelled');
    }
  });

  it('a finished status without a finish time, or a finish time without a finished status, is not finished', () => {
    const later = new Date(T + 2 * RESULT_RELEASE_MS);
    expect(resultAvailability({ status: S.RESULT_PUBLIC, finishedAt: null, now: later })).toBe('not_finished');
    expect(resultAvailability({ status: S.DOING, finishedAt: new Date(T), now: later })).toBe('not_finished');
    expect(resultAvailability({ status: S.STATISTIC_COMPLETED, finishedAt: new Date(T), now: later })).toBe('viewable');
  });
});
