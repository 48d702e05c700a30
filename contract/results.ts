/**
 * Results: the testing menu status, exam lists, short result and score report (seed sections 2, 3, 4, 7).
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';
import { isoTimestamp, serverTime } from './common.ts';
import { ApplicationModeSchema, ScheduleHistoryStatusSchema, SubjectIdSchema } from './enums.ts';
import { PaymentStatusSchema, ResultPaymentStatusSchema } from './payments.ts';
import { numericQuery } from './session.ts';

/**
 * GET /get-status-choose-page?schedule_history_id= : the id is optional (a login bound to one
 * exam, or the examinee's current exam, is used without it).
 */
export const ChoosePageQuerySchema = v.object({ schedule_history_id: v.optional(numericQuery) });

/** GET /get-status-choose-page: what the testing menu shows (seed section 2, TestingMenu states). */
export const ChoosePageStatusSchema = v.object({
  exam_fee: v.object({
    /**
     * Whether this examinee pays the exam fee online for this sitting: a my-page or
     * foreign-payment pupil in a test period applied for personally. False in group mode.
     */
    required: v.boolean(),
    status: PaymentStatusSchema,
    /**
     * How the sitting's test period was applied for (seed section 3): 1 personal, 2 group (the
     * school applied and settled the fee; the menu says so instead of asking for it). The server
     * always sends it; absent (an older server) means personal.
     */
    application_mode: v.optional(ApplicationModeSchema),
  }),
  exam: v.object({
    schedule_history_id: v.nullable(v.number()),
    status: v.nullable(ScheduleHistoryStatusSchema),
    /** The test can be taken now (fee settled, not yet completed, period open). */
    can_take: v.boolean(),
  }),
  result: v.object({
    /** Results are released (one week after the exam, seed section 9); still true once expired. */
    released: v.boolean(),
    /**
     * Past the two-year window (seed section 9): the result can no longer be viewed, and the
     * result calls answer RESULT_VIEW_EXPIRED. The server always sends it; absent means false.
     */
    expired: v.optional(v.boolean()),
    payment_status: ResultPaymentStatusSchema,
    /** When the result is (or was) released: one week after the exam; null before the exam is finished. */
    release_at: v.optional(v.nullable(isoTimestamp)),
  }),
  ...serverTime,
});

export type ChoosePageStatus = v.InferOutput<typeof ChoosePageStatusSchema>;

/** Countries or regions (seed section 3). */
export const RegionSchema = v.picklist(['AU', 'CA', 'EG', 'EE', 'HK', 'ID', 'IN', 'JP', 'MM', 'MY', 'PH', 'SG', 'TH', 'TW', 'US', 'VN']);

export type Region = v.InferOutput<typeof RegionSchema>;

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

/**
 * Rank at the level: "rank N out of M", in progress until the statistics are complete, or hidden
 * when the pupil's organisation hides rankings (display flag 3, seed section 3): then the server
 * sends neither the position nor the total.
 */
export const RankSchema = v.variant('status', [
  v.object({ status: v.literal('complete'), position: v.number(), total: v.number() }),
  v.object({ status: v.literal('in_progress') }),
  v.object({ status: v.literal('hidden') }),
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
  /**
   * The level's score distribution for the chart: how many examinees scored each score. Null when
   * the pupil's school hides rankings (display flag 3, as `rank` is then `hidden`): the chart, with
   * the pupil's score marked, would show them their place, so it is not sent.
   */
  distribution: v.nullable(v.array(v.object({ score: v.number(), count: v.number() }))),
  units: v.array(UnitAnalysisSchema),
  wrong_answer_example: v.nullable(WrongAnswerExampleSchema),
  /** The certificate can be downloaded (passed and paid). */
  certificate_available: v.boolean(),
  viewable_until: isoTimestamp,
  ...serverTime,
});

export type ScoreReport = v.InferOutput<typeof ScoreReportSchema>;
