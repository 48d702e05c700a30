/**
 * Schedule history status rules (seed section 4) as the server enforces them. The seed lists
 * the statuses but not the transitions; ours are:
 *
 *   PENDING --start--> DOING --finish--> COMPLETED --(scoring, later issues)--> SCORING_COMPLETED,
 *   STATISTIC_COMPLETED, RESULT_PUBLIC.  CANCELED_* and EXPIRED are set by staff or jobs.
 *
 * Each function answers which contract error code, if any, refuses an action in a status.
 */
import { ScheduleHistoryStatus, type ErrorCode } from '../../src/shared/contract.ts';

export type Status = (typeof ScheduleHistoryStatus)[keyof typeof ScheduleHistoryStatus];

const S = ScheduleHistoryStatus;

/** The pupil finished: the exam is over for them, whatever scoring has done since. */
export function isFinished(status: number): boolean {
  return (
    status === S.COMPLETED ||
    status === S.SCORING_COMPLETED ||
    status === S.STATISTIC_COMPLETED ||
    status === S.RESULT_PUBLIC
  );
}

/** Why a sitting that is neither PENDING nor DOING cannot be entered. */
function closedReason(status: number): ErrorCode {
  if (isFinished(status)) return 'ER_SCHEDULE_HISTORY_COMPLETED';
  if (status === S.CANCELED_PENDING || status === S.CANCELED_COMPLETED) return 'ER_SCHEDULE_HISTORY_CANCELLED';
  if (status === S.EXPIRED) return 'EXPIRED';
  return 'GENERIC_ERROR';
}

/** Login (and exam details): allowed while PENDING or DOING (a reload resumes). */
export function loginRefusal(status: number): ErrorCode | undefined {
  return status === S.PENDING || status === S.DOING ? undefined : closedReason(status);
}

/** Start: from PENDING; a repeated Start while DOING is answered with the same deadline. */
export function startRefusal(status: number): ErrorCode | undefined {
  return status === S.PENDING || status === S.DOING ? undefined : closedReason(status);
}

/** Questions and answers: only while DOING. */
export function answeringRefusal(status: number): ErrorCode | undefined {
  if (status === S.DOING) return undefined;
  if (status === S.PENDING) return 'EXAM_NOT_STARTED';
  return closedReason(status);
}

/** Finish: from DOING; when already finished the stored receipt is returned again. */
export function finishRefusal(status: number): ErrorCode | undefined {
  if (status === S.DOING || isFinished(status)) return undefined;
  if (status === S.PENDING) return 'EXAM_NOT_STARTED';
  return closedReason(status);
}

export function toStatus(status: number): Status {
  if (Number.isInteger(status) && status >= 0 && status <= 8) return status as Status;
  throw new Error(`Not a schedule history status: ${status}`);
}
