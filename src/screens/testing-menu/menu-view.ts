/**
 * The testing menu's view model (seed section 2, TestingMenu states: pay fee, fee paid, payment
 * not completed, take test, exam completed, waiting for the result to be released, view
 * results), derived from GET /get-status-choose-page. Pure: the same status and clock give the
 * same menu, so the lead's selector and the tests share it.
 */
import { ScheduleHistoryStatus } from '../../../contract/enums.ts';
import { type ChoosePageStatus } from '../../../contract/results.ts';

/** The exam fee card: no card when the fee is not paid online. */
export type FeeState = 'not_required' | 'to_pay' | 'pending' | 'paid';

/**
 * The test card: `needs_fee` while an unpaid fee blocks the test; `unavailable` for every other
 * reason the server gives `can_take: false` (period not open, step locked, organisation disabled).
 */
export type ExamState = 'can_take' | 'needs_fee' | 'unavailable' | 'completed' | 'cancelled' | 'expired';

/** The results card: `none` when the exam ended without a result (cancelled or expired). */
export type ResultState = 'not_finished' | 'waiting' | 'viewable' | 'none';

/** The one action the menu offers as primary (ARCHITECTURE.md: one primary action per screen). */
export type MenuAction = 'pay_fee' | 'take_test' | 'view_results';

export interface MenuView {
  fee: FeeState;
  exam: ExamState;
  result: ResultState;
  /** When the result will be released (ISO 8601), while waiting and still ahead of `now`; else null. */
  releaseAt: string | null;
  /** The primary action, or null when nothing can be done now. */
  next: MenuAction | null;
}

/**
 * The status as the server may send it: `result.release_at` (ISO 8601) is read when the contract
 * carries it, so the menu can say when the result comes.
 */
export type ChoosePageStatusWithRelease = ChoosePageStatus & { result: { release_at?: string | null } };

/** Sat and finished: the result follows (seed section 4: COMPLETED, SCORING, STATISTIC, RESULT_PUBLIC). */
const finishedStatuses: ReadonlySet<number> = new Set([
  ScheduleHistoryStatus.COMPLETED,
  ScheduleHistoryStatus.SCORING_COMPLETED,
  ScheduleHistoryStatus.STATISTIC_COMPLETED,
  ScheduleHistoryStatus.RESULT_PUBLIC,
]);

const cancelledStatuses: ReadonlySet<number> = new Set([
  ScheduleHistoryStatus.CANCELED_PENDING,
  ScheduleHistoryStatus.CANCELED_COMPLETED,
]);

function feeOf(fee: ChoosePageStatus['exam_fee']): FeeState {
  if (!fee.required) return 'not_required';
  if (fee.status === 2) return 'paid';
  if (fee.status === 1) return 'pending';
  return 'to_pay';
}

function examOf(exam: ChoosePageStatus['exam'], fee: FeeState): ExamState {
  const status = exam.status;
  if (status !== null && finishedStatuses.has(status)) return 'completed';
  if (status !== null && cancelledStatuses.has(status)) return 'cancelled';
  if (status === ScheduleHistoryStatus.EXPIRED) return 'expired';
  if (exam.can_take) return 'can_take';
  if (fee === 'to_pay' || fee === 'pending') return 'needs_fee';
  return 'unavailable';
}

function resultOf(exam: ExamState, released: boolean): ResultState {
  if (exam === 'completed') return released ? 'viewable' : 'waiting';
  if (exam === 'cancelled' || exam === 'expired') return 'none';
  return 'not_finished';
}

function nextOf(exam: ExamState, result: ResultState): MenuAction | null {
  if (result === 'viewable') return 'view_results';
  if (exam === 'can_take') return 'take_test';
  if (exam === 'needs_fee') return 'pay_fee';
  return null;
}

export function menuViewOf(status: ChoosePageStatusWithRelease, now: Date): MenuView {
  const fee = feeOf(status.exam_fee);
  const exam = examOf(status.exam, fee);
  const result = resultOf(exam, status.result.released);
  const release = status.result.release_at ?? null;
  const releaseAt = result === 'waiting' && release !== null && Date.parse(release) > now.getTime() ? release : null;
  return { fee, exam, result, releaseAt, next: nextOf(exam, result) };
}
