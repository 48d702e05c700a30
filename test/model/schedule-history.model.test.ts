/**
 * The schedule history machine walked transition by transition from PENDING: each guarded
 * event is sampled with facts that pass and facts that fail, so every guarded branch is taken
 * and every refusal is checked to leave the status alone. Along every path the invariants tie
 * the machine to `nextStatus` (what the server writes) and to `resultAvailability` (what both
 * sides show).
 */
import { describe, expect, it } from 'vitest';
import { transition, type AnyMachineSnapshot } from 'xstate';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { nextStatus, RESULT_RELEASE_MS, scheduleHistoryMachine } from '../../machines/schedule-history/schedule-history.machine.ts';
import { resultAvailability, viewableUntil } from '../../machines/schedule-history/schedule-history.selectors.ts';
import type { ScheduleHistoryEvent, StatusName } from '../../machines/schedule-history/schedule-history.types.ts';
import { describeModel } from './suite.ts';

const DAY = 86_400_000;
const T = Date.parse('2026-06-01T09:00:00.000Z');

const samples: Record<string, ScheduleHistoryEvent[]> = {
  'exam.started': [
    { type: 'exam.started', now: T, startsAt: T - DAY, endsAt: T + DAY },
    { type: 'exam.started', now: T + 2 * DAY, startsAt: T - DAY, endsAt: T + DAY },
  ],
  'exam.autoFinished': [
    { type: 'exam.autoFinished', now: T + 2 * DAY, deadlineAt: T, uploadWindowMs: DAY },
    { type: 'exam.autoFinished', now: T + DAY / 2, deadlineAt: T, uploadWindowMs: DAY },
  ],
  'statistics.completed': [
    { type: 'statistics.completed', now: T + DAY, scheduleEndsAt: T, openSittings: 0 },
    { type: 'statistics.completed', now: T + DAY, scheduleEndsAt: T, openSittings: 2 },
    { type: 'statistics.completed', now: T - DAY, scheduleEndsAt: T, openSittings: 0 },
  ],
  'result.released': [
    { type: 'result.released', now: T + RESULT_RELEASE_MS, finishedAt: T },
    { type: 'result.released', now: T + RESULT_RELEASE_MS - 1, finishedAt: T },
  ],
  'schedule.ended': [
    { type: 'schedule.ended', now: T + 1, scheduleEndsAt: T },
    { type: 'schedule.ended', now: T, scheduleEndsAt: T },
  ],
};

/** The status number of a snapshot. */
const statusOf = (snapshot: AnyMachineSnapshot) => ScheduleHistoryStatus[snapshot.value as StatusName];

describeModel({
  name: 'schedule-history',
  machine: scheduleHistoryMachine,
  inputs: [undefined],
  samples,
  invariants: (snapshot) => {
    const status = statusOf(snapshot);
    expect(status).toBeTypeOf('number');
    // The final statuses accept nothing more.
    const final = ['CANCELED_PENDING', 'CANCELED_COMPLETED', 'EXPIRED'].includes(snapshot.value as string);
    expect(snapshot.status).toBe(final ? 'done' : 'active');
    for (const event of [...Object.values(samples).flat(), { type: 'exam.finished' }, { type: 'scoring.completed' }, { type: 'exam.cancelled' }, { type: 'retake.reset' }] as ScheduleHistoryEvent[]) {
      // nextStatus answers what the machine does from here: the status it moves to, or
      // undefined when it ignores the event (then the machine stays where it is).
      const [after] = transition(scheduleHistoryMachine, snapshot as never, event);
      const next = nextStatus(status, event);
      if (next === undefined) expect(after.value).toBe(snapshot.value);
      else expect(next).toBe(statusOf(after as AnyMachineSnapshot));
      if (final) expect(next).toBeUndefined();
    }
    // Results: only a finished, scored sitting can ever be viewable.
    const week = resultAvailability({ status, finishedAt: new Date(T), now: new Date(T + RESULT_RELEASE_MS) });
    if (week === 'viewable') expect(['SCORING_COMPLETED', 'STATISTIC_COMPLETED', 'RESULT_PUBLIC']).toContain(snapshot.value);
  },
});

describe('nextStatus, the server side of the machine', () => {
  const S = ScheduleHistoryStatus;
  it('moves a finished exam through scoring, statistics and release', () => {
    expect(nextStatus(S.COMPLETED, { type: 'scoring.completed' })).toBe(S.SCORING_COMPLETED);
    expect(nextStatus(S.SCORING_COMPLETED, { type: 'result.released', now: T + RESULT_RELEASE_MS, finishedAt: T })).toBe(S.RESULT_PUBLIC);
    expect(nextStatus(S.RESULT_PUBLIC, { type: 'statistics.completed', now: T + 1, scheduleEndsAt: T, openSittings: 0 })).toBe(S.RESULT_PUBLIC);
  });
  it('refuses what the machine does not allow', () => {
    expect(nextStatus(S.PENDING, { type: 'exam.finished' })).toBeUndefined();
    expect(nextStatus(S.RESULT_PUBLIC, { type: 'retake.reset' })).toBeUndefined();
    expect(nextStatus(S.EXPIRED, { type: 'exam.cancelled' })).toBeUndefined();
    expect(() => nextStatus(9, { type: 'exam.cancelled' })).toThrow(RangeError);
  });
});

describe('resultAvailability', () => {
  const S = ScheduleHistoryStatus;
  const finishedAt = new Date(T);
  const at = (ms: number) => new Date(T + ms);
  it('waits a week, shows for two years, then expires', () => {
    expect(resultAvailability({ status: S.SCORING_COMPLETED, finishedAt, now: at(RESULT_RELEASE_MS - 1) })).toBe('waiting');
    expect(resultAvailability({ status: S.SCORING_COMPLETED, finishedAt, now: at(RESULT_RELEASE_MS) })).toBe('viewable');
    expect(resultAvailability({ status: S.RESULT_PUBLIC, finishedAt, now: new Date(viewableUntil(finishedAt).getTime() - 1) })).toBe('viewable');
    expect(resultAvailability({ status: S.RESULT_PUBLIC, finishedAt, now: viewableUntil(finishedAt) })).toBe('expired');
    expect(viewableUntil(finishedAt).toISOString()).toBe('2028-06-01T09:00:00.000Z');
  });
  it('an unscored, unfinished or cancelled sitting is never viewable', () => {
    expect(resultAvailability({ status: S.COMPLETED, finishedAt, now: at(RESULT_RELEASE_MS * 2) })).toBe('waiting');
    expect(resultAvailability({ status: S.DOING, finishedAt: null, now: at(0) })).toBe('not_finished');
    expect(resultAvailability({ status: S.EXPIRED, finishedAt: null, now: at(0) })).toBe('not_finished');
    expect(resultAvailability({ status: S.CANCELED_COMPLETED, finishedAt, now: at(RESULT_RELEASE_MS) })).toBe('cancelled');
  });
});
