/**
 * The wire contract: valibot schemas of every request and response of the API.
 * The server validates what comes in with these; the client validates what comes back.
 * Field names follow the seed (section 3) where it names them, snake_case on the wire.
 *
 * Erasable TypeScript only: the server imports this file directly under Node's type stripping.
 */
import * as v from 'valibot';

// ---------------------------------------------------------------------------
// Error envelope and codes (seed section 8)
// ---------------------------------------------------------------------------

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
  'INVALID_SIGNATURE', // a payment webhook whose HMAC signature does not verify (changes nothing)
  'DOCUMENT_UNAVAILABLE', // the PDF renderer (Chromium) is not available on this server
  'NOT_ACCEPTABLE', // 406 (seed section 8): the request's Accept admits nothing the call answers with (JSON, or a PDF)
  'TOO_MANY_REQUESTS', // 429: too many failed logins from this network; Retry-After says how long to wait
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

// ---------------------------------------------------------------------------
// Enumerations (seed section 3 and 4)
// ---------------------------------------------------------------------------

/** Login types: 0 code, 1 id, 2 school CBT, 3 Mumbai, 4 Philippine, 5 examinee login, 6 Kenya, 7 Egypt. */
export const LoginType = {
  CODE: 0,
  ID: 1,
  SCHOOL_CBT: 2,
  MUMBAI: 3,
  PHILIPPINE: 4,
  EXAMINEE: 5,
  KENYA: 6,
  EGYPT: 7,
} as const;
export const LoginTypeSchema = v.picklist([0, 1, 2, 3, 4, 5, 6, 7]);

/** Schedule history status (seed section 4). */
export const ScheduleHistoryStatus = {
  PENDING: 0,
  COMPLETED: 1,
  CANCELED_PENDING: 2,
  CANCELED_COMPLETED: 3,
  STATISTIC_COMPLETED: 4,
  RESULT_PUBLIC: 5,
  DOING: 6,
  EXPIRED: 7,
  SCORING_COMPLETED: 8,
} as const;
export const ScheduleHistoryStatusSchema = v.picklist([0, 1, 2, 3, 4, 5, 6, 7, 8]);

/** Subjects by id (seed section 1). */
export const SubjectId = { ENGLISH: 1, CALCULATION: 2, JAPANESE: 3, VISUAL_PROGRAMMING: 6 } as const;
export const SubjectIdSchema = v.picklist([1, 2, 3, 6]);

// ---------------------------------------------------------------------------
// Login code (seed section 3: three groups of four characters from a restricted alphabet)
// ---------------------------------------------------------------------------

/**
 * The login-code alphabet: digits and upper-case letters without the look-alikes
 * 0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B, U/V. 21 characters, so a code carries 21^12 ≈ 7.4e15 values.
 */
export const LOGIN_CODE_ALPHABET = '34679ACEFGHJKMNPRTWXY';

/**
 * Normalises what a pupil typed: upper case, spaces and hyphens removed, then grouped as
 * XXXX-XXXX-XXXX. Returns undefined when it cannot be a login code.
 */
export function normalizeLoginCode(input: string): string | undefined {
  const compact = input.toUpperCase().replace(/[\s-]/g, '');
  if (compact.length !== 12) return undefined;
  for (const ch of compact) if (!LOGIN_CODE_ALPHABET.includes(ch)) return undefined;
  return `${compact.slice(0, 4)}-${compact.slice(4, 8)}-${compact.slice(8, 12)}`;
}

export const LoginCodeSchema = v.pipe(
  v.string(),
  v.nonEmpty('required'),
  v.check((s) => normalizeLoginCode(s) !== undefined, 'invalid'),
  v.transform((s) => normalizeLoginCode(s) as string),
);

// ---------------------------------------------------------------------------
// Examinee session info (seed section 3), held encoded in browser storage
// ---------------------------------------------------------------------------

const nullableString = v.nullable(v.string());
const nullableNumber = v.nullable(v.number());

/** What the server says about the logged-in examinee; the client adds uuid and the exam flags. */
export const ExamineeInfoSchema = v.object({
  user_key: v.string(),
  test_key: v.string(),
  login_type: LoginTypeSchema,
  examinee_name: v.string(),
  level_id: v.number(),
  subject_id: SubjectIdSchema,
  schedule_code: v.string(),
  org_code: v.string(),
  org_login_method: v.picklist([1, 2, 3]),
  enable_mode_step: v.boolean(),
  org_category: v.picklist(['FOREIGN', 'SCHOOL', 'OUTSIDE_SCHOOL', 'COMPANY', 'OTHER']),
  is_my_page_login: v.boolean(),
  foreign_payment_method: v.boolean(),
  venue_id: nullableNumber,
  grade_id: nullableNumber,
  email: nullableString,
  /** The exam this login is for; null for an examinee login (type 5) until an exam is chosen. */
  schedule_history_id: nullableNumber,
  flag_retake: v.boolean(),
});
export type ExamineeInfo = v.InferOutput<typeof ExamineeInfoSchema>;

/** The full stored session: the server's part plus what the client keeps during the exam. */
export const ExamineeSessionSchema = v.object({
  ...ExamineeInfoSchema.entries,
  token: v.string(),
  /** Generated on this terminal at login. */
  uuid: v.string(),
  question_index: v.number(),
  question_list_flag: v.boolean(),
  /** Questions the pupil flagged for review (exam screen), by id; kept across a reload. */
  flagged_question_ids: v.optional(v.array(v.pipe(v.number(), v.integer()))),
  alphabets_keyboard_flag: v.boolean(),
  mode_upper_case_flag: v.boolean(),
  is_completed: v.boolean(),
  error_code: v.nullable(ErrorCodeSchema),
});
export type ExamineeSession = v.InferOutput<typeof ExamineeSessionSchema>;

// ---------------------------------------------------------------------------
// Calls (seed section 7). Paths are relative to the API base (`/api` by default).
// ---------------------------------------------------------------------------

/** POST /login: login by code (type 0); other login types are added with their issue. */
export const LoginCodeRequestSchema = v.object({
  login_type: v.literal(0),
  login_code: LoginCodeSchema,
});
export type LoginCodeRequest = v.InferInput<typeof LoginCodeRequestSchema>;

/** Every response that depends on time carries the server's clock (ISO 8601, UTC). */
const serverTime = { server_time: v.pipe(v.string(), v.isoTimestamp()) };
const isoTimestamp = v.pipe(v.string(), v.isoTimestamp());

export const LoginResponseSchema = v.object({
  access_token: v.string(),
  examinee: ExamineeInfoSchema,
  ...serverTime,
});
export type LoginResponse = v.InferOutput<typeof LoginResponseSchema>;

/** GET /exam-details?schedule_history_id= */
export const ExamDetailsQuerySchema = v.object({
  schedule_history_id: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/, 'invalid'), v.transform(Number)),
});

export const ExamDetailsSchema = v.object({
  schedule_history_id: v.number(),
  examinee_name: v.string(),
  subject: v.object({ id: SubjectIdSchema, name: v.string() }),
  /** `order`: the level's place in its subject (1, 2, ...), so the screen names it in the pupil's language. */
  level: v.object({ id: v.number(), name: v.string(), order: v.optional(v.number()) }),
  exam: v.object({
    id: v.number(),
    title: v.string(),
    question_count: v.number(),
    time_limit_seconds: v.number(),
  }),
  status: ScheduleHistoryStatusSchema,
  /** Set when Start was pressed (status DOING or later). */
  started_at: v.nullable(isoTimestamp),
  /** started_at + the time limit, fixed by the server. */
  deadline_at: v.nullable(isoTimestamp),
  ...serverTime,
});
export type ExamDetails = v.InferOutput<typeof ExamDetailsSchema>;

/** Body of every call that acts on one schedule history (start, finish). */
export const ScheduleHistoryBodySchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** POST /exam/start: fixes the deadline; pressing it again returns the same deadline. */
export const StartExamResponseSchema = v.object({
  status: ScheduleHistoryStatusSchema,
  started_at: isoTimestamp,
  deadline_at: isoTimestamp,
  ...serverTime,
});
export type StartExamResponse = v.InferOutput<typeof StartExamResponseSchema>;

/**
 * Question types, and how each answer travels as the string `value`:
 * - single_choice: the chosen choice's id;
 * - text: the typed text (trimmed; compared case-insensitively unless the question says not);
 * - number: a number as typed on the keypad, normalised: an optional "-", digits, and either
 *   one "." with digits or one "/" with a non-zero denominator ("-3", "2.5", "3/4");
 * - ordering: the ids of the blocks in the pupil's order, joined with "," ("b3,b1,b2").
 */
export const QuestionTypeSchema = v.picklist(['single_choice', 'text', 'number', 'ordering']);
export type QuestionType = v.InferOutput<typeof QuestionTypeSchema>;

/** How a typed answer is entered (text and number questions). */
export const AnswerInputSchema = v.variant('kind', [
  /** The device's own keyboard. */
  v.object({ kind: v.literal('keyboard') }),
  /** The on-screen alphabet keyboard (seed: alphabets_keyboard_flag), optionally in upper-case mode (mode_upper_case_flag). */
  v.object({ kind: v.literal('alphabet'), upper_case: v.boolean() }),
  /** The on-screen number keypad, with the keys this question allows. */
  v.object({ kind: v.literal('keypad'), negative: v.boolean(), decimal: v.boolean(), fraction: v.boolean() }),
]);
export type AnswerInput = v.InferOutput<typeof AnswerInputSchema>;

/** A Visual Programming block, drawn as SVG (ordering questions). */
export const ProgramBlockSchema = v.object({
  id: v.string(),
  label: v.string(),
  category: v.picklist(['event', 'motion', 'looks', 'sound', 'control']),
});
export type ProgramBlock = v.InferOutput<typeof ProgramBlockSchema>;

/** A question as the browser sees it: never with its correct answer. */
export const QuestionSchema = v.object({
  id: v.number(),
  /** 1-based position in the exam. */
  number: v.number(),
  type: QuestionTypeSchema,
  prompt: v.string(),
  /** Choices of a single-choice question; empty for other types. */
  choices: v.array(v.object({ id: v.string(), label: v.string() })),
  /** The unit of the syllabus the question belongs to (per-unit analysis). */
  unit: v.optional(v.string()),
  /** Prompt and choices contain TeX between \( and \), rendered with KaTeX. */
  math: v.optional(v.boolean()),
  /** How text and number answers are entered; absent: the device keyboard. */
  input: v.optional(v.nullable(AnswerInputSchema)),
  /** Ordering questions: the blocks to arrange, in the order first shown. */
  blocks: v.optional(v.array(ProgramBlockSchema)),
});
export type Question = v.InferOutput<typeof QuestionSchema>;

export const SavedAnswerSchema = v.object({
  question_id: v.number(),
  value: v.string(),
  answered_at: isoTimestamp,
});
export type SavedAnswer = v.InferOutput<typeof SavedAnswerSchema>;

/** GET /exam/questions?schedule_history_id=: only while the exam is DOING. */
export const ExamQuestionsSchema = v.object({
  questions: v.array(QuestionSchema),
  answers: v.array(SavedAnswerSchema),
  deadline_at: isoTimestamp,
  ...serverTime,
});
export type ExamQuestions = v.InferOutput<typeof ExamQuestionsSchema>;

/** POST /exam/answers: one answer, idempotent by its key. */
export const SaveAnswerRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  question_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  value: v.pipe(v.string(), v.maxLength(500, 'invalid')),
  /** Client-made key (uuid); the same key saved twice is one answer. */
  idempotency_key: v.pipe(v.string(), v.uuid('invalid')),
  /** When the pupil gave the answer, on the server's time as the client tracks it. */
  answered_at: isoTimestamp,
});
export type SaveAnswerRequest = v.InferInput<typeof SaveAnswerRequestSchema>;

/**
 * How the server took one answer: saved (it is now the question's answer), duplicate (this key
 * was already held: a resend), superseded (acknowledged, but a later answer to the question,
 * from another window or terminal of the pupil, is held instead: `current_value`).
 */
export const SaveAnswerOutcomeSchema = v.picklist(['saved', 'duplicate', 'superseded']);
export type SaveAnswerOutcome = v.InferOutput<typeof SaveAnswerOutcomeSchema>;

export const SaveAnswerResponseSchema = v.object({
  question_id: v.number(),
  idempotency_key: v.string(),
  outcome: SaveAnswerOutcomeSchema,
  /** The value the server holds for the question; only when the outcome is superseded. */
  current_value: v.optional(v.string()),
  /** The sitting's current deadline (a proctor's extension or a time credit moves it). */
  deadline_at: isoTimestamp,
  ...serverTime,
});
export type SaveAnswerResponse = v.InferOutput<typeof SaveAnswerResponseSchema>;

/** POST /exam/finish: completes the exam; the receipt proves what the server holds. */
export const FinishExamResponseSchema = v.object({
  status: ScheduleHistoryStatusSchema,
  answer_count: v.number(),
  /** SHA-256 (hex) over the saved answers, in question order. */
  digest: v.string(),
  finished_at: isoTimestamp,
  ...serverTime,
});
export type FinishExamResponse = v.InferOutput<typeof FinishExamResponseSchema>;

/** POST /exam/focus-loss: the terminal's running count of focus losses (audit only, never blocking). */
export const FocusLossRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)),
  /** When the latest loss happened, on the server's time as the client tracks it. */
  at: isoTimestamp,
});
export type FocusLossRequest = v.InferInput<typeof FocusLossRequestSchema>;

export const FocusLossResponseSchema = v.object({ ok: v.literal(true), ...serverTime });

/** POST /logout: ends the token on the server. */
export const LogoutResponseSchema = v.object({ ok: v.literal(true) });

/** GET /health: used by the connectivity check. */
export const HealthResponseSchema = v.object({ ok: v.literal(true), ...serverTime });

/** Request headers the client sends on every call (seed section 7). */
export const headerNames = {
  authorization: 'Authorization',
  acceptLanguage: 'Accept-Language',
  locale: 'X-Locale',
  deviceToken: 'X-Device-Token',
} as const;

// ---------------------------------------------------------------------------
// Request headers and the finish receipt (added with the server, issue "one pupil, end to end")
// ---------------------------------------------------------------------------

/** X-Device-Token: an opaque id the terminal makes once (a uuid, say) and keeps. */
export const DeviceTokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~+/=-]{8,200}$/, 'invalid'));

/** X-Locale: a catalog key or a BCP 47 tag (en, en-gb, zh_yue_Hant, ar-nu-arab, yue-Hant-HK). */
export const LocaleHeaderSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,4}$/, 'invalid'),
);

/**
 * The headers of seed section 7 as the server reads them (names lower-cased, as HTTP delivers
 * them). All optional; an empty value counts as absent. A malformed Authorization is simply
 * "not logged in"; a malformed X-Locale or X-Device-Token is a VALIDATION_ERROR.
 */
export const RequestHeadersSchema = v.object({
  authorization: v.optional(v.string()),
  'accept-language': v.optional(v.string()),
  'x-locale': v.optional(LocaleHeaderSchema),
  'x-device-token': v.optional(DeviceTokenSchema),
});

/**
 * The text that FinishExamResponse.digest is the SHA-256 (hex, of its UTF-8 bytes) of: the
 * saved non-empty answers, in question order, as JSON `[[question_id, value], ...]`. A client
 * can recompute it from what it sent to check the receipt.
 */
export function answersDigestText(answers: readonly { question_id: number; value: string }[]): string {
  return JSON.stringify(answers.map((a) => [a.question_id, a.value]));
}

// ---------------------------------------------------------------------------
// Session and login: every way in (issue "Session and login"; seed sections 2, 3, 5, 7, 8)
// ---------------------------------------------------------------------------

const nonEmpty = (max: number) => v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'invalid'));
/** Organisation and schedule codes: letters, digits, hyphen and underscore. */
const CodeSchema = v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'invalid'));
const numericQuery = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/, 'invalid'), v.transform(Number));

/** Organisation categories (seed section 3). */
export const OrgCategorySchema = v.picklist(['FOREIGN', 'SCHOOL', 'OUTSIDE_SCHOOL', 'COMPANY', 'OTHER']);

/** GET /organization?code= : what the login page shows about the school. */
export const OrganizationQuerySchema = v.object({ code: CodeSchema });
export const OrganizationSchema = v.object({
  code: v.string(),
  name: v.string(),
  category: OrgCategorySchema,
  /** 1 schedule history login, 2 OAuth login, 3 examinee login (seed section 3). */
  login_method: v.picklist([1, 2, 3]),
  enable_mode_step: v.boolean(),
  ...serverTime,
});
export type Organization = v.InferOutput<typeof OrganizationSchema>;

/**
 * GET /schedule?schedule_code=&login_type= (with login type 1 also venue_id and org_code):
 * the schedule a login page belongs to. Unknown: 404 INVALID_SCHEDULE.
 */
export const ScheduleQuerySchema = v.object({
  schedule_code: CodeSchema,
  login_type: v.pipe(v.string(), v.regex(/^[0-7]$/, 'invalid'), v.transform(Number)),
  venue_id: v.optional(numericQuery),
  org_code: v.optional(CodeSchema),
});
export const ScheduleSchema = v.object({
  schedule_code: v.string(),
  name: v.string(),
  organization: v.object({ code: v.string(), name: v.string() }),
  venue: v.nullable(v.object({ id: v.number(), name: v.string() })),
  starts_at: isoTimestamp,
  ends_at: isoTimestamp,
  ...serverTime,
});
export type Schedule = v.InferOutput<typeof ScheduleSchema>;

/** POST /login with a login ID and password (login type 1), on a school's or schedule's page. */
export const LoginIdRequestSchema = v.object({
  login_type: v.literal(1),
  login_id: nonEmpty(64),
  password: v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(128, 'invalid')),
  org_code: v.optional(CodeSchema),
  schedule_code: v.optional(CodeSchema),
  venue_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});
export type LoginIdRequest = v.InferInput<typeof LoginIdRequestSchema>;

/** POST /login: by code or by ID. */
export const LoginRequestSchema = v.variant('login_type', [LoginCodeRequestSchema, LoginIdRequestSchema]);
export type LoginRequest = v.InferInput<typeof LoginRequestSchema>;

/** POST /login-examinee (login type 5): an examinee account with its own exam list. */
export const LoginExamineeRequestSchema = v.object({
  login_id: nonEmpty(64),
  password: v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(128, 'invalid')),
  org_code: CodeSchema,
});
export type LoginExamineeRequest = v.InferInput<typeof LoginExamineeRequestSchema>;

/** GET /app-schedule?organization_code= : where the Android app's entry (/app-entry) leads. */
export const AppScheduleQuerySchema = v.object({ organization_code: CodeSchema });
export const AppScheduleSchema = v.object({
  org_code: v.string(),
  organization_name: v.string(),
  /** The organisation's open schedule, when it has one. */
  schedule_code: v.nullable(v.string()),
  ...serverTime,
});
export type AppSchedule = v.InferOutput<typeof AppScheduleSchema>;

/** POST /api_connect/kenya/login-link: the Kenyan partner's token, exchanged for ours. */
export const KenyaLinkRequestSchema = v.object({ token: nonEmpty(4096) });
/** The Kenya-link response, as the seed lists it (section 3). */
export const KenyaLinkResponseSchema = v.object({
  access_token: v.nullable(v.string()),
  language_code: v.nullable(v.string()),
  login_type: v.nullable(LoginTypeSchema),
  /** An SSO error code when the exchange was refused. */
  error: v.nullable(v.string()),
  org_code: v.nullable(v.string()),
  org_step_mode: v.nullable(v.boolean()),
});
export type KenyaLinkResponse = v.InferOutput<typeof KenyaLinkResponseSchema>;

/** The seed's single sign-on error codes (section 8). */
export const ssoErrorCodes = [
  'unknown',
  'invalid_state',
  'invalid_nonce',
  'id_token_notfound',
  'invalid_role',
  'school_notfound',
  'user_notfound',
  'disabled_org',
  'disabled_class',
  'invalid_login_method',
] as const;
export const SsoErrorCodeSchema = v.picklist(ssoErrorCodes);
export type SsoErrorCode = (typeof ssoErrorCodes)[number];

/** GET /sso/oidc/start?school= : generic OpenID Connect sign-in for one school (its organisation code). */
export const OidcStartQuerySchema = v.object({ school: CodeSchema });

/**
 * The query of /oauth (seed section 2, rule 1), where every single sign-on ends: a token, or
 * an error with its code. Values arrive as strings.
 */
export const OauthQuerySchema = v.object({
  accessToken: v.optional(v.string()),
  schoolId: v.optional(v.string()),
  loginType: v.optional(v.string()),
  error: v.optional(v.string()),
  errorCode: v.optional(v.string()),
  orgCode: v.optional(v.string()),
  orgStepMode: v.optional(v.string()),
});
export type OauthQuery = v.InferOutput<typeof OauthQuerySchema>;

/** The query of /oauth-kaigen, /oauth-kaigen-philippine, /oauth-kenya and /oauth-egypt (rules 2, 3). */
export const PartnerEntryQuerySchema = v.object({
  token: v.optional(v.string()),
  language: v.optional(v.string()),
  loginType: v.optional(v.string()),
  orgCode: v.optional(v.string()),
  orgStepMode: v.optional(v.string()),
});
export type PartnerEntryQuery = v.InferOutput<typeof PartnerEntryQuerySchema>;

/** The query of /app-entry (rule 4). */
export const AppEntryQuerySchema = v.object({ organization_code: v.optional(v.string()) });

/** GET /me: who a bearer token belongs to (after a single sign-on, the token is all we have). */
export const MeResponseSchema = v.object({
  access_token: v.string(),
  examinee: ExamineeInfoSchema,
  ...serverTime,
});
export type MeResponse = v.InferOutput<typeof MeResponseSchema>;

/** Grades: 1 to 12, and 99 for "other" (seed section 3). */
export const GradeIdSchema = v.picklist([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 99]);

/** POST /save-examinee-info: basic information, registered once (seed section 5). */
export const SaveExamineeInfoRequestSchema = v.object({
  examinee_name: nonEmpty(100),
  grade_id: GradeIdSchema,
  email: v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.email('invalid'), v.maxLength(254, 'invalid')),
});
export type SaveExamineeInfoRequest = v.InferInput<typeof SaveExamineeInfoRequestSchema>;
export const SaveExamineeInfoResponseSchema = v.object({ examinee: ExamineeInfoSchema, ...serverTime });
export type SaveExamineeInfoResponse = v.InferOutput<typeof SaveExamineeInfoResponseSchema>;

/** Payment status (seed section 4). */
export const PaymentStatusSchema = v.picklist([0, 1, 2]);
/** Result payment status: NOT_PAID 0, PAID_ALL 1, PAID_PART 2 (seed section 4). */
export const ResultPaymentStatusSchema = v.picklist([0, 1, 2]);

/**
 * GET /get-status-choose-page?schedule_history_id= : the id is optional (a login bound to one
 * exam, or the examinee's current exam, is used without it).
 */
export const ChoosePageQuerySchema = v.object({ schedule_history_id: v.optional(numericQuery) });

/** GET /get-status-choose-page: what the testing menu shows (seed section 2, TestingMenu states). */
export const ChoosePageStatusSchema = v.object({
  exam_fee: v.object({
    /** Whether this examinee pays the exam fee online. */
    required: v.boolean(),
    status: PaymentStatusSchema,
  }),
  exam: v.object({
    schedule_history_id: v.nullable(v.number()),
    status: v.nullable(ScheduleHistoryStatusSchema),
    /** The test can be taken now (fee settled, not yet completed, period open). */
    can_take: v.boolean(),
  }),
  result: v.object({
    /** Results are released (one week after the exam, seed section 9). */
    released: v.boolean(),
    payment_status: ResultPaymentStatusSchema,
    /** When the result is (or was) released: one week after the exam; null before the exam is finished. */
    release_at: v.optional(v.nullable(isoTimestamp)),
  }),
  ...serverTime,
});
export type ChoosePageStatus = v.InferOutput<typeof ChoosePageStatusSchema>;

/** One row of GET /exams (columns: level, exam, score, subject, scoring; seed section 2). */
export const ExamListItemSchema = v.object({
  schedule_history_id: v.number(),
  subject: v.object({ id: SubjectIdSchema, name: v.string() }),
  level: v.object({ id: v.number(), name: v.string(), order: v.number() }),
  exam: v.object({ id: v.number(), title: v.string() }),
  status: ScheduleHistoryStatusSchema,
  /** The score once released, else null. */
  score: v.nullable(v.number()),
  /** Scoring state shown in the list. */
  scoring: v.picklist(['not_taken', 'scoring', 'scored']),
  /** Step mode: a later step stays locked until the earlier one is done. */
  locked: v.boolean(),
});
export const ExamListSchema = v.object({ exams: v.array(ExamListItemSchema), ...serverTime });
export type ExamList = v.InferOutput<typeof ExamListSchema>;
export type ExamListItem = v.InferOutput<typeof ExamListItemSchema>;

/** GET /client-config: settings the browser needs that operators change without a rebuild. */
export const ClientConfigSchema = v.object({
  /** Where logout sends partner login types (3 Mumbai, 4 Philippine, 6 Kenya, 7 Egypt). */
  partner_logout_urls: v.record(v.picklist(['3', '4', '6', '7']), v.pipe(v.string(), v.url())),
  /** Origin of the parent window in embedded mode; null: not embedded, post nothing. */
  embed_target_origin: v.nullable(v.pipe(v.string(), v.url())),
  /** Where /api/sso/oidc/start sends a pupil for generic single sign-on; null when not configured. */
  oidc_enabled: v.boolean(),
  ...serverTime,
});
export type ClientConfig = v.InferOutput<typeof ClientConfigSchema>;

// ---------------------------------------------------------------------------
// Results, payments, score report and certificate (issue "Results, payments, score report and
// certificate"; seed sections 2, 3, 4, 7, 9)
// ---------------------------------------------------------------------------

/** Countries or regions (seed section 3). */
export const RegionSchema = v.picklist(['AU', 'CA', 'EG', 'EE', 'HK', 'ID', 'IN', 'JP', 'MM', 'MY', 'PH', 'SG', 'TH', 'TW', 'US', 'VN']);
export type Region = v.InferOutput<typeof RegionSchema>;

/** Payment items (seed section 3). */
export const PaymentKindSchema = v.picklist(['exam_fee', 'result_sheet', 'certificate']);
export type PaymentKind = v.InferOutput<typeof PaymentKindSchema>;
export const ResultItemKindSchema = v.picklist(['result_sheet', 'certificate']);
export type ResultItemKind = v.InferOutput<typeof ResultItemKindSchema>;

/** GET /get-short-result, /score-report/results, /score-report/pdf-report, /get-certificate: which sitting. */
export const ResultQuerySchema = v.object({ schedule_history_id: numericQuery });

const SubjectRefSchema = v.object({ id: SubjectIdSchema, name: v.string() });
const LevelRefSchema = v.object({ id: v.number(), name: v.string(), order: v.number() });
/** A percentage 0 to 100, rounded on the server to one decimal (seed section 3: "one decimal"). */
const PercentSchema = v.pipe(v.number(), v.minValue(0), v.maxValue(100));

/**
 * GET /get-short-result: score, passed or not, correct rate. Refused with RESULT_NOT_RELEASED
 * before one week after the exam and RESULT_VIEW_EXPIRED two years after it (403).
 */
export const ShortResultSchema = v.object({
  schedule_history_id: v.number(),
  subject: SubjectRefSchema,
  level: LevelRefSchema,
  /** When the pupil finished the exam (ISO 8601). */
  exam_date: isoTimestamp,
  score: v.number(),
  max_score: v.number(),
  passed: v.boolean(),
  correct_count: v.number(),
  question_count: v.number(),
  correct_rate: PercentSchema,
  /** Results can be viewed until then (two years after the exam). */
  viewable_until: isoTimestamp,
  ...serverTime,
});
export type ShortResult = v.InferOutput<typeof ShortResultSchema>;

/** Rank at the level: "rank N out of M", or in progress until the statistics are complete. */
export const RankSchema = v.variant('status', [
  v.object({ status: v.literal('complete'), position: v.number(), total: v.number() }),
  v.object({ status: v.literal('in_progress') }),
]);
export type Rank = v.InferOutput<typeof RankSchema>;

/** The rating shown beside the chart: A (90 % and more), B (75 %), C (the pass mark), D (below). */
export const RatingSchema = v.picklist(['A', 'B', 'C', 'D']);
export type Rating = v.InferOutput<typeof RatingSchema>;

/** One unit of the per-unit analysis: this pupil against all examinees and the organisation. */
export const UnitAnalysisSchema = v.object({
  unit: v.string(),
  question_count: v.number(),
  correct_count: v.number(),
  correct_rate: PercentSchema,
  /** Averages over the level's examinees; null until the statistics job has run. */
  average_all: v.nullable(PercentSchema),
  average_organization: v.nullable(PercentSchema),
});
export type UnitAnalysis = v.InferOutput<typeof UnitAnalysisSchema>;

/** One wrong answer shown as an example, with the right answer (only after results are released). */
export const WrongAnswerExampleSchema = v.object({
  question_number: v.number(),
  unit: v.string(),
  type: v.picklist(['single_choice', 'text', 'number', 'ordering']),
  prompt: v.string(),
  math: v.boolean(),
  /** What the pupil answered and the right answer, as display text (choice labels, block labels). */
  given: v.string(),
  correct: v.string(),
});

/**
 * GET /score-report/results: every item of seed section 2 "Score report content". Needs the
 * result sheet paid (PAYMENT_REQUIRED otherwise) and the result released.
 */
export const ScoreReportSchema = v.object({
  schedule_history_id: v.number(),
  examinee: v.object({
    name: v.string(),
    /** Age at the exam date; null when the birth date is not known. */
    age: v.nullable(v.number()),
    grade_id: v.nullable(v.number()),
    region: v.nullable(RegionSchema),
    organization_name: v.string(),
  }),
  exam: v.object({ subject: SubjectRefSchema, level: LevelRefSchema, title: v.string(), exam_date: isoTimestamp }),
  result: v.object({
    score: v.number(),
    max_score: v.number(),
    pass_score: v.number(),
    passed: v.boolean(),
    correct_count: v.number(),
    question_count: v.number(),
    correct_rate: PercentSchema,
    rating: RatingSchema,
  }),
  rank: RankSchema,
  /** The level's score distribution for the chart: how many examinees scored each score. */
  distribution: v.array(v.object({ score: v.number(), count: v.number() })),
  units: v.array(UnitAnalysisSchema),
  wrong_answer_example: v.nullable(WrongAnswerExampleSchema),
  /** The certificate can be downloaded (passed and paid). */
  certificate_available: v.boolean(),
  viewable_until: isoTimestamp,
  ...serverTime,
});
export type ScoreReport = v.InferOutput<typeof ScoreReportSchema>;

/**
 * GET /score-report/pdf-report and GET /get-certificate answer application/pdf (a blob), rendered
 * by Chromium in the language of `locale` (a catalog key; default: the request's X-Locale).
 */
export const DocumentQuerySchema = v.object({
  schedule_history_id: numericQuery,
  locale: v.optional(LocaleHeaderSchema),
});

/** Which payment provider serves the checkout: Adyen, or the clearly labelled demo provider. */
export const PaymentProviderSchema = v.picklist(['adyen', 'demo']);
export type PaymentProvider = v.InferOutput<typeof PaymentProviderSchema>;

/** One line of a payment: quantity, unit price and total in USD minor units (seed section 3). */
export const PaymentLineSchema = v.object({
  kind: PaymentKindSchema,
  quantity: v.number(),
  unit_price_minor: v.number(),
  total_minor: v.number(),
  /** NOT_PAID 0, PENDING 1, PAID 2 for this item. */
  status: PaymentStatusSchema,
  /** The item can be bought now (a certificate only for a passed result). */
  available: v.boolean(),
});
export type PaymentLine = v.InferOutput<typeof PaymentLineSchema>;

/** What the browser needs to open the provider's checkout; null for the demo provider. */
export const AdyenClientSettingsSchema = v.object({
  client_key: v.string(),
  environment: v.picklist(['test', 'live']),
});

const paymentSettingCommon = {
  schedule_history_id: v.number(),
  provider: PaymentProviderSchema,
  currency: v.literal('USD'),
  adyen: v.nullable(AdyenClientSettingsSchema),
  ...serverTime,
};

/** GET /get-setting-payment-for-exam?schedule_history_id= */
export const ExamPaymentSettingSchema = v.object({
  ...paymentSettingCommon,
  items: v.array(PaymentLineSchema),
  /** NOT_PAID 0, PENDING 1, PAID 2 (seed section 4). */
  payment_status: PaymentStatusSchema,
});
export type ExamPaymentSetting = v.InferOutput<typeof ExamPaymentSettingSchema>;

/** GET /get-setting-payment-for-result?schedule_history_id= */
export const ResultPaymentSettingSchema = v.object({
  ...paymentSettingCommon,
  items: v.array(PaymentLineSchema),
  /** NOT_PAID 0, PAID_ALL 1, PAID_PART 2 (seed section 4). */
  result_payment_status: ResultPaymentStatusSchema,
});
export type ResultPaymentSetting = v.InferOutput<typeof ResultPaymentSettingSchema>;

/** Terms must be read and agreed before paying (seed section 5): the server checks it too. */
const TermsAcceptedSchema = v.literal(true, 'required');
/**
 * Where Adyen sends the shopper back after a redirect payment method (our own origin). The
 * server adds `reference` (the checkout) to it; Adyen adds `sessionId` and `redirectResult`.
 */
const ReturnUrlSchema = v.pipe(v.string(), v.url('invalid'), v.maxLength(1000, 'invalid'));

/** POST /payment/adyen/sessions/exam-fee */
export const ExamFeeSessionRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  terms_accepted: TermsAcceptedSchema,
  return_url: ReturnUrlSchema,
});
export type ExamFeeSessionRequest = v.InferInput<typeof ExamFeeSessionRequestSchema>;

/** POST /payment/adyen/sessions/result-fee: the items the user ticked (at least one, each once). */
export const ResultFeeSessionRequestSchema = v.object({
  schedule_history_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  items: v.pipe(
    v.array(ResultItemKindSchema),
    v.minLength(1, 'required'),
    v.check((items) => new Set(items).size === items.length, 'invalid'),
  ),
  terms_accepted: TermsAcceptedSchema,
  return_url: ReturnUrlSchema,
});
export type ResultFeeSessionRequest = v.InferInput<typeof ResultFeeSessionRequestSchema>;

/**
 * The checkout both session calls answer (201 new, 200 when an open checkout for the same items
 * is resumed: two tabs or a double click share one checkout and one charge).
 */
export const PaymentSessionSchema = v.object({
  /** Our merchant reference: the key of GET /payment/status and of the demo provider. */
  reference: v.string(),
  provider: PaymentProviderSchema,
  currency: v.literal('USD'),
  amount_minor: v.number(),
  items: v.array(PaymentLineSchema),
  /** Adyen Drop-in's session (id and sessionData); null for the demo provider. */
  adyen_session: v.nullable(v.object({ id: v.string(), session_data: v.string() })),
  expires_at: isoTimestamp,
  ...serverTime,
});
export type PaymentSession = v.InferOutput<typeof PaymentSessionSchema>;

/** What became of a checkout, as the browser is told (seed messages: canceled, refused, unknown error). */
export const PaymentOutcomeSchema = v.picklist(['open', 'authorised', 'paid', 'refused', 'cancelled', 'error', 'expired']);
export type PaymentOutcome = v.InferOutput<typeof PaymentOutcomeSchema>;

/** GET /payment/status?reference= */
export const PaymentStatusQuerySchema = v.object({ reference: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,80}$/, 'invalid')) });
export const PaymentStatusResponseSchema = v.object({
  reference: v.string(),
  /** NOT_PAID 0, PENDING 1 (opened, not completed), PAID 2. */
  status: PaymentStatusSchema,
  outcome: PaymentOutcomeSchema,
  /** The items the checkout pays for (a payment screen reopened after a redirect shows them once paid). */
  kinds: v.array(PaymentKindSchema),
  ...serverTime,
});
export type PaymentStatusResponse = v.InferOutput<typeof PaymentStatusResponseSchema>;

/**
 * The query of a payment screen (/pay-exam-fee, /pay-exam-result) the provider's redirect
 * returns to: the sitting (from the browser's return_url), our checkout reference (added by the
 * server) and, from Adyen, the session id and the redirect result to hand back to it.
 */
export const PaymentReturnQuerySchema = v.object({
  schedule_history_id: numericQuery,
  reference: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,80}$/, 'invalid')),
  sessionId: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,200}$/, 'invalid'))),
  // Adyen's redirectResult is an opaque, URL-safe string that can be long.
  redirectResult: v.optional(v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(20_000, 'invalid'))),
});
export type PaymentReturnQuery = v.InferOutput<typeof PaymentReturnQuerySchema>;

/**
 * POST /payment/demo/complete: the demo provider's "card" (only when no Adyen key is set; 404
 * otherwise). The tester picks the outcome; the answer is the checkout's new status.
 */
export const DemoPaymentCompleteRequestSchema = v.object({
  reference: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,80}$/, 'invalid')),
  outcome: v.picklist(['authorised', 'refused', 'cancelled']),
});
export type DemoPaymentCompleteRequest = v.InferOutput<typeof DemoPaymentCompleteRequestSchema>;
