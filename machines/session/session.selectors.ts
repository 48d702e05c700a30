/**
 * Session snapshot to view: the testing menu's states and the exam list's rows, each decided here
 * from the contract's statuses so the screens only render them. Pure: the same status and clock
 * give the same menu, the same list the same rows.
 */
import type { SnapshotFrom } from 'xstate';
import { ApplicationMode } from '../../contract/enums.ts';
import { PaymentStatus } from '../../contract/payments.ts';
import type { ChoosePageStatus } from '../../contract/results.ts';
import type { ExamListItem } from '../../contract/session.ts';
import { sittingOf } from '../schedule-history/schedule-history.connect.ts';
import type { sessionMachine } from './session.machine.ts';

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

// ---------------------------------------------------------------------------------------------
// The testing menu (seed section 2, TestingMenu states: pay fee, fee paid, payment not
// completed, take test, exam completed, waiting for the result to be released, view results),
// derived from GET /get-status-choose-page.

/**
 * The exam fee card: no card when the fee is not paid online; `school_paid` when the test period
 * was applied for by the school as a group (seed section 3, personal or group mode 2): the school
 * settled the fee, so the card says so and nothing asks the pupil to pay.
 */
export type FeeState = 'not_required' | 'school_paid' | 'to_pay' | 'pending' | 'paid';

/**
 * The test card: `needs_fee` while an unpaid fee blocks the test; `unavailable` for every other
 * reason the server gives `can_take: false` (period not open, step locked, organisation disabled).
 */
export type ExamState = 'can_take' | 'needs_fee' | 'unavailable' | 'completed' | 'cancelled' | 'expired';

/**
 * The results card: `none` when the exam ended without a result (cancelled or expired);
 * `expired` when the result was released but is past the two years it can be viewed.
 */
export type ResultState = 'not_finished' | 'waiting' | 'viewable' | 'expired' | 'none';

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

/** The exam fee's state; group mode wins over `required` (the school has paid, whoever the pupil). */
export function feeOf(fee: ChoosePageStatus['exam_fee']): FeeState {
  if (fee.application_mode === ApplicationMode.GROUP) return 'school_paid';
  if (!fee.required) return 'not_required';
  if (fee.status === PaymentStatus.PAID) return 'paid';
  if (fee.status === PaymentStatus.PENDING) return 'pending';
  return 'to_pay';
}

function examOf(exam: ChoosePageStatus['exam'], fee: FeeState): ExamState {
  // What the sitting's status says (machines/schedule-history): finished, cancelled, expired.
  const sitting = exam.status === null ? null : sittingOf(exam.status);
  if (sitting?.finished) return 'completed';
  if (sitting?.cancelled) return 'cancelled';
  if (sitting?.expired) return 'expired';
  if (exam.can_take) return 'can_take';
  if (fee === 'to_pay' || fee === 'pending') return 'needs_fee';
  return 'unavailable';
}

function resultOf(exam: ExamState, result: ChoosePageStatus['result']): ResultState {
  if (exam === 'completed') return result.expired ? 'expired' : result.released ? 'viewable' : 'waiting';
  if (exam === 'cancelled' || exam === 'expired') return 'none';
  return 'not_finished';
}

function nextOf(exam: ExamState, result: ResultState): MenuAction | null {
  if (result === 'viewable') return 'view_results';
  if (exam === 'can_take') return 'take_test';
  if (exam === 'needs_fee') return 'pay_fee';
  return null;
}

/** The menu for this status at `now` (the server's clock: the status's own server_time). */
export function menuViewOf(status: ChoosePageStatus, now: Date): MenuView {
  const fee = feeOf(status.exam_fee);
  const exam = examOf(status.exam, fee);
  const result = resultOf(exam, status.result);
  const release = status.result.release_at ?? null;
  const releaseAt = result === 'waiting' && release !== null && Date.parse(release) > now.getTime() ? release : null;
  return { fee, exam, result, releaseAt, next: nextOf(exam, result) };
}

// ---------------------------------------------------------------------------------------------
// The exam list (seed section 2, `exam` and `exam-step-mode`).

/**
 * What the pupil can do with a row: start a pending exam, continue one in progress; a later step
 * still locked; or nothing (completed, cancelled, closed).
 */
export type ExamRowAction = 'start' | 'continue' | 'locked' | 'completed' | 'cancelled' | 'closed';

export type ExamRow = ExamListItem & { action: ExamRowAction };

function rowActionOf(exam: ExamListItem): ExamRowAction {
  // What the sitting's status says (machines/schedule-history): open, in progress, sat, cancelled.
  const sitting = sittingOf(exam.status);
  if (sitting.open) {
    if (exam.locked) return 'locked';
    return sitting.inProgress ? 'continue' : 'start';
  }
  // Sat, whatever came after (a cancellation once finished too): "Completed".
  if (sitting.sat) return 'completed';
  // Cancelled before it was finished; anything else (expired) is closed.
  return sitting.cancelled ? 'cancelled' : 'closed';
}

/** The rows as the list shows them: in step mode the levels in their order (seed section 2, exam-step-mode). */
export function examRowsOf(exams: readonly ExamListItem[], stepMode: boolean): ExamRow[] {
  const ordered = stepMode ? [...exams].sort((a, b) => a.level.order - b.level.order) : exams;
  return ordered.map((exam) => ({ ...exam, action: rowActionOf(exam) }));
}
