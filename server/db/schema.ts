/**
 * The database schema (Drizzle, PostgreSQL dialect): the one source of the tables that both
 * PGlite and PostgreSQL run, and from which `npm run db:generate` writes the migrations.
 *
 * Promises:
 * - Correct answers live only in `questions.correct_answer`; nothing that reads a question for
 *   the browser selects that column (server/domain/views.ts, questionViewColumns).
 * - One answer row per (schedule history, question); the latest `answered_at` wins.
 * - Auth tokens are stored as SHA-256 hashes, never in clear.
 * - Enumerations from the seed are plain columns with CHECK constraints, so later issues can
 *   widen them with an ordinary migration.
 *
 * Self-contained on purpose (imports only drizzle-orm): drizzle-kit loads this file on its own.
 */
import { sql } from 'drizzle-orm';
import { auditActions } from '../../contract/admin.ts';
import {
  bigint,
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const timestampTz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** A required reference to another table's id. */
const requiredRef = (name: string, target: () => AnyPgColumn) => integer(name).notNull().references(target);

/** Organisation categories (seed section 3). */
export const organizationCategories = ['FOREIGN', 'SCHOOL', 'OUTSIDE_SCHOOL', 'COMPANY', 'OTHER'] as const;
export type OrganizationCategory = (typeof organizationCategories)[number];

/** Countries or regions (seed section 3, "Regions"). */
export const regions = ['AU', 'CA', 'EG', 'EE', 'HK', 'ID', 'IN', 'JP', 'MM', 'MY', 'PH', 'SG', 'TH', 'TW', 'US', 'VN'] as const;
export type Region = (typeof regions)[number];
const regionCheck = (column: unknown) => sql`${column} is null or ${column} in ('AU', 'CA', 'EG', 'EE', 'HK', 'ID', 'IN', 'JP', 'MM', 'MY', 'PH', 'SG', 'TH', 'TW', 'US', 'VN')`;

/** A school or other body that runs exams. Login method: 1 schedule history, 2 OAuth, 3 examinee login. */
export const organizations = pgTable(
  'organizations',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    category: text('category', { enum: organizationCategories }).notNull(),
    loginMethod: smallint('login_method').notNull(),
    enableModeStep: boolean('enable_mode_step').notNull().default(false),
    /** Pays its fees through the foreign payment flow (seed: "foreign payment users"). */
    foreignPaymentMethod: boolean('foreign_payment_method').notNull().default(false),
    disabled: boolean('disabled').notNull().default(false),
    /** Country or region shown on score reports when the venue has none. */
    region: text('region', { enum: regions }),
    /**
     * Display flag of the pupils' ranking (seed section 3, "Display flags: 1 display, 3 hide"):
     * 3, the score report (screen and PDF) is sent without the rank at the level.
     */
    rankDisplayFlag: smallint('rank_display_flag').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    check('organizations_region_check', regionCheck(t.region)),
    check('organizations_rank_display_flag_check', sql`${t.rankDisplayFlag} in (1, 3)`),
    check('organizations_category_check', sql`${t.category} in ('FOREIGN', 'SCHOOL', 'OUTSIDE_SCHOOL', 'COMPANY', 'OTHER')`),
    check('organizations_login_method_check', sql`${t.loginMethod} in (1, 2, 3)`),
    // A code in any case (server/domain/lookups.ts `byCode`): its fallback asks lower(code).
    index('organizations_code_lower_idx').on(sql`lower(${t.code})`),
  ],
);

/** A venue (classroom) of an organisation; disabling it blocks its examinees (seed section 6). */
export const venues = pgTable(
  'venues',
  {
    id: serial('id').primaryKey(),
    organizationId: requiredRef('organization_id', () => organizations.id),
    name: text('name').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    /** Country or region of the venue (the score report's "venue region"); null: the organisation's. */
    region: text('region', { enum: regions }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('venues_organization_name_idx').on(t.organizationId, t.name), check('venues_region_check', regionCheck(t.region))],
);

/** A test period of an organisation, optionally in one venue. */
export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    scheduleCode: text('schedule_code').notNull().unique(),
    organizationId: requiredRef('organization_id', () => organizations.id),
    venueId: integer('venue_id').references(() => venues.id),
    /** What the login page shows; empty: the schedule code is shown. */
    name: text('name').notNull().default(''),
    startsAt: timestampTz('starts_at').notNull(),
    endsAt: timestampTz('ends_at').notNull(),
    /** A window inside the period when the schedule is suspended (SCHEDULE_SUSPENSION_TIME). */
    suspendedFrom: timestampTz('suspended_from'),
    suspendedUntil: timestampTz('suspended_until'),
    /**
     * Personal or group mode (seed section 3): 1 personal, the pupil applies and pays the exam
     * fee online (my-page and foreign-payment pupils); 2 group, the school applied for its pupils
     * and settled the fee, so nobody of this test period is asked for it.
     */
    applicationMode: smallint('application_mode').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    check('schedules_window_check', sql`${t.endsAt} > ${t.startsAt}`),
    check('schedules_application_mode_check', sql`${t.applicationMode} in (1, 2)`),
    check(
      'schedules_suspension_check',
      sql`(${t.suspendedFrom} is null) = (${t.suspendedUntil} is null) and (${t.suspendedFrom} is null or ${t.suspendedUntil} > ${t.suspendedFrom})`,
    ),
    // A schedule code in any case (server/domain/lookups.ts `byCode`): its fallback asks lower(schedule_code).
    index('schedules_schedule_code_lower_idx').on(sql`lower(${t.scheduleCode})`),
  ],
);

/**
 * The exams of a test period, each a fixed version: pupils imported into the test period get one
 * sitting per exam. A newer version of an exam is used by test periods created after it.
 */
export const scheduleExams = pgTable(
  'schedule_exams',
  {
    scheduleId: requiredRef('schedule_id', () => schedules.id),
    examId: requiredRef('exam_id', () => exams.id),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.examId] })],
);

/** Subjects by the seed's ids (section 1): 1, 2, 3, 6. */
export const subjects = pgTable(
  'subjects',
  {
    id: smallint('id').primaryKey(),
    name: text('name').notNull(),
  },
  (t) => [check('subjects_id_check', sql`${t.id} in (1, 2, 3, 6)`)],
);

/** A level of a subject; `position` orders them (level 1, 2, ...). */
export const levels = pgTable(
  'levels',
  {
    id: serial('id').primaryKey(),
    subjectId: smallint('subject_id')
      .notNull()
      .references(() => subjects.id),
    position: smallint('position').notNull(),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('levels_subject_position_idx').on(t.subjectId, t.position)],
);

/** One exam paper of a level. `code` is its stable natural key (used by the idempotent seed). */
export const exams = pgTable(
  'exams',
  {
    id: serial('id').primaryKey(),
    /** The exam's natural key; with `version`, one row per imported version. */
    code: text('code').notNull(),
    /**
     * 1, 2, ...: an exam a pupil has started is never changed in place; importing changed content
     * again adds the next version, which test periods created afterwards use.
     */
    version: integer('version').notNull().default(1),
    levelId: requiredRef('level_id', () => levels.id),
    title: text('title').notNull(),
    /** The title in other interface languages, by catalog key (`ja`, `ar`...); `title` otherwise. */
    titles: jsonb('titles').$type<Record<string, string>>().notNull().default({}),
    /** SHA-256 of the imported content (server/imports/exams): the same file imported again changes nothing. */
    contentDigest: text('content_digest'),
    /** 40 minutes (seed section 9). */
    timeLimitSeconds: integer('time_limit_seconds').notNull().default(2400),
    /** The share of the maximum score needed to pass, in percent. */
    passPercent: smallint('pass_percent').notNull().default(60),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('exams_code_version_idx').on(t.code, t.version),
    check('exams_version_check', sql`${t.version} > 0`),
    index('exams_level_idx').on(t.levelId),
    check('exams_time_limit_check', sql`${t.timeLimitSeconds} > 0`),
    check('exams_pass_percent_check', sql`${t.passPercent} between 1 and 100`),
  ],
);

export const questionTypes = ['single_choice', 'text', 'number', 'ordering'] as const;
export type QuestionChoice = { id: string; label: string };
/** How a text or number answer is entered (the contract's AnswerInput). */
export type QuestionInput =
  | { kind: 'keyboard' }
  | { kind: 'alphabet'; upper_case: boolean }
  | { kind: 'keypad'; negative: boolean; decimal: boolean; fraction: boolean };
/** A Visual Programming block of an ordering question (the contract's ProgramBlock). */
export type QuestionBlock = { id: string; label: string; category: 'event' | 'motion' | 'looks' | 'sound' | 'control' };

/** A question of an exam. `correct_answer` never leaves the server. */
export const questions = pgTable(
  'questions',
  {
    id: serial('id').primaryKey(),
    examId: requiredRef('exam_id', () => exams.id),
    /** 1-based position in the exam. */
    number: smallint('number').notNull(),
    type: text('type', { enum: questionTypes }).notNull(),
    prompt: text('prompt').notNull(),
    choices: jsonb('choices').$type<QuestionChoice[]>().notNull().default([]),
    /**
     * In the contract's answer encoding: a choice id (single_choice), the expected text (text),
     * a normalised number such as "-3", "2.5" or "3/4" (number), the block ids in the right
     * order joined with "," (ordering). Scored by server/domain/scoring.ts.
     */
    correctAnswer: text('correct_answer').notNull(),
    /** The unit the question belongs to, for the score report's per-unit analysis (seed section 2). */
    unit: text('unit').notNull(),
    /** Prompt and choices contain TeX between \( and \) (rendered with KaTeX). */
    math: boolean('math').notNull().default(false),
    /** How a text or number answer is entered; null: the device keyboard. */
    input: jsonb('input').$type<QuestionInput>(),
    /** Ordering questions: the blocks in the order first shown; empty for other types. */
    blocks: jsonb('blocks').$type<QuestionBlock[]>().notNull().default([]),
    /** Text questions: compare the text case-sensitively (default: case-insensitively). */
    caseSensitive: boolean('case_sensitive').notNull().default(false),
  },
  (t) => [
    uniqueIndex('questions_exam_number_idx').on(t.examId, t.number),
    check('questions_type_check', sql`${t.type} in ('single_choice', 'text', 'number', 'ordering')`),
    check('questions_number_check', sql`${t.number} > 0`),
  ],
);

/**
 * A pupil. Every pupil has a login code; some also a login ID with a password (login type 1, or
 * 5 for an examinee account of an organisation with login method 3). Passwords are stored as
 * salted scrypt hashes (server/domain/passwords.ts). Failed password logins are counted here,
 * so every API process sees the same count and lock (ACCOUNT_LOCKED, seed section 9).
 */
export const examinees = pgTable(
  'examinees',
  {
    id: serial('id').primaryKey(),
    organizationId: requiredRef('organization_id', () => organizations.id),
    name: text('name').notNull(),
    /** 1 to 12, or 99 for other (seed section 3). */
    gradeId: smallint('grade_id'),
    email: text('email'),
    /** For the score report's age (at the exam date); null: not known, the report shows none. */
    birthDate: date('birth_date', { mode: 'string' }),
    /** Normalised form XXXX-XXXX-XXXX (contract's normalizeLoginCode). */
    loginCode: text('login_code').notNull().unique(),
    loginId: text('login_id').unique(),
    passwordHash: text('password_hash'),
    isMyPageLogin: boolean('is_my_page_login').notNull().default(false),
    disabled: boolean('disabled').notNull().default(false),
    /** Wrong passwords in a row since the last correct one or the last lock. */
    failedLoginCount: integer('failed_login_count').notNull().default(0),
    /** Password logins are refused until then (ACCOUNT_LOCKED). */
    lockedUntil: timestampTz('locked_until'),
    /** When the pupil registered their basic information; it cannot change afterwards (seed section 5). */
    basicInfoRegisteredAt: timestampTz('basic_info_registered_at'),
    /** The school's own id of the pupil (the roster CSV's key); unique within the organisation. */
    externalId: text('external_id'),
    /** The pupil's class as the school names it ("6B"), printed on the login slip. */
    className: text('class_name').notNull().default(''),
    /** The classroom (venue) the pupil sits in; null: none assigned. */
    venueId: integer('venue_id').references(() => venues.id),
    /** The pupil's language (a catalog key), for the login slip; null: English. */
    locale: text('locale'),
    createdAt: createdAt(),
  },
  (t) => [
    index('examinees_organization_idx').on(t.organizationId),
    uniqueIndex('examinees_organization_external_idx').on(t.organizationId, t.externalId),
    index('examinees_venue_idx').on(t.venueId),
    check('examinees_grade_check', sql`${t.gradeId} is null or ${t.gradeId} between 1 and 12 or ${t.gradeId} = 99`),
    check('examinees_failed_login_count_check', sql`${t.failedLoginCount} >= 0`),
  ],
);

/**
 * One examinee's sitting of one exam in one schedule. Status is the seed's schedule history
 * status (section 4): PENDING 0, COMPLETED 1, CANCELED_PENDING 2, CANCELED_COMPLETED 3,
 * STATISTIC_COMPLETED 4, RESULT_PUBLIC 5, DOING 6, EXPIRED 7, SCORING_COMPLETED 8.
 */
export const scheduleHistories = pgTable(
  'schedule_histories',
  {
    id: serial('id').primaryKey(),
    examineeId: requiredRef('examinee_id', () => examinees.id),
    scheduleId: requiredRef('schedule_id', () => schedules.id),
    examId: requiredRef('exam_id', () => exams.id),
    status: smallint('status').notNull().default(0),
    /** Opaque keys the client keeps in its session info (seed section 3). */
    userKey: text('user_key').notNull().unique(),
    testKey: text('test_key').notNull().unique(),
    startedAt: timestampTz('started_at'),
    /** started_at + the exam's time limit, fixed at Start on the server's clock. */
    deadlineAt: timestampTz('deadline_at'),
    finishedAt: timestampTz('finished_at'),
    /** The X-Device-Token of the terminal that pressed Start. */
    deviceToken: text('device_token'),
    /** The interface locale at Start (X-Locale, else Accept-Language), for later documents. */
    locale: text('locale'),
    flagRetake: boolean('flag_retake').notNull().default(false),
    /** The finish receipt, kept so that a repeated Finish answers the same. */
    answerCount: integer('answer_count'),
    answersDigest: text('answers_digest'),
    /** The last call the pupil's terminal made for this sitting (heartbeat or any exam call): the proctor roster's "last contact". */
    lastContactAt: timestampTz('last_contact_at'),
    /** The 0-based question on screen at the last heartbeat. */
    questionIndex: smallint('question_index'),
    /** Seconds of time given so far: proctors' extensions (from the later of the deadline and now) and automatic outage/maintenance credits. */
    extraSeconds: integer('extra_seconds').notNull().default(0),
    /**
     * A proctor moved the pupil to another terminal: device_token was released then, and the next
     * Start (or heartbeat) with a device token binds that terminal and clears this.
     */
    deviceReleasedAt: timestampTz('device_released_at'),
    /** Answers the pupil's terminal said, at its last heartbeat, it holds and the server does not yet (its outbox). */
    waitingAnswers: integer('waiting_answers').notNull().default(0),
    /**
     * The last login refused because the sitting runs on another terminal (the pupil stands at a
     * second one): the proctor's roster shows it until a move, which clears it.
     */
    refusedElsewhereAt: timestampTz('refused_elsewhere_at'),
    /**
     * The transaction (its xid8, as a number) that last changed what the proctor's roster shows of
     * this sitting: set by the trigger `schedule_histories_roster_version` (migration 0013) on an
     * insert and on an update of a column the roster shows, never on a contact-only update (a
     * heartbeat or save within 20 s of the last contact); the roster's cursor reads it
     * (server/domain/roster.ts `changedSince`).
     */
    rosterVersion: bigint('roster_version', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('schedule_histories_examinee_idx').on(t.examineeId),
    index('schedule_histories_schedule_idx').on(t.scheduleId),
    check('schedule_histories_status_check', sql`${t.status} between 0 and 8`),
    check('schedule_histories_extra_seconds_check', sql`${t.extraSeconds} >= 0`),
  ],
);

/** The latest answer of a schedule history to one question. */
export const answers = pgTable(
  'answers',
  {
    id: serial('id').primaryKey(),
    scheduleHistoryId: requiredRef('schedule_history_id', () => scheduleHistories.id),
    questionId: requiredRef('question_id', () => questions.id),
    value: text('value').notNull(),
    /** When the pupil answered, as the client reports it on the server's time. */
    answeredAt: timestampTz('answered_at').notNull(),
    /** When the server stored it. */
    receivedAt: timestampTz('received_at').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** Answered before the deadline but received after it (accepted within the upload window). */
    late: boolean('late').notNull().default(false),
  },
  (t) => [uniqueIndex('answers_schedule_history_question_idx').on(t.scheduleHistoryId, t.questionId)],
);

/**
 * A terminal a proctor moved a pupil away from (server/domain/proctor.ts, moveTerminal): its
 * X-Device-Token and when. That terminal may still deliver the answers it holds that were given
 * before `moved_at` (server/domain/answers/), for this sitting only; nothing given later.
 */
export const deviceMoves = pgTable(
  'device_moves',
  {
    scheduleHistoryId: requiredRef('schedule_history_id', () => scheduleHistories.id),
    deviceToken: text('device_token').notNull(),
    movedAt: timestampTz('moved_at').notNull(),
  },
  (t) => [primaryKey({ name: 'device_moves_pkey', columns: [t.scheduleHistoryId, t.deviceToken] })],
);

/**
 * Answers detached from a schedule history by an administrator's reset (retake): kept for audit,
 * never read by the exam again. Keyed by (sitting, reset, question), with no sequence behind it:
 * the n-th reset of a sitting archives at most one answer per question, so a pupil can be reset
 * any number of times (a serial key would collide once its sequence fell behind the rows).
 */
export const answerArchive = pgTable(
  'answer_archive',
  {
    scheduleHistoryId: requiredRef('schedule_history_id', () => scheduleHistories.id),
    questionId: requiredRef('question_id', () => questions.id),
    value: text('value').notNull(),
    answeredAt: timestampTz('answered_at').notNull(),
    receivedAt: timestampTz('received_at').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    late: boolean('late').notNull(),
    /** When the reset detached it. */
    supersededAt: timestampTz('superseded_at').notNull(),
    /**
     * Which reset of the sitting archived it (1, 2, ...: one more than the sitting's highest so far,
     * taken under the sitting's row lock). Rows archived before migration 0006 are numbered per question.
     */
    resetNumber: integer('reset_number').notNull(),
  },
  (t) => [
    primaryKey({ name: 'answer_archive_pkey', columns: [t.scheduleHistoryId, t.resetNumber, t.questionId] }),
    index('answer_archive_schedule_history_idx').on(t.scheduleHistoryId),
    check('answer_archive_reset_number_check', sql`${t.resetNumber} >= 1`),
  ],
);

/** Focus losses (window blur, hidden tab) a terminal reported during an exam: audit only, never blocking. */
export const focusLosses = pgTable(
  'focus_losses',
  {
    id: serial('id').primaryKey(),
    scheduleHistoryId: requiredRef('schedule_history_id', () => scheduleHistories.id),
    /** The terminal's running count of focus losses in this exam. */
    count: integer('count').notNull(),
    /** When the last loss happened, as the client reports it. */
    at: timestampTz('at').notNull(),
    receivedAt: timestampTz('received_at').notNull(),
    deviceToken: text('device_token'),
  },
  (t) => [index('focus_losses_schedule_history_idx').on(t.scheduleHistoryId)],
);

/** What can be bought for a schedule history (seed section 3, "Payment items"). */
export const paymentKinds = ['exam_fee', 'result_sheet', 'certificate'] as const;
export type PaymentKind = (typeof paymentKinds)[number];
/** A checkout pays either the exam fee or result items (result sheet and/or certificate). */
export const paymentPurposes = ['exam_fee', 'result_fee'] as const;
/** How a checkout ended, as far as we know; `open` until the provider tells. */
export const paymentOutcomes = ['open', 'authorised', 'refused', 'cancelled', 'error', 'expired'] as const;
export type PaymentOutcome = (typeof paymentOutcomes)[number];

/**
 * One checkout with a payment provider (Adyen, or the demo provider): a session for one or more
 * items of one schedule history. Status: NOT_PAID 0 (open, refused, cancelled, error, expired),
 * PENDING 1 (authorised by the shopper, the provider's confirmation outstanding), PAID 2 (seed
 * section 4). `reference` is our merchant reference, the key the provider's webhooks carry.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    reference: text('reference').notNull().unique(),
    scheduleHistoryId: requiredRef('schedule_history_id', () => scheduleHistories.id),
    purpose: text('purpose', { enum: paymentPurposes }).notNull(),
    status: smallint('status').notNull().default(0),
    outcome: text('outcome', { enum: paymentOutcomes }).notNull().default('open'),
    /** USD minor units (cents): the sum of the items. */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull().default('USD'),
    provider: text('provider').notNull(),
    /** The provider's session id and data (Adyen sessions), so a second tab can resume the same checkout. */
    providerSessionId: text('provider_session_id'),
    providerSessionData: text('provider_session_data'),
    /** The provider's reference of the authorisation (Adyen pspReference). */
    pspReference: text('psp_reference').unique(),
    /** An open checkout is abandoned after this; a new one may then be made for the same items. */
    expiresAt: timestampTz('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: timestampTz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('payments_schedule_history_idx').on(t.scheduleHistoryId),
    check('payments_purpose_check', sql`${t.purpose} in ('exam_fee', 'result_fee')`),
    check('payments_status_check', sql`${t.status} in (0, 1, 2)`),
    check('payments_outcome_check', sql`${t.outcome} in ('open', 'authorised', 'refused', 'cancelled', 'error', 'expired')`),
    check('payments_amount_check', sql`${t.amountMinor} >= 0`),
  ],
);

/** The items of a checkout: quantity, unit price and total (seed section 3). */
export const paymentItems = pgTable(
  'payment_items',
  {
    id: serial('id').primaryKey(),
    paymentId: requiredRef('payment_id', () => payments.id),
    kind: text('kind', { enum: paymentKinds }).notNull(),
    quantity: integer('quantity').notNull().default(1),
    unitPriceMinor: integer('unit_price_minor').notNull(),
    totalMinor: integer('total_minor').notNull(),
  },
  (t) => [
    uniqueIndex('payment_items_payment_kind_idx').on(t.paymentId, t.kind),
    check('payment_items_kind_check', sql`${t.kind} in ('exam_fee', 'result_sheet', 'certificate')`),
    check('payment_items_quantity_check', sql`${t.quantity} > 0`),
    check('payment_items_total_check', sql`${t.totalMinor} = ${t.unitPriceMinor} * ${t.quantity}`),
  ],
);

/**
 * What a schedule history owns: one row per paid item, ever. The primary key is the promise
 * that a paid item is granted once; a second payment for the same item (two tabs that both
 * got through) is recorded on its checkout for a refund, never granted twice.
 */
export const purchases = pgTable(
  'purchases',
  {
    scheduleHistoryId: requiredRef('schedule_history_id', () => scheduleHistories.id),
    kind: text('kind', { enum: paymentKinds }).notNull(),
    paymentId: requiredRef('payment_id', () => payments.id),
    paidAt: timestampTz('paid_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleHistoryId, t.kind] })],
);

/** Every provider notification we accepted, once (Adyen: pspReference + eventCode). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    pspReference: text('psp_reference').notNull(),
    eventCode: text('event_code').notNull(),
    merchantReference: text('merchant_reference').notNull(),
    success: boolean('success').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestampTz('received_at').notNull(),
  },
  (t) => [uniqueIndex('payment_events_once_idx').on(t.provider, t.pspReference, t.eventCode)],
);

/**
 * The score of one finished sitting (scoring job). Rank is set by the statistics job, once the
 * level's cohort is closed; until then the report says that rank aggregation is in progress.
 */
export const results = pgTable(
  'results',
  {
    scheduleHistoryId: integer('schedule_history_id')
      .primaryKey()
      .references(() => scheduleHistories.id),
    score: integer('score').notNull(),
    maxScore: integer('max_score').notNull(),
    correctCount: integer('correct_count').notNull(),
    questionCount: integer('question_count').notNull(),
    passed: boolean('passed').notNull(),
    rank: integer('rank'),
    rankTotal: integer('rank_total'),
    scoredAt: timestampTz('scored_at').notNull(),
    statisticsAt: timestampTz('statistics_at'),
    releasedAt: timestampTz('released_at'),
  },
  (t) => [
    check('results_counts_check', sql`${t.correctCount} between 0 and ${t.questionCount} and ${t.score} between 0 and ${t.maxScore}`),
    check('results_rank_check', sql`(${t.rank} is null) = (${t.rankTotal} is null) and (${t.rank} is null or ${t.rank} between 1 and ${t.rankTotal})`),
  ],
);

/** A sitting's correct answers per unit (the score report's per-unit analysis). */
export const resultUnits = pgTable(
  'result_units',
  {
    scheduleHistoryId: requiredRef('schedule_history_id', () => scheduleHistories.id),
    unit: text('unit').notNull(),
    questionCount: integer('question_count').notNull(),
    correctCount: integer('correct_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleHistoryId, t.unit] })],
);

/**
 * Per-unit averages of a level (statistics job): over all examinees (organization_id null) and
 * over one organisation's examinees. correct_rate is a percentage (0 to 100).
 */
export const unitStatistics = pgTable(
  'unit_statistics',
  {
    id: serial('id').primaryKey(),
    levelId: requiredRef('level_id', () => levels.id),
    organizationId: integer('organization_id').references(() => organizations.id),
    unit: text('unit').notNull(),
    examineeCount: integer('examinee_count').notNull(),
    correctRate: doublePrecision('correct_rate').notNull(),
    computedAt: timestampTz('computed_at').notNull(),
  },
  (t) => [unique('unit_statistics_scope_idx').on(t.levelId, t.organizationId, t.unit).nullsNotDistinct()],
);

/**
 * Background jobs (scoring, statistics, release, expiry): rows claimed with
 * FOR UPDATE SKIP LOCKED, so any number of API processes share them. `key` makes a job
 * idempotent while it is pending (one "score:42" at a time).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    payload: jsonb('payload').notNull().default({}),
    runAt: timestampTz('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedAt: timestampTz('locked_at'),
    lockedBy: text('locked_by'),
    doneAt: timestampTz('done_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('jobs_pending_key_idx').on(t.key).where(sql`${t.doneAt} is null`),
    index('jobs_due_idx').on(t.runAt).where(sql`${t.doneAt} is null`),
  ],
);

/**
 * A bearer token. Only its SHA-256 (hex) is stored. Bound to the examinee and, for a schedule
 * history login, to that schedule history.
 */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    examineeId: requiredRef('examinee_id', () => examinees.id),
    scheduleHistoryId: integer('schedule_history_id').references(() => scheduleHistories.id),
    /** The login type (seed section 3) the token was issued for; null on tokens older than the column. */
    loginType: smallint('login_type'),
    createdAt: timestampTz('created_at').notNull(),
    expiresAt: timestampTz('expires_at').notNull(),
    revokedAt: timestampTz('revoked_at'),
    /**
     * Why it was revoked: 'logout'; 'retake' when an administrator reset the examinee (answered
     * 401 ER_SCHEDULE_HISTORY_RETAKE); 'moved' when a proctor moved the pupil to another terminal
     * (answered 403 INCORRECT_DEVICE).
     */
    revokedReason: text('revoked_reason'),
  },
  (t) => [
    index('auth_tokens_examinee_idx').on(t.examineeId),
    check('auth_tokens_login_type_check', sql`${t.loginType} is null or ${t.loginType} between 0 and 7`),
  ],
);

/**
 * A maintenance window: while one is current, every API call but /health and /client-config
 * is answered 401 DURING_MAINTENANCE (seed section 8).
 */
export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    id: serial('id').primaryKey(),
    startsAt: timestampTz('starts_at').notNull(),
    endsAt: timestampTz('ends_at').notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('maintenance_windows_ends_idx').on(t.endsAt),
    check('maintenance_windows_window_check', sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * A generic OpenID Connect sign-in between /api/sso/oidc/start and its callback: the values the
 * callback must check (state, nonce, PKCE code verifier) live here, not in one process's memory,
 * so any API process can finish a sign-in another one started. Keyed by the SHA-256 of the
 * state; a row is deleted when its callback arrives (single use) or after it expires.
 */
export const ssoLoginAttempts = pgTable(
  'sso_login_attempts',
  {
    id: serial('id').primaryKey(),
    stateHash: text('state_hash').notNull().unique(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** The school (organisation code) the sign-in was started for. */
    orgCode: text('org_code').notNull(),
    createdAt: timestampTz('created_at').notNull(),
    expiresAt: timestampTz('expires_at').notNull(),
  },
  (t) => [index('sso_login_attempts_expires_idx').on(t.expiresAt)],
);

/**
 * Staff roles: an administrator runs the whole deployment (schools, test periods, exams, staff,
 * imports, exports) and belongs to no organisation; a proctor watches and acts on the exams of
 * their own organisation.
 */
export const staffRoles = ['admin', 'proctor'] as const;
export type StaffRole = (typeof staffRoles)[number];

/**
 * A staff member (proctor) of one organisation. Login ids are unique per organisation; the
 * password is a salted scrypt hash (server/domain/passwords.ts). Wrong passwords are counted and
 * locked by the login throttle (server/security/throttle.ts), like a pupil's.
 */
export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    /** The proctor's organisation; null for an administrator. */
    organizationId: integer('organization_id').references(() => organizations.id),
    loginId: text('login_id').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: staffRoles }).notNull().default('proctor'),
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('staff_organization_login_idx').on(t.organizationId, t.loginId),
    // Administrators (no organisation) sign in by login id alone: unique among them.
    uniqueIndex('staff_admin_login_idx').on(t.loginId).where(sql`${t.organizationId} is null`),
    check('staff_role_check', sql`${t.role} in ('admin', 'proctor')`),
    check('staff_organization_check', sql`(${t.role} = 'admin') = (${t.organizationId} is null)`),
  ],
);

/**
 * A staff bearer token: a table of its own, so a pupil token never authorises /api/admin and a
 * staff token never authorises a pupil call. Only its SHA-256 is stored.
 */
export const staffTokens = pgTable(
  'staff_tokens',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    staffId: requiredRef('staff_id', () => staff.id),
    createdAt: timestampTz('created_at').notNull(),
    expiresAt: timestampTz('expires_at').notNull(),
    revokedAt: timestampTz('revoked_at'),
  },
  (t) => [index('staff_tokens_staff_idx').on(t.staffId)],
);

/** What the audit trail records: the contract's list (contract/admin.ts). */
export type AuditActionName = (typeof auditActions)[number];

/**
 * The exam-day audit trail: who (a staff member, or null for the server itself), when, what,
 * on which sitting of which schedule, and why. Written in the same transaction as the action.
 * `credit_key` makes an automatic credit happen once ("outage:<from>:<sitting>",
 * "maintenance:<window>:<sitting>"): a second process or tick inserts nothing.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestampTz('at').notNull(),
    staffId: integer('staff_id').references(() => staff.id),
    action: text('action', { enum: auditActions }).notNull(),
    /** The test period acted on; null for deployment-wide actions (staff, imports). */
    scheduleId: integer('schedule_id').references(() => schedules.id),
    /** The record changed, as "<kind>:<natural key>" ("staff:jane", "pupil:GRADUS-DEMO/S-104"). */
    entity: text('entity'),
    /** The record before and after the change (null: created, or deleted). */
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    scheduleHistoryId: integer('schedule_history_id').references(() => scheduleHistories.id),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    reason: text('reason').notNull(),
    creditKey: text('credit_key'),
  },
  (t) => [
    index('audit_log_schedule_idx').on(t.scheduleId, t.at),
    index('audit_log_at_idx').on(t.at),
    uniqueIndex('audit_log_credit_key_idx').on(t.creditKey).where(sql`${t.creditKey} is not null`),
    check(
      'audit_log_action_check',
      sql`${t.action} in ('move_terminal', 'retake', 'extend', 'extend_room', 'outage_credit', 'maintenance_credit', 'staff_create', 'staff_update', 'import', 'code_reissue', 'slips_print', 'results_export')`,
    ),
  ],
);

/**
 * The service's heartbeat: one row (id 1) whose instant every running server process moves
 * forward on each job-runner beat. A beat that finds it older than the outage threshold knows
 * that no process ran in between (an outage) and credits the gap to the sittings it blocked,
 * under this row's lock, so one process credits each gap once.
 */
export const serverHeartbeat = pgTable(
  'server_heartbeat',
  {
    id: smallint('id').primaryKey(),
    beatAt: timestampTz('beat_at').notNull(),
  },
  (t) => [check('server_heartbeat_single_row_check', sql`${t.id} = 1`)],
);

/** Raw bytes (bytea); PGlite and node-postgres both hand them back as a Uint8Array (a Buffer). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** Kinds of stored document (server/documents/). */
export const documentKinds = ['report', 'certificate'] as const;

/**
 * Documents at rest: a released sitting's score report or certificate, printed once per language
 * and served from here (a released result never changes). `etag` is a strong validator, the
 * SHA-256 of `bytes`.
 */
export const documents = pgTable(
  'documents',
  {
    scheduleHistoryId: requiredRef('schedule_history_id', () => scheduleHistories.id),
    kind: text('kind', { enum: documentKinds }).notNull(),
    locale: text('locale').notNull(),
    bytes: bytea('bytes').notNull(),
    etag: text('etag').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.scheduleHistoryId, t.kind, t.locale] }),
    check('documents_kind_check', sql`${t.kind} in ('report', 'certificate')`),
  ],
);
