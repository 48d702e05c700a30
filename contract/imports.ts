/**
 * The wire contract of what an administrator brings into a deployment (/api/admin/imports) and
 * the lists that show what is there (schools with their classrooms and test periods, pupils with
 * their login codes). snake_case on the wire, like the rest of the API.
 *
 * An import is first a plan: one row per record of the file (the spreadsheet row, header = 1),
 * each to be created, updated, left unchanged or refused, every refusal with its column and a
 * reason code from `importReasons` (the console translates the code; the command line prints
 * English). A plan is applied only when asked and only when nothing is refused, all in one
 * transaction: `applied` says whether it was.
 *
 * Imports only valibot (the contract sits below server/, machines/ and src/).
 */
import * as v from 'valibot';

const isoTimestamp = v.pipe(v.string(), v.isoTimestamp());
const serverTime = { server_time: isoTimestamp };

// ---------------------------------------------------------------------------
// Roster imports (CSV): schools, classrooms, test periods, pupils
// ---------------------------------------------------------------------------

/** The roster files, one per kind, in the order a deployment is filled. */
export const importKinds = ['schools', 'venues', 'schedules', 'pupils'] as const;
export const ImportKindSchema = v.picklist(importKinds);
export type ImportKind = (typeof importKinds)[number];

/** Every kind a plan can be of: the roster files and exams (JSON or an IMS QTI 3.0 package). */
export const planKinds = [...importKinds, 'exam'] as const;
export type PlanKind = (typeof planKinds)[number];

/**
 * Why a file, row or column is refused. File-wide: too_large (over the size cap), encoding (not
 * UTF-8), empty_file; the header: missing_column, unknown_column, duplicate_column; a value:
 * required, invalid, too_long, bad_date, bad_window (the end not after the start); a reference:
 * unknown_school, unknown_classroom, unknown_schedule, unknown_exam; a key: duplicate_in_file,
 * duplicate_login_id (the login id belongs to another pupil), duplicate_login_code (so does the
 * login code); started_cannot_change (pupils have
 * sittings of what the row would change). Exam packages: bad_zip, zip_bomb, path_outside_package,
 * missing_manifest, missing_file, bad_xml, external_entity, unsupported_interaction, missing_key,
 * bad_key, unknown_level, bad_json.
 */
export const importReasons = [
  'too_large',
  'encoding',
  'empty_file',
  'missing_column',
  'unknown_column',
  'duplicate_column',
  'required',
  'invalid',
  'too_long',
  'bad_date',
  'bad_window',
  'unknown_school',
  'unknown_classroom',
  'unknown_schedule',
  'unknown_exam',
  'duplicate_in_file',
  'duplicate_login_id',
  'duplicate_login_code',
  'started_cannot_change',
  'bad_zip',
  'zip_bomb',
  'path_outside_package',
  'missing_manifest',
  'missing_file',
  'bad_xml',
  'external_entity',
  'unsupported_interaction',
  'missing_key',
  'bad_key',
  'unknown_level',
  'bad_json',
] as const;
export const ImportReasonSchema = v.picklist(importReasons);
export type ImportReason = (typeof importReasons)[number];

export const importOutcomes = ['create', 'update', 'unchanged', 'refuse'] as const;
export const ImportOutcomeSchema = v.picklist(importOutcomes);
export type ImportOutcome = (typeof importOutcomes)[number];

/** One problem of a row: the column (null: the whole row or file), the reason, the value read. */
export const ImportProblemSchema = v.object({
  column: v.nullable(v.string()),
  reason: ImportReasonSchema,
  value: v.optional(v.string()),
});
export type ImportProblem = v.InferOutput<typeof ImportProblemSchema>;

/**
 * One record of the plan. `row`: the spreadsheet row of the record (the header is row 1; a
 * value with a line break inside quotes stays in one row), null for the whole file. `key`: the
 * record's natural key as the file gives it ("6B-PUPIL-01", "SCHOOL/Room 1"), '' for the file.
 * `problems` is empty unless the outcome is refuse.
 */
export const ImportPlanRowSchema = v.object({
  row: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
  key: v.string(),
  outcome: ImportOutcomeSchema,
  problems: v.array(ImportProblemSchema),
});
export type ImportPlanRow = v.InferOutput<typeof ImportPlanRowSchema>;

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The rows of a plan are capped at this many, plus every refused row (the summary counts all). */
export const IMPORT_PLAN_ROWS_SHOWN = 500;

/**
 * POST /admin/imports/:kind (the raw file as the body; `?apply=1` to apply) and the exam import.
 * `applied` is true only when apply was asked and nothing was refused.
 */
export const ImportPlanResponseSchema = v.object({
  kind: v.picklist(planKinds),
  applied: v.boolean(),
  summary: v.object({ create: count, update: count, unchanged: count, refuse: count }),
  rows: v.array(ImportPlanRowSchema),
  ...serverTime,
});
export type ImportPlanResponse = v.InferOutput<typeof ImportPlanResponseSchema>;

/** Path parameter `:kind` and the query of POST /admin/imports/:kind. */
export const ImportKindParamSchema = v.object({ kind: ImportKindSchema });
export const ImportQuerySchema = v.object({
  apply: v.optional(v.picklist(['0', '1'], 'invalid'), '0'),
});

/** The largest roster file accepted (bytes); a larger one is refused unread. */
export const MAX_ROSTER_FILE_BYTES = 10 * 1024 * 1024;

// ---------------------------------------------------------------------------
// Schools, classrooms and test periods
// ---------------------------------------------------------------------------

export const SchoolSchema = v.object({
  code: v.string(),
  name: v.string(),
  category: v.string(),
  /** 1 login codes and login ids, 2 OAuth, 3 examinee accounts (seed section 3). */
  login_method: v.number(),
  disabled: v.boolean(),
  venues: v.array(v.object({ id: v.number(), name: v.string(), disabled: v.boolean() })),
  schedules: v.array(v.object({ code: v.string(), name: v.string(), starts_at: isoTimestamp, ends_at: isoTimestamp })),
});
export type School = v.InferOutput<typeof SchoolSchema>;

/** GET /admin/schools: every school (an administrator) or the proctor's own, by code. */
export const SchoolsResponseSchema = v.object({ schools: v.array(SchoolSchema), ...serverTime });
export type SchoolsResponse = v.InferOutput<typeof SchoolsResponseSchema>;

// ---------------------------------------------------------------------------
// Pupils and their login codes
// ---------------------------------------------------------------------------

/** The most pupils GET /admin/pupils answers with. */
export const PUPILS_LISTED = 500;

const CodeParam = v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'invalid'));
const NumericParam = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/, 'invalid'), v.transform(Number));

/** GET /admin/pupils?school=&q=&venue=: q matches the name, the school's pupil id or the login code. */
export const PupilsQuerySchema = v.object({
  school: v.optional(CodeParam),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'invalid'))),
  venue: v.optional(NumericParam),
});

export const PupilSchema = v.object({
  id: v.number(),
  /** The school's own id of the pupil (the roster's pupil_id); null for a pupil not from a roster. */
  external_id: v.nullable(v.string()),
  name: v.string(),
  class_name: v.string(),
  venue: v.nullable(v.object({ id: v.number(), name: v.string() })),
  login_code: v.string(),
  login_id: v.nullable(v.string()),
  locale: v.nullable(v.string()),
});
export type Pupil = v.InferOutput<typeof PupilSchema>;

/** GET /admin/pupils: at most PUPILS_LISTED, by class then name. */
export const PupilsResponseSchema = v.object({ pupils: v.array(PupilSchema), ...serverTime });
export type PupilsResponse = v.InferOutput<typeof PupilsResponseSchema>;

/** Path parameter `:id` (an examinee id) of POST /admin/pupils/:id/reissue-code. */
export const PupilIdParamSchema = v.object({ id: NumericParam });

/** POST /admin/pupils/:id/reissue-code: the pupil's new code; the old one no longer logs in. */
export const ReissueCodeResponseSchema = v.object({ login_code: v.string(), ...serverTime });
export type ReissueCodeResponse = v.InferOutput<typeof ReissueCodeResponseSchema>;

// ---------------------------------------------------------------------------
// Exams: the exam import (a Gradus exam JSON file or an IMS QTI 3.0 package) and the exam list
// ---------------------------------------------------------------------------

/** The largest exam file or content package accepted (bytes); a larger one is refused unread. */
export const MAX_EXAM_FILE_BYTES = 20 * 1024 * 1024;

/** The subjects an exam import may name, as its query sends them (seed section 1's ids). */
export const examImportSubjects = ['1', '2', '3', '6'] as const;

const positiveParam = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,1}$/, 'invalid'), v.transform(Number));

/**
 * The query of POST /admin/imports/exam. `subject`, `level` and `level_name` say what a QTI
 * package's manifest does not (they win over it; a JSON file names its own).
 */
export const ExamImportQuerySchema = v.object({
  apply: v.optional(v.picklist(['0', '1'], 'invalid'), '0'),
  subject: v.optional(v.pipe(v.string(), v.picklist(examImportSubjects, 'invalid'), v.transform(Number))),
  level: v.optional(positiveParam),
  level_name: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('invalid'), v.maxLength(100, 'invalid'))),
});

/** One stored version of an exam. `level` is the level's position in its subject. */
export const ExamSummarySchema = v.object({
  code: v.string(),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  title: v.string(),
  subject_id: v.number(),
  level: v.number(),
  /** How many questions it has (one point each). */
  questions: v.number(),
  pass_percent: v.number(),
  time_limit_seconds: v.number(),
  /** A pupil has started it: it is never changed in place, a changed import makes the next version. */
  in_use: v.boolean(),
});
export type ExamSummary = v.InferOutput<typeof ExamSummarySchema>;

/** GET /admin/exams: every version of every exam, by code then version. */
export const ExamsResponseSchema = v.object({ exams: v.array(ExamSummarySchema), ...serverTime });
export type ExamsResponse = v.InferOutput<typeof ExamsResponseSchema>;
