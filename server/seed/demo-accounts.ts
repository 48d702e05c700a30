/**
 * Reads server/seed/demo-accounts.json, the one list of demo pupils: the seed creates them,
 * docs/demo.md shows them, and tests log in with them. Validated on read, so a typo in the file
 * fails loudly instead of seeding a pupil nobody can log in as.
 *
 * Every pupil has a login code; accounts for the other ways in (login type 1: login ID and
 * password on the school's or schedule's page; 5: examinee login) also carry `login_id`,
 * `password` and the page's `org_code` / `schedule_code`. `landing` is the screen the client's
 * next-screen rules (seed section 2) lead to after a successful login.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { ScheduleHistoryStatusSchema, SubjectIdSchema } from '../../contract/enums.ts';
import { ErrorCodeSchema } from '../../contract/errors.ts';
import { LoginCodeSchema } from '../../contract/session.ts';

export const demoScenarios = [
  'journey',
  'completed',
  'disabled-classroom',
  'not-yet-open',
  'login-id',
  'lock',
  'my-page',
  'my-page-registered',
  'foreign-payment',
  /** A pupil who pays online, booked into a test period the school applied for as a group (no exam fee). */
  'group-mode',
  'examinee',
  'examinee-step-mode',
  'wrong-login-method',
  'disabled-organization',
  'period-over',
  'expired',
  'suspended',
  'cancelled',
  'sso',
  /** A pupil to sit one subject's level (every subject and level has one): login code, then login-confirm. */
  'subject',
  /**
   * A pupil booked into a short sitting (exam_code: a copy of a level's paper with a time limit of
   * about a minute), so the clock can run out during an end-to-end test.
   */
  'time-out',
] as const;
export type DemoScenario = (typeof demoScenarios)[number];

/** Where the client's next-screen rules (seed section 2) take the pupil after login. */
export const demoLandings = ['login-confirm', 'examinee-input-info', 'examinee-info', 'exam', 'exam-step-mode'] as const;

const LevelSchema = v.pipe(v.number(), v.integer(), v.minValue(1));
const GradeSchema = v.nullable(v.union([v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)), v.literal(99)]));

export const DemoAccountSchema = v.pipe(
  v.strictObject({
    /** Normalised login code (XXXX-XXXX-XXXX). */
    login_code: v.pipe(LoginCodeSchema, v.regex(/^[^-]{4}-[^-]{4}-[^-]{4}$/)),
    /** How the demo logs in: 0 login code (default), 1 login ID and password, 5 examinee login. */
    login_type: v.optional(v.picklist([0, 1, 5]), 0),
    login_id: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9._-]{3,64}$/))),
    password: v.optional(v.pipe(v.string(), v.minLength(8))),
    /** The organisation (default GRADUS-DEMO), and the page's code for login types 1 and 5. */
    org_code: v.optional(v.string(), 'GRADUS-DEMO'),
    /** The test period of the login page (login types 1 and 5); the pupil's row of server/seed/demo/pupils.csv names the same. */
    schedule_code: v.optional(v.string()),
    name: v.pipe(v.string(), v.nonEmpty()),
    grade_id: GradeSchema,
    /** Basic information already registered (with name and grade) when set. */
    email: v.optional(v.nullable(v.pipe(v.string(), v.email()))),
    is_my_page_login: v.optional(v.boolean(), false),
    subject: SubjectIdSchema,
    /** The level's position within its subject (level 1, 2, ...). */
    level: LevelSchema,
    /**
     * The exam paper of the pupil's own sitting when it is not the level's regular one: the code
     * of one of demo-content.ts's `demoShortExams` of this subject and level (time-out demos).
     */
    exam_code: v.optional(v.pipe(v.string(), v.nonEmpty())),
    /** The sitting's starting status (default PENDING; COMPLETED for the `completed` scenario). */
    status: v.optional(ScheduleHistoryStatusSchema),
    /** More sittings in the same test period (examinee accounts with an exam list). */
    other_exams: v.optional(
      v.array(v.strictObject({ subject: SubjectIdSchema, level: LevelSchema, status: ScheduleHistoryStatusSchema })),
      [],
    ),
    /** What the account is for. */
    scenario: v.picklist(demoScenarios),
    /** The screen a successful login leads to; null when login is refused. */
    landing: v.optional(v.nullable(v.picklist(demoLandings)), null),
    purpose: v.string(),
    /** The code the account's own way in answers with, or null when login succeeds. */
    login_refused_with: v.nullable(ErrorCodeSchema),
  }),
  v.check(
    (a) => a.login_type === 0 || (a.login_id !== undefined && a.password !== undefined),
    'login types 1 and 5 need login_id and password',
  ),
);
export type DemoAccount = v.InferOutput<typeof DemoAccountSchema>;

export const demoAccountsFile = new URL('./demo-accounts.json', import.meta.url);

export function loadDemoAccounts(): DemoAccount[] {
  const raw: unknown = JSON.parse(readFileSync(demoAccountsFile, 'utf8'));
  const accounts = v.parse(v.array(DemoAccountSchema), raw);
  const codes = new Set(accounts.map((a) => a.login_code));
  if (codes.size !== accounts.length) throw new Error('demo-accounts.json: duplicate login codes');
  const ids = accounts.flatMap((a) => (a.login_id === undefined ? [] : [a.login_id]));
  if (new Set(ids).size !== ids.length) throw new Error('demo-accounts.json: duplicate login IDs');
  return accounts;
}

/**
 * Every sitting a demo account is booked into: its own exam first (`examCode` when it is not the
 * level's regular paper), then `other_exams`.
 */
export function demoSittingsOf(account: DemoAccount): { subject: number; level: number; status: number; examCode?: string }[] {
  const status = account.status ?? (account.scenario === 'completed' ? 1 : 0);
  const own = { subject: account.subject, level: account.level, status };
  return [account.exam_code === undefined ? own : { ...own, examCode: account.exam_code }, ...account.other_exams];
}
