/**
 * What a pupil reads when a call fails: one message descriptor per FailureCode, picked by code
 * (seed section 8, "User messages"). Every code of the contract has its own entry, so adding
 * a code to the contract without a message is a type error here.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { FailureCode } from '../../machines/shared/ports.ts';

const networkError = msg`Network error. Please check the connection and try again.`;
const outsideHours = msg`This is outside test hours.`;
const examClosed = msg`The exam is closed.`;
const genericError = msg`An error has occurred.`;

export const failureMessages: Record<FailureCode, MessageDescriptor> = {
  ER_SCHEDULE_HISTORY_CANCELLED: msg`This exam has been cancelled. Please ask your teacher.`,
  ER_SCHEDULE_HISTORY_COMPLETED: msg`This account has already been used or the exam has ended.`,
  ER_DUP_ENTRY: msg`This has already been registered.`,
  ARCHIVE_KEY: examClosed,
  TIME_START: msg`The test period has not started yet.`,
  TIME_END: msg`The test period has ended.`,
  EXPIRED: examClosed,
  DISABLED_CLASS: msg`This classroom is not valid. Please ask your teacher.`,
  DISABLED_ORGANIZATION: msg`This organization has been disabled. Please ask your teacher.`,
  SCHEDULE_SUSPENSION_TIME: outsideHours,
  ACCOUNT_LOCKED: msg`The account is locked. Please try again in 1 minute.`,
  INCORRECT_LOGIN_METHOD: msg`This account cannot log in this way. Please ask your teacher how to log in.`,
  INCORRECT_DEVICE: msg`An exam was already started for this account on another terminal.`,
  ER_SCHEDULE_HISTORY_RETAKE: msg`An administrator has reset this account. Please log in again.`,
  ER_SCHEDULE_HISTORY_STEP_MODE: msg`This exam can only be taken in step mode. Please ask your teacher.`,
  DURING_MAINTENANCE: outsideHours,
  VALIDATION_ERROR: msg`Please check what you entered.`,
  LOGIN_CODE_INCORRECT: msg`The login code is incorrect.`,
  INCORRECT_ID_PASSWORD: msg`The test ID or password is incorrect.`,
  INVALID_SCHEDULE: msg`The venue, organization or schedule URL is not valid.`,
  INVALID_EMAIL: msg`Please enter a valid Email address.`,
  NOT_LOGGED_IN: msg`You are not logged in.`,
  NOT_FOUND: msg`This could not be found.`,
  EXAM_NOT_STARTED: msg`The test has not been started yet.`,
  GENERIC_ERROR: genericError,
  RESULT_NOT_RELEASED: msg`The result has not been released yet. Results can be viewed from one week after the exam.`,
  RESULT_VIEW_EXPIRED: msg`Results can be viewed for two years after the exam. This result can no longer be viewed.`,
  PAYMENT_REQUIRED: msg`This has not been paid for yet.`,
  NOT_PASSED: msg`A certificate is issued only for a passed exam.`,
  ALREADY_PAID: msg`This has already been paid for. You will not be charged again.`,
  PAYMENT_CANCELED: msg`The payment was canceled.`,
  PAYMENT_REFUSED: msg`The card was refused. Please check the card information and try again.`,
  PAYMENT_ERROR: msg`An unknown error occurred during payment. Please try again.`,
  PAYMENT_UNAVAILABLE: msg`Online payment is not available here. Please ask your teacher.`,
  INVALID_SIGNATURE: genericError,
  DOCUMENT_UNAVAILABLE: msg`The document cannot be created right now. Please try again later.`,
  // The app always asks for what the API answers: a 406 would be the app's own fault.
  NOT_ACCEPTABLE: genericError,
  TOO_MANY_REQUESTS: msg`Too many tries. Please wait a few minutes, then try again. If this keeps happening, ask your teacher.`,
  FORBIDDEN: msg`Only an administrator can do this.`,
  ROSTER_CURSOR_INVALID: msg`The roster could not be updated. It is loaded again in full.`,
  NETWORK_ERROR: networkError,
  TIMEOUT: networkError,
};

/** The message for a failure; an unknown code (an older or newer server) reads as the generic one. */
export function failureMessage(code: FailureCode | string): MessageDescriptor {
  return Object.hasOwn(failureMessages, code) ? failureMessages[code as FailureCode] : genericError;
}
