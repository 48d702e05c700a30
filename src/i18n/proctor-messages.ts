/**
 * What a proctor reads when a staff call fails: the codes the admin API answers with
 * (contract/admin.ts), told to a teacher rather than to a pupil. A code without a staff message of
 * its own reads as the pupil's message for it (failure-messages.ts), never as a raw code.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { FailureCode } from '../../machines/shared/ports.ts';
import { failureMessage } from './failure-messages.ts';

const noAnswer = msg`No answer came from the server. Check your connection.`;

/** Why staff sign-in or a staff page failed. */
const staffMessages: Partial<Record<FailureCode, MessageDescriptor>> = {
  INCORRECT_ID_PASSWORD: msg`The organisation code, login ID or password is incorrect.`,
  ACCOUNT_LOCKED: msg`This staff account is locked after too many wrong passwords. Please try again in 1 minute.`,
  NOT_LOGGED_IN: msg`Your staff session has ended. Please sign in again.`,
  NOT_FOUND: msg`This is not part of your organisation, or it no longer exists.`,
  VALIDATION_ERROR: msg`The server did not accept what was entered. Please check it and try again.`,
  NETWORK_ERROR: noAnswer,
  TIMEOUT: noAnswer,
};

/** Why an action (move, retake, extend) was refused. */
const actionMessages: Partial<Record<FailureCode, MessageDescriptor>> = {
  EXAM_NOT_STARTED: msg`This pupil has not started the exam, so this cannot be done yet.`,
  ER_SCHEDULE_HISTORY_COMPLETED: msg`This pupil has already finished the exam (or the result is released), so this cannot be done.`,
  ER_SCHEDULE_HISTORY_CANCELLED: msg`This pupil's exam was cancelled, so this cannot be done.`,
  EXPIRED: msg`This pupil's sitting has expired, so this cannot be done.`,
  TIME_END: msg`This pupil's time is already over, so this cannot be done.`,
  // An unknown outcome: the action may have reached the server before the connection dropped.
  NETWORK_ERROR: msg`No answer came from the server, so it is not known whether this was done. Check the roster and the audit log before trying again.`,
  TIMEOUT: msg`No answer came from the server, so it is not known whether this was done. Check the roster and the audit log before trying again.`,
};

/** The message for a failed staff call (sign-in, schedules, roster, audit). */
export function staffFailureMessage(code: FailureCode): MessageDescriptor {
  return staffMessages[code] ?? failureMessage(code);
}

/** The message for a refused or unanswered action. */
export function actionFailureMessage(code: FailureCode): MessageDescriptor {
  return actionMessages[code] ?? staffFailureMessage(code);
}
