/**
 * Types of the schedule history machine (machines/schedule-history/schedule-history.machine.ts):
 * the nine statuses of seed section 4 and the events that move a sitting between them. Events
 * are facts: each carries what its guard needs to decide (instants as epoch milliseconds), so
 * the machine reads no clock and runs the same on the server and in the client.
 */
import { ScheduleHistoryStatus } from '../../contract/enums.ts';

export type StatusName = keyof typeof ScheduleHistoryStatus;
export type Status = (typeof ScheduleHistoryStatus)[StatusName];

export const statusNames = Object.keys(ScheduleHistoryStatus) as StatusName[];

/** The state name of a status number (the machine's states are the seed's names). */
export function statusName(status: number): StatusName | undefined {
  return statusNames.find((name) => ScheduleHistoryStatus[name] === status);
}

export type ScheduleHistoryEvent =
  /** The pupil pressed Start. `now` within the test period [startsAt, endsAt]. */
  | { type: 'exam.started'; now: number; startsAt: number; endsAt: number }
  /** The pupil pressed Finish (or the exam's time ran out on the pupil's terminal). */
  | { type: 'exam.finished' }
  /** The auto-finish job: the deadline and the upload window after it have passed. */
  | { type: 'exam.autoFinished'; now: number; deadlineAt: number; uploadWindowMs: number }
  /** The scoring job wrote the sitting's result. */
  | { type: 'scoring.completed' }
  /**
   * The statistics job ranked the level. `now` after the schedule's end (`scheduleEndsAt`) and
   * no sitting of the same schedule and level still open (`openSittings`: PENDING, DOING or
   * COMPLETED but not scored): the cohort is closed.
   */
  | { type: 'statistics.completed'; now: number; scheduleEndsAt: number; openSittings: number }
  /** The release job: one week after the exam (`finishedAt` + 604 800 000 ms, seed section 9). */
  | { type: 'result.released'; now: number; finishedAt: number }
  /** Staff cancelled the sitting. */
  | { type: 'exam.cancelled' }
  /** The expiry job: the schedule ended (`now` after `scheduleEndsAt`) and the exam was never started. */
  | { type: 'schedule.ended'; now: number; scheduleEndsAt: number }
  /** An administrator's reset for a retake (server/admin.ts). */
  | { type: 'retake.reset' };

export type ScheduleHistoryEventType = ScheduleHistoryEvent['type'];
