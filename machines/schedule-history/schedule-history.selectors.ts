/**
 * What a sitting's status and dates mean for its results, shared by the server (which refuses
 * outside the window) and the client (which says why): results are viewable from one week after
 * the exam, for two years (seed section 9), once scored.
 */
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { RESULT_RELEASE_MS } from './schedule-history.machine.ts';

const S = ScheduleHistoryStatus;

/** For how long results stay viewable after the exam (seed section 9). */
export const RESULT_VIEW_YEARS = 2;

export type ResultAvailability =
  /** Not (yet) finished: PENDING, DOING, or EXPIRED (never taken). */
  | 'not_finished'
  /** Finished; before one week after the exam, or not scored yet. */
  | 'waiting'
  /** Scored and within [finished + 1 week, finished + 2 years). */
  | 'viewable'
  /** Two years after the exam or later. */
  | 'expired'
  /** CANCELED_PENDING or CANCELED_COMPLETED. */
  | 'cancelled';

/** The pupil finished the exam: COMPLETED, SCORING_COMPLETED, STATISTIC_COMPLETED, RESULT_PUBLIC. */
export function isFinishedStatus(status: number): boolean {
  return status === S.COMPLETED || status === S.SCORING_COMPLETED || status === S.STATISTIC_COMPLETED || status === S.RESULT_PUBLIC;
}

/** The result has been written by the scoring job. */
export function isScoredStatus(status: number): boolean {
  return status === S.SCORING_COMPLETED || status === S.STATISTIC_COMPLETED || status === S.RESULT_PUBLIC;
}

/** From when results are viewable: one week after the exam. */
export function releaseAt(finishedAt: Date): Date {
  return new Date(finishedAt.getTime() + RESULT_RELEASE_MS);
}

/** Until when results are viewable: two calendar years after the exam (UTC). */
export function viewableUntil(finishedAt: Date): Date {
  const until = new Date(finishedAt.getTime());
  until.setUTCFullYear(until.getUTCFullYear() + RESULT_VIEW_YEARS);
  return until;
}

export function resultAvailability(input: { status: number; finishedAt: Date | null; now: Date }): ResultAvailability {
  const { status, finishedAt, now } = input;
  if (status === S.CANCELED_PENDING || status === S.CANCELED_COMPLETED) return 'cancelled';
  if (!isFinishedStatus(status) || finishedAt === null) return 'not_finished';
  if (now.getTime() >= viewableUntil(finishedAt).getTime()) return 'expired';
  if (now.getTime() < releaseAt(finishedAt).getTime() || !isScoredStatus(status)) return 'waiting';
  return 'viewable';
}
