/**
 * Schedule history status rules (seed section 4) as the server enforces them. The transitions
 * themselves are the schedule history machine's (machines/schedule-history/, its README lists
 * them); every status the server writes comes from `nextStatus` there. Here: which contract
 * error code, if any, refuses an action in a status.
 */
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { type ErrorCode } from '../../contract/errors.ts';
import { isFinishedStatus } from '../../machines/schedule-history/schedule-history.selectors.ts';
import type { Status } from '../../machines/schedule-history/schedule-history.types.ts';

export type { Status };
export { nextStatus } from '../../machines/schedule-history/schedule-history.machine.ts';

const S = ScheduleHistoryStatus;

/** The pupil finished: the exam is over for them, whatever scoring has done since. */
export function isFinished(status: number): boolean {
  return isFinishedStatus(status);
}

/** Why a sitting that is neither PENDING nor DOING cannot be entered. */
function closedReason(status: number): ErrorCode {
  if (isFinished(status)) return 'ER_SCHEDULE_HISTORY_COMPLETED';
  if (status === S.CANCELED_PENDING || status === S.CANCELED_COMPLETED) return 'ER_SCHEDULE_HISTORY_CANCELLED';
  if (status === S.EXPIRED) return 'EXPIRED';
  return 'GENERIC_ERROR';
}

export type LoginRefusalOptions = {
  /**
   * The pupil comes back for results: a my-page examinee or a pupil of a foreign-payment
   * organisation (they land on the testing menu, seed section 2 "Next screen after login").
   * Such a login is allowed into a finished sitting; the exam itself stays closed.
   */
  forResults?: boolean;
};

/** Login (and exam details): allowed while PENDING or DOING (a reload resumes), and finished for results. */
export function loginRefusal(status: number, options: LoginRefusalOptions = {}): ErrorCode | undefined {
  if (status === S.PENDING || status === S.DOING) return undefined;
  if (options.forResults === true && isFinished(status)) return undefined;
  return closedReason(status);
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
