/**
 * From error codes to HTTP answers. Every non-2xx response is the contract's ErrorBody:
 * `{ code, message, issues?, server_time }`, with statuses from the seed's list (section 8:
 * 400, 401, 403, 404, 406, 422, 500; and 429 for the login throttle). Unexpected errors become 500 GENERIC_ERROR; their
 * details go to the log, never to the client.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody, ErrorCode } from '../../contract/errors.ts';
import { DomainError, type FieldIssue } from '../domain/errors.ts';

export const statusOf: Record<ErrorCode, ContentfulStatusCode> = {
  VALIDATION_ERROR: 422,
  INVALID_EMAIL: 422,
  ER_DUP_ENTRY: 422,
  LOGIN_CODE_INCORRECT: 401,
  INCORRECT_ID_PASSWORD: 401,
  NOT_LOGGED_IN: 401,
  // Seed section 8: "401 with DURING_MAINTENANCE" triggers the maintenance handling.
  DURING_MAINTENANCE: 401,
  // An administrator reset the account (seed section 4, "forcing a new login"): the token is no
  // longer valid, and section 8's "other 401" is the logout handling. requireLogin answers it.
  ER_SCHEDULE_HISTORY_RETAKE: 401,
  NOT_FOUND: 404,
  INVALID_SCHEDULE: 404,
  EXAM_NOT_STARTED: 403,
  ER_SCHEDULE_HISTORY_CANCELLED: 403,
  ER_SCHEDULE_HISTORY_COMPLETED: 403,
  ER_SCHEDULE_HISTORY_STEP_MODE: 403,
  ARCHIVE_KEY: 403,
  TIME_START: 403,
  TIME_END: 403,
  EXPIRED: 403,
  DISABLED_CLASS: 403,
  DISABLED_ORGANIZATION: 403,
  SCHEDULE_SUSPENSION_TIME: 403,
  ACCOUNT_LOCKED: 403,
  INCORRECT_LOGIN_METHOD: 403,
  INCORRECT_DEVICE: 403,
  GENERIC_ERROR: 500,
  RESULT_NOT_RELEASED: 403,
  RESULT_VIEW_EXPIRED: 403,
  PAYMENT_REQUIRED: 403,
  NOT_PASSED: 403,
  ALREADY_PAID: 422,
  PAYMENT_CANCELED: 422,
  PAYMENT_REFUSED: 422,
  PAYMENT_ERROR: 422,
  PAYMENT_UNAVAILABLE: 403,
  INVALID_SIGNATURE: 401,
  DOCUMENT_UNAVAILABLE: 500,
  // Seed section 8's 406: an Accept header the call cannot answer (server/http/negotiation.ts).
  NOT_ACCEPTABLE: 406,
  // the login throttle (server/security/throttle.ts), always with Retry-After.
  TOO_MANY_REQUESTS: 429,
  FORBIDDEN: 403,
  ROSTER_CURSOR_INVALID: 422,
};

/**
 * English defaults after the seed's user messages (section 8), one for every code, so no answer
 * carries the bare code as its message; the client shows its own translations.
 */
const defaultMessages: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'Some fields are missing or invalid.',
  LOGIN_CODE_INCORRECT: 'Login code incorrect.',
  NOT_LOGGED_IN: 'Not logged in.',
  NOT_FOUND: 'Not found.',
  INVALID_SCHEDULE: 'Venue, organization or schedule URL invalid.',
  EXAM_NOT_STARTED: 'The exam has not been started.',
  TIME_START: 'The test period has not started.',
  TIME_END: 'The exam is closed.',
  ER_SCHEDULE_HISTORY_COMPLETED: 'This account was already used or the exam has ended.',
  ER_SCHEDULE_HISTORY_CANCELLED: 'This exam was cancelled.',
  EXPIRED: 'This exam has expired.',
  DISABLED_ORGANIZATION: 'The organization is disabled.',
  DISABLED_CLASS: 'The classroom is invalid.',
  INCORRECT_LOGIN_METHOD: 'This organization does not use this login method.',
  INCORRECT_ID_PASSWORD: 'Incorrect test ID or password.',
  ACCOUNT_LOCKED: 'Account locked, retry in 1 minute.',
  SCHEDULE_SUSPENSION_TIME: 'Outside test hours.',
  DURING_MAINTENANCE: 'Outside test hours.',
  ER_SCHEDULE_HISTORY_STEP_MODE: 'Finish the previous level first.',
  ER_DUP_ENTRY: 'Already registered.',
  GENERIC_ERROR: 'An error has occurred.',
  ARCHIVE_KEY: 'This answer belongs to an attempt an administrator reset; it is kept for the record and not taken into this exam.',
  INCORRECT_DEVICE: 'This exam was started on another terminal.',
  ER_SCHEDULE_HISTORY_RETAKE: 'An administrator has reset this account. Please log in again.',
  INVALID_EMAIL: 'Please enter a valid Email address.',
  RESULT_NOT_RELEASED: 'The result has not been released yet. Results can be viewed from one week after the exam.',
  RESULT_VIEW_EXPIRED: 'Results can be viewed for two years after the exam. This result can no longer be viewed.',
  PAYMENT_REQUIRED: 'This has not been paid for yet.',
  NOT_PASSED: 'A certificate is issued only for a passed exam.',
  ALREADY_PAID: 'This has already been paid for. You will not be charged again.',
  PAYMENT_CANCELED: 'The payment was canceled.',
  PAYMENT_REFUSED: 'The card was refused. Please check the card information and try again.',
  PAYMENT_ERROR: 'An unknown error occurred during payment. Please try again.',
  PAYMENT_UNAVAILABLE: 'Online payment is not available here. Please ask your teacher.',
  INVALID_SIGNATURE: 'The notification is not signed with our key.',
  DOCUMENT_UNAVAILABLE: 'The document cannot be created right now. Please try again later.',
  NOT_ACCEPTABLE: 'This call answers only with application/json (the documents: application/pdf); the Accept header admits neither.',
  TOO_MANY_REQUESTS: 'Too many attempts. Please wait a little and try again.',
  FORBIDDEN: 'Only an administrator can do this.',
  ROSTER_CURSOR_INVALID: 'The roster cursor is not one this server gave. Ask for the roster without it.',
};

/** An error only the HTTP layer can see (malformed JSON, an oversized body): its own status. */
export class RequestError extends DomainError {
  readonly status: ContentfulStatusCode;

  constructor(status: ContentfulStatusCode, code: ErrorCode, message: string, issues?: FieldIssue[]) {
    super(code, message, issues);
    this.name = 'RequestError';
    this.status = status;
  }
}

export function errorBody(code: ErrorCode, message: string | undefined, now: Date, issues?: FieldIssue[]): ErrorBody {
  const body: ErrorBody = { code, message: message ?? defaultMessages[code] };
  if (issues && issues.length > 0) body.issues = issues;
  body.server_time = now.toISOString();
  return body;
}

/** The response for a DomainError or RequestError. */
export function domainErrorResponse(c: Context, error: DomainError, now: Date): Response {
  const status = error instanceof RequestError ? error.status : statusOf[error.code];
  const message = error.message === error.code ? undefined : error.message;
  return c.json(errorBody(error.code, message, now, error.issues), status);
}

export function errorResponse(c: Context, code: ErrorCode, now: Date, message?: string): Response {
  return c.json(errorBody(code, message, now), statusOf[code]);
}
