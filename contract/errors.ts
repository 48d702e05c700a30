/**
 * The error envelope `{ code, message, errors? }` and every error code (seed section 8).
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';

/** The seed's server codes, verbatim (section 8). */
export const serverErrorCodes = [
  'ER_SCHEDULE_HISTORY_CANCELLED',
  'ER_SCHEDULE_HISTORY_COMPLETED',
  'ER_DUP_ENTRY',
  'ARCHIVE_KEY',
  'TIME_START',
  'TIME_END',
  'EXPIRED',
  'DISABLED_CLASS',
  'DISABLED_ORGANIZATION',
  'SCHEDULE_SUSPENSION_TIME',
  'ACCOUNT_LOCKED',
  'INCORRECT_LOGIN_METHOD',
  'INCORRECT_DEVICE',
  'ER_SCHEDULE_HISTORY_RETAKE',
  'ER_SCHEDULE_HISTORY_STEP_MODE',
  'DURING_MAINTENANCE',
] as const;

/**
 * Codes named after the seed's user messages (section 8, "User messages") for the cases the
 * server-code list does not name: bad input, wrong credentials, no login, unknown resource.
 */
export const messageErrorCodes = [
  'VALIDATION_ERROR', // "Required field" / a field is malformed
  'LOGIN_CODE_INCORRECT', // "Login code incorrect"
  'INCORRECT_ID_PASSWORD', // "Incorrect test ID or password"
  'INVALID_SCHEDULE', // "Venue, organization or schedule URL invalid"
  'INVALID_EMAIL', // "Please enter a valid Email address."
  'NOT_LOGGED_IN', // "Not logged in" (401 without a valid token)
  'NOT_FOUND', // a resource or route that does not exist
  'EXAM_NOT_STARTED', // answers or questions asked for before Start was pressed
  'GENERIC_ERROR', // "An error has occurred"
  'RESULT_NOT_RELEASED', // "Waiting for result to be released": results are viewable one week after the exam
  'RESULT_VIEW_EXPIRED', // results are viewable for two years after the exam (seed section 9)
  'PAYMENT_REQUIRED', // the result sheet or certificate has not been paid for
  'NOT_PASSED', // a certificate is issued only for a passed result
  'ALREADY_PAID', // the item is paid already: nothing is charged again
  'PAYMENT_CANCELED', // "Payment canceled"
  'PAYMENT_REFUSED', // "Card refused: check the card information and retry"
  'PAYMENT_ERROR', // "Unknown payment error: try again"
  'PAYMENT_UNAVAILABLE', // no payment provider on this server: nothing can be paid online (ask the school)
  'INVALID_SIGNATURE', // a payment webhook whose HMAC signature does not verify (changes nothing)
  'DOCUMENT_UNAVAILABLE', // the PDF renderer (Chromium) is not available on this server
  'NOT_ACCEPTABLE', // 406 (seed section 8): the request's Accept admits nothing the call answers with (JSON, or a PDF)
  'TOO_MANY_REQUESTS', // 429: too many failed logins from this network; Retry-After says how long to wait
  'FORBIDDEN', // 403: a staff member whose role does not allow the call (a proctor calling an administrator's)
  'ROSTER_CURSOR_INVALID', // 422: the roster's `since` is not a cursor this server gave (malformed, or ahead of this database): ask for the room in full
] as const;

export const errorCodes = [...serverErrorCodes, ...messageErrorCodes] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const ErrorCodeSchema = v.picklist(errorCodes);

/** Every non-2xx response body. */
export const ErrorBodySchema = v.object({
  code: ErrorCodeSchema,
  message: v.string(),
  /** Field-level problems of a VALIDATION_ERROR: which attribute, which rule. */
  issues: v.optional(v.array(v.object({ field: v.string(), rule: v.picklist(['required', 'invalid']) }))),
  /** The server's clock when it answered (ISO 8601, UTC); time-based refusals depend on it. */
  server_time: v.optional(v.pipe(v.string(), v.isoTimestamp())),
});

export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;
