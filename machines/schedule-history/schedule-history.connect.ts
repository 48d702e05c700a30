/**
 * What the pupil's screens say of one sitting, in the chakra-ui/zag style: `connect(snapshot)`
 * turns the schedule history machine in a sitting's status into exactly what the testing menu and
 * the exam list render of it (session.selectors.ts: the menu's test card, each row's action).
 * Pure: no React, no DOM, no clock.
 *
 * No `send`: the client never moves a sitting. The server is the machine's authority (every
 * status write goes through `nextStatus`); the screens only show where the sitting is.
 * `sittingOf(status)` is the same for a status as read from the wire, one object per status.
 */
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { snapshotOf } from './schedule-history.machine.ts';
import { isFinishedStatus } from './schedule-history.selectors.ts';
import { statusNames, type Status, type StatusName } from './schedule-history.types.ts';

export type ScheduleHistorySnapshot = ReturnType<typeof snapshotOf>;

export interface SittingApi {
  /** It can be started (PENDING) or continued (DOING), unless an earlier step keeps it locked. */
  open: boolean;
  /** The pupil is in it (DOING): "Continue" rather than "Start". */
  inProgress: boolean;
  /** The pupil finished it and the result follows: COMPLETED, SCORING_COMPLETED, STATISTIC_COMPLETED, RESULT_PUBLIC. */
  finished: boolean;
  /** Sat, whatever came after: finished, or cancelled once finished (CANCELED_COMPLETED). The exam list's "Completed". */
  sat: boolean;
  /** Staff cancelled it, before it was finished (CANCELED_PENDING) or after (CANCELED_COMPLETED). */
  cancelled: boolean;
  /** The schedule ended before it was started (EXPIRED). */
  expired: boolean;
}

export function connect(snapshot: ScheduleHistorySnapshot): SittingApi {
  const finished = isFinishedStatus(ScheduleHistoryStatus[snapshot.value as StatusName]);
  return {
    open: snapshot.matches('PENDING') || snapshot.matches('DOING'),
    inProgress: snapshot.matches('DOING'),
    finished,
    sat: finished || snapshot.matches('CANCELED_COMPLETED'),
    cancelled: snapshot.matches('CANCELED_PENDING') || snapshot.matches('CANCELED_COMPLETED'),
    expired: snapshot.matches('EXPIRED'),
  };
}

/** Every status's view, made once. */
const sittings = new Map<number, SittingApi>(statusNames.map((name) => [ScheduleHistoryStatus[name], connect(snapshotOf(ScheduleHistoryStatus[name]))]));

/** A status the seed does not list (the contract refuses it on the wire): nothing can be done with it. */
const unknownSitting: SittingApi = { open: false, inProgress: false, finished: false, sat: false, cancelled: false, expired: false };

/** What the screens say of a sitting in `status` (the same object for the same status). */
export function sittingOf(status: Status): SittingApi {
  return sittings.get(status) ?? unknownSitting;
}
