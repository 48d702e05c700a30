/**
 * The schedule history machine: the lifecycle of one sitting through the nine statuses of seed
 * section 4. The seed lists the statuses but not the transitions; these are ours.
 *
 * Top states (the statuses): PENDING 0 -> DOING 6 (started within the test period) or EXPIRED 7
 * (never taken); DOING -> COMPLETED 1 (finished by the pupil, or by the auto-finish job) ->
 * SCORING_COMPLETED 8 -> STATISTIC_COMPLETED 4 (cohort closed) -> RESULT_PUBLIC 5 (a week after
 * the exam; straight from SCORING_COMPLETED when the release comes first); a cancellation ends
 * in CANCELED_PENDING 2 before completion and CANCELED_COMPLETED 3 after; a retake reset takes
 * DOING, COMPLETED, SCORING_COMPLETED and STATISTIC_COMPLETED back to PENDING.
 * CANCELED_PENDING, CANCELED_COMPLETED and EXPIRED are final.
 *
 * Pure: no actors, no delays, no clock. Events carry the facts (instants in epoch ms) and the
 * guards check them, so the server (the authority: every status write goes through
 * `nextStatus`) and the client (display) decide alike.
 *
 * Its files: the statuses and events (.types.ts), what a status and its dates mean for the
 * results (.selectors.ts, read by the server, and by the client through .connect.ts), what the
 * pupil's screens say of a sitting (.connect.ts, read by session.selectors.ts for the testing
 * menu and the exam list). There is no .actors.ts, because nothing here calls out: the machine
 * never runs as an actor. The server's jobs and routes ask `nextStatus` inside their own
 * transactions (server/domain/schedule-history.ts), and the client only reads statuses from
 * the wire.
 *
 * Every transition with its guard, and why so: machines/schedule-history/README.md.
 */
import { setup, transition } from 'xstate';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { statusName, type ScheduleHistoryEvent, type Status, type StatusName } from './schedule-history.types.ts';

/** One week in ms (seed section 9): results are viewable from then. */
export const RESULT_RELEASE_MS = 604_800_000;

/** From COMPLETED until the result is public: a cancellation is CANCELED_COMPLETED, a retake reset starts again. */
const cancelOrResetOnceCompleted = {
  'exam.cancelled': { target: 'CANCELED_COMPLETED' },
  'retake.reset': { target: 'PENDING' },
} as const;

export const scheduleHistoryMachine = setup({
  types: {
    events: {} as ScheduleHistoryEvent,
  },
  guards: {
    isWithinTestPeriod: ({ event }) =>
      event.type === 'exam.started' && event.startsAt <= event.now && event.now <= event.endsAt,
    isPastUploadWindow: ({ event }) =>
      event.type === 'exam.autoFinished' && event.now > event.deadlineAt + event.uploadWindowMs,
    isCohortClosed: ({ event }) =>
      event.type === 'statistics.completed' && event.now > event.scheduleEndsAt && event.openSittings === 0,
    isReleaseDue: ({ event }) => event.type === 'result.released' && event.now >= event.finishedAt + RESULT_RELEASE_MS,
    hasScheduleEnded: ({ event }) => event.type === 'schedule.ended' && event.now > event.scheduleEndsAt,
  },
}).createMachine({
  id: 'scheduleHistory',
  initial: 'PENDING',
  states: {
    PENDING: {
      on: {
        'exam.started': { guard: 'isWithinTestPeriod', target: 'DOING' },
        'schedule.ended': { guard: 'hasScheduleEnded', target: 'EXPIRED' },
        'exam.cancelled': { target: 'CANCELED_PENDING' },
      },
    },
    DOING: {
      on: {
        'exam.finished': { target: 'COMPLETED' },
        'exam.autoFinished': { guard: 'isPastUploadWindow', target: 'COMPLETED' },
        'exam.cancelled': { target: 'CANCELED_PENDING' },
        'retake.reset': { target: 'PENDING' },
      },
    },
    COMPLETED: {
      on: {
        'scoring.completed': { target: 'SCORING_COMPLETED' },
        ...cancelOrResetOnceCompleted,
      },
    },
    SCORING_COMPLETED: {
      on: {
        'statistics.completed': { guard: 'isCohortClosed', target: 'STATISTIC_COMPLETED' },
        'result.released': { guard: 'isReleaseDue', target: 'RESULT_PUBLIC' },
        ...cancelOrResetOnceCompleted,
      },
    },
    STATISTIC_COMPLETED: {
      on: {
        'result.released': { guard: 'isReleaseDue', target: 'RESULT_PUBLIC' },
        'statistics.completed': { guard: 'isCohortClosed' },
        ...cancelOrResetOnceCompleted,
      },
    },
    RESULT_PUBLIC: {
      on: {
        'statistics.completed': { guard: 'isCohortClosed' },
        'exam.cancelled': { target: 'CANCELED_COMPLETED' },
      },
    },
    CANCELED_PENDING: { type: 'final' },
    CANCELED_COMPLETED: { type: 'final' },
    EXPIRED: { type: 'final' },
  },
});

/** The machine's snapshot in a given status (a sitting as read from the database). */
export function snapshotOf(status: number) {
  const name = statusName(status);
  if (name === undefined) throw new RangeError(`Not a schedule history status: ${status}`);
  return scheduleHistoryMachine.resolveState({ value: name, context: {} });
}

/**
 * The status a sitting moves to when `event` happens in `status`, or undefined when the
 * machine refuses it (no such transition, or its guard says no). A targetless transition
 * (statistics recomputed on a ranked or released result) answers the same status.
 */
export function nextStatus(status: number, event: ScheduleHistoryEvent): Status | undefined {
  const before = snapshotOf(status);
  // Enabled transitions after their guards (a targetless one counts, unlike `snapshot.can`).
  if (before.status !== 'active' || scheduleHistoryMachine.getTransitionData(before, event).length === 0) return undefined;
  const [after] = transition(scheduleHistoryMachine, before, event);
  return ScheduleHistoryStatus[after.value as StatusName];
}
