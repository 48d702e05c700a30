/**
 * Session and login: the login code, the examinee session held in browser storage, every way in (login code, login ID, examinee login, partner and OAuth entries), basic information and the client configuration (seed sections 2, 3, 5, 7, 8).
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';
import { isoTimestamp, serverTime } from './common.ts';
import { LoginTypeSchema, ScheduleHistoryStatusSchema, SubjectIdSchema } from './enums.ts';
import { ErrorCodeSchema } from './errors.ts';

/**
 * The login-code alphabet: digits and upper-case letters without the look-alikes
 * 0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B, U/V. 21 characters, so a code carries 21^12 ≈ 7.4e15 values.
 */
export const LOGIN_CODE_ALPHABET = '34679ACEFGHJKMNPRTWXY';

/**
 * What a pupil meant by what they typed, for codes and IDs: a Japanese, Chinese or Korean
 * keyboard left in full-width mode types `ＧＭ４７－ＷＣＷＪ` or `ｒａｖｉ．ｐａｔｅｌ`, the same keys
 * with other code points. Full-width ASCII (U+FF01 to U+FF5E) and the ideographic space become
 * their ASCII forms; nothing else changes (no case folding, no other compatibility mapping).
 */
export function halfWidth(raw: string): string {
  return raw.replace(/[\uFF01-\uFF5E\u3000]/g, (ch) => (ch === '\u3000' ? ' ' : String.fromCharCode(ch.charCodeAt(0) - 0xfee0)));
}

/**
 * Dashes a pupil may type between a login code's groups: the hyphen-minus, the Unicode hyphens
 * and dashes, the minus sign, and the katakana prolonged sound mark a Japanese keyboard gives
 * for the "-" key.
 */
const CODE_SEPARATORS = /[\s\-\u2010-\u2015\u2212\u30FC]/g;

/**
 * Normalises what a pupil typed: full width to ASCII, upper case, spaces and dashes removed, then
 * grouped as XXXX-XXXX-XXXX. Returns undefined when it cannot be a login code.
 */
export function normalizeLoginCode(input: string): string | undefined {
  const compact = halfWidth(input).toUpperCase().replace(CODE_SEPARATORS, '');
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
  /** The pupil confirmed Finish (or time ran out) and the server has not finished yet: a reload resumes finishing (exam.machine.ts). */
  finish_pending: v.optional(v.boolean()),
  /**
   * A proctor moved the pupil away from this terminal while the exam ran here: a reload goes to
   * the moved-away end screen (sending what the outbox holds), never back to answering, online or
   * not. Its value: the answers given here the server refused for good so far.
   */
  moved_away_refused: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

export type ExamineeSession = v.InferOutput<typeof ExamineeSessionSchema>;

/** POST /login: login by code (type 0); other login types are added with their issue. */
export const LoginCodeRequestSchema = v.object({
  login_type: v.literal(0),
  login_code: LoginCodeSchema,
});

export type LoginCodeRequest = v.InferInput<typeof LoginCodeRequestSchema>;

export const LoginResponseSchema = v.object({
  access_token: v.string(),
  examinee: ExamineeInfoSchema,
  ...serverTime,
});

export type LoginResponse = v.InferOutput<typeof LoginResponseSchema>;

/** POST /logout: ends the token on the server. */
export const LogoutResponseSchema = v.object({ ok: v.literal(true) });

const nonEmpty = (max: number) => v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'invalid'));

/** The longest value a pupil may type in each field; longer is refused as 'invalid' (a form stops typing there). */
export const fieldMaxLength = { login_id: 64, password: 128, examinee_name: 100, email: 254 } as const;

const passwordSchema = v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(fieldMaxLength.password, 'invalid'));

/** Organisation and schedule codes: letters, digits, hyphen and underscore. */
const CodeSchema = v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'invalid'));

export const numericQuery = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/, 'invalid'), v.transform(Number));

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
  login_id: nonEmpty(fieldMaxLength.login_id),
  password: passwordSchema,
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
  login_id: nonEmpty(fieldMaxLength.login_id),
  password: passwordSchema,
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

/** A page's query (the address the browser opened): each named key optional, every value a string. */
export function pageQuery<K extends string>(...keys: K[]) {
  return v.object(Object.fromEntries(keys.map((key) => [key, v.optional(v.string())])) as Record<K, v.OptionalSchema<v.StringSchema<undefined>, undefined>>);
}

/**
 * The query of /oauth (seed section 2, rule 1), where every single sign-on ends: a token, or
 * an error with its code.
 */
export const OauthQuerySchema = pageQuery('accessToken', 'schoolId', 'loginType', 'error', 'errorCode', 'orgCode', 'orgStepMode');

export type OauthQuery = v.InferOutput<typeof OauthQuerySchema>;

/** The query of /oauth-kaigen, /oauth-kaigen-philippine, /oauth-kenya and /oauth-egypt (rules 2, 3). */
export const PartnerEntryQuerySchema = pageQuery('token', 'language', 'loginType', 'orgCode', 'orgStepMode');

export type PartnerEntryQuery = v.InferOutput<typeof PartnerEntryQuerySchema>;

/** The query of /app-entry (rule 4). */
export const AppEntryQuerySchema = pageQuery('organization_code');

/** GET /me: who a bearer token belongs to (after a single sign-on, the token is all we have). */
export const MeResponseSchema = v.object({
  access_token: v.string(),
  examinee: ExamineeInfoSchema,
  ...serverTime,
});

export type MeResponse = v.InferOutput<typeof MeResponseSchema>;

/** The grade of a pupil whose grade is other or unknown (seed sections 3 and 9: "unknown grade value: 99"). */
export const OTHER_GRADE = 99;

/** Grades: 1 to 12, then 99 for "other" (seed section 3), in the order a form offers them. */
export const gradeIds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, OTHER_GRADE] as const;

export const GradeIdSchema = v.picklist(gradeIds);

/** POST /save-examinee-info: basic information, registered once (seed section 5). */
export const SaveExamineeInfoRequestSchema = v.object({
  examinee_name: nonEmpty(fieldMaxLength.examinee_name),
  grade_id: GradeIdSchema,
  email: v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.email('invalid'), v.maxLength(fieldMaxLength.email, 'invalid')),
});

export type SaveExamineeInfoRequest = v.InferInput<typeof SaveExamineeInfoRequestSchema>;

export const SaveExamineeInfoResponseSchema = v.object({ examinee: ExamineeInfoSchema, ...serverTime });

export type SaveExamineeInfoResponse = v.InferOutput<typeof SaveExamineeInfoResponseSchema>;

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
