/**
 * Demo data that makes results mean something (idempotent, run by server/seed/seed.ts after the
 * demo's roster files, which hold its schools, hall and pupils):
 * - two organisations (GRADUS-RESULTS-A, a school in Japan whose hall is in JP; GRADUS-RESULTS-B,
 *   an academy in Singapore that hides rankings from its pupils: display flag 3, seed section 3)
 *   with a test period each that ended two days before `now` (written here: their windows are
 *   relative to the first start, which no file can say);
 * - a cohort of 30 examinees at English level 1 and 15 at Calculation level 1 across both, who
 *   sat 10 days before `now` with varied answers (a seeded pseudo-random ability per pupil);
 * - the my-page pupils of server/seed/results-accounts.json with login ID and password: passed
 *   with nothing bought, passed with result sheet and certificate bought, not passed, finished
 *   3 days ago (waiting for the release), and the "results journey" pupils booked into a test
 *   period open now with the exam fee unpaid.
 * Scores, ranks, unit statistics and releases are made by the real job functions
 * (server/domain/results-lifecycle.ts), never written by hand. Rows are found by natural keys
 * (organisation, schedule and exam codes, login codes); a pupil's sitting, answers, password and
 * payments are made only when the pupil has no sitting yet; times are
 * relative to the `now` of the first seeding and stay put afterwards (the waiting pupil's result
 * is released when its week is over, by the jobs, like any other).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, asc, eq, inArray } from 'drizzle-orm';
import * as v from 'valibot';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { LOGIN_CODE_ALPHABET } from '../../contract/session.ts';
import type { Tx } from '../db/client.ts';
import {
  answers,
  examinees,
  exams,
  organizations,
  paymentItems,
  payments,
  purchases,
  questions,
  scheduleHistories,
  schedules,
  venues,
  type PaymentKind,
} from '../db/schema.ts';
import { receiptOf } from '../domain/exam.ts';
import { defaultPaymentSettings } from '../domain/payments/settings.ts';
import { computeLevelStatistics, releaseResult, scoreSitting } from '../domain/results-lifecycle.ts';
import { passwordHasher, type PasswordHasher } from './passwords.ts';

const DAY = 86_400_000;

export const ResultsAccountSchema = v.object({
  login_id: v.string(),
  password: v.string(),
  name: v.string(),
  org_code: v.string(),
  /** rank_hidden: passed and bought, at an organisation that hides rankings (no rank on the score report). */
  scenario: v.picklist(['passed_unpaid', 'passed_bought', 'not_passed', 'waiting', 'journey', 'rank_hidden']),
  shows: v.string(),
});
export type ResultsAccount = v.InferOutput<typeof ResultsAccountSchema>;

export function loadResultsAccounts(): ResultsAccount[] {
  const text = readFileSync(new URL('./results-accounts.json', import.meta.url), 'utf8');
  return v.parse(v.array(ResultsAccountSchema), JSON.parse(text));
}

/** The results demo's classroom of each school (server/seed/demo/venues.csv), or none. */
const resultsVenues: Record<string, string | null> = { 'GRADUS-RESULTS-A': 'Riverside Hall', 'GRADUS-RESULTS-B': null };

/** The test periods, relative to the first seeding's now. */
const resultsSchedules = [
  { code: 'RESULTS-PAST-A', org: 'GRADUS-RESULTS-A', venue: true, startsDaysAgo: 30, endsDaysAgo: 2 },
  { code: 'RESULTS-PAST-B', org: 'GRADUS-RESULTS-B', venue: false, startsDaysAgo: 30, endsDaysAgo: 2 },
  { code: 'RESULTS-OPEN', org: 'GRADUS-RESULTS-A', venue: true, startsDaysAgo: 1, endsDaysAgo: -90 },
] as const;

/** A small deterministic generator (mulberry32), so the demo cohort is the same on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A login code from the contract's alphabet, fixed by a label. */
function codeFor(label: string): string {
  const digest = createHash('sha256').update(`gradus-results-demo:${label}`).digest();
  const chars = Array.from({ length: 12 }, (_, i) => LOGIN_CODE_ALPHABET[digest[i]! % LOGIN_CODE_ALPHABET.length]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

type Question = typeof questions.$inferSelect;

/** A plausible wrong answer to a question. */
function wrongAnswer(question: Question, rnd: () => number): string {
  switch (question.type) {
    case 'single_choice': {
      const others = question.choices.filter((c) => c.id !== question.correctAnswer);
      return others[Math.floor(rnd() * others.length)]?.id ?? '';
    }
    case 'number': {
      const n = Number(question.correctAnswer);
      return Number.isFinite(n) ? String(n + (rnd() < 0.5 ? 1 : -1) * (1 + Math.floor(rnd() * 3))) : '0';
    }
    case 'ordering':
      return question.correctAnswer.split(',').reverse().join(',');
    case 'text': {
      const word = question.correctAnswer;
      return word.length > 1 ? `${word.slice(0, -1)}${word.at(-1) === 'e' ? 'a' : 'e'}` : 'x';
    }
  }
}

/** One cohort member or demo pupil's sitting to seed (the pupil is a row of server/seed/demo/pupils.csv). */
type Pupil = {
  loginCode: string;
  loginId: string | null;
  password: string | null;
  organizationCode: string;
  scheduleCode: string;
  examCode: string;
  /** Days before now the exam was finished; null: not taken (PENDING). */
  finishedDaysAgo: number | null;
  /** Whether each question (by index) is answered right; null: unanswered. */
  answerPattern: (questionCount: number) => (boolean | null)[];
  myPage: boolean;
  bought: PaymentKind[];
};

function cohort(): Pupil[] {
  const pupils: Pupil[] = [];
  const rnd = random(20_261_122);
  const add = (examCode: string, count: number, prefix: string) => {
    for (let i = 0; i < count; i++) {
      const ability = 0.3 + rnd() * 0.65;
      const organizationCode = i % 5 < 3 ? 'GRADUS-RESULTS-A' : 'GRADUS-RESULTS-B';
      // The draw for the grade and birth date, which pupils.csv holds: drawn and not used, it keeps
      // the draws after it, and so every pupil's answers, as the demo data has them.
      rnd();
      const seed = Math.floor(rnd() * 1e9);
      rnd();
      rnd();
      pupils.push({
        loginCode: codeFor(`${prefix}-${i}`),
        loginId: null,
        password: null,
        organizationCode,
        scheduleCode: organizationCode === 'GRADUS-RESULTS-A' ? 'RESULTS-PAST-A' : 'RESULTS-PAST-B',
        examCode,
        finishedDaysAgo: 10,
        answerPattern: (n) => {
          const r = random(seed);
          return Array.from({ length: n }, (_, q) => {
            if (r() < 0.04) return null;
            // Later questions are a little harder.
            return r() < ability - (q / n) * 0.15;
          });
        },
        myPage: false,
        bought: [],
      });
    }
  };
  add('EN-1', 30, 'en1');
  add('CALC-1', 15, 'calc1');
  return pupils;
}

function demoPupils(): Pupil[] {
  return loadResultsAccounts().map((account) => {
    const passed = (n: number) => Array.from({ length: n }, (_, q) => q !== 2 && q !== 11);
    const base = {
      loginCode: codeFor(`account-${account.login_id}`),
      loginId: account.login_id,
      password: account.password,
      organizationCode: account.org_code,
      scheduleCode: account.org_code === 'GRADUS-RESULTS-B' ? 'RESULTS-PAST-B' : 'RESULTS-PAST-A',
      examCode: 'EN-1',
      myPage: true,
    };
    switch (account.scenario) {
      case 'passed_unpaid':
        return { ...base, finishedDaysAgo: 10, answerPattern: passed, bought: ['exam_fee'] };
      case 'passed_bought':
      case 'rank_hidden':
        return { ...base, finishedDaysAgo: 10, answerPattern: passed, bought: ['exam_fee', 'result_sheet', 'certificate'] };
      case 'not_passed':
        return { ...base, finishedDaysAgo: 10, answerPattern: (n: number) => Array.from({ length: n }, (_, q) => q % 3 === 0), bought: ['exam_fee'] };
      case 'waiting':
        return { ...base, finishedDaysAgo: 3, answerPattern: passed, bought: ['exam_fee'] };
      case 'journey':
        return { ...base, scheduleCode: 'RESULTS-OPEN', finishedDaysAgo: null, answerPattern: () => [], bought: [] };
    }
  });
}

/**
 * `hash`: the seeding's password hasher (server/seed/passwords.ts). Only the sittings this call
 * creates are scored, ranked and released here; on a later start nothing is created, and
 * whatever falls due since (the waiting pupil's release) is the jobs' work, as for any sitting.
 */
export async function seedResultsDemo(tx: Tx, now: Date, hash: PasswordHasher = passwordHasher()): Promise<void> {
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);

  const organizationIds = new Map<string, number>();
  const venueIds = new Map<string, number | null>();
  for (const [code, venueName] of Object.entries(resultsVenues)) {
    const [row] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.code, code));
    if (!row) throw new Error(`results demo: no school ${code} (server/seed/demo/schools.csv)`);
    organizationIds.set(code, row.id);
    let venueId: number | null = null;
    if (venueName !== null) {
      const [venue] = await tx.select({ id: venues.id }).from(venues).where(and(eq(venues.organizationId, row.id), eq(venues.name, venueName)));
      if (!venue) throw new Error(`results demo: no classroom ${venueName} (server/seed/demo/venues.csv)`);
      venueId = venue.id;
    }
    venueIds.set(code, venueId);
  }
  const scheduleIds = new Map<string, number>();
  for (const schedule of resultsSchedules) {
    await tx
      .insert(schedules)
      .values({
        scheduleCode: schedule.code,
        organizationId: organizationIds.get(schedule.org)!,
        venueId: schedule.venue ? venueIds.get(schedule.org)! : null,
        name: schedule.code === 'RESULTS-OPEN' ? 'Results journey (open now)' : 'Last month’s test day',
        startsAt: at(schedule.startsDaysAgo),
        endsAt: at(schedule.endsDaysAgo),
      })
      .onConflictDoNothing();
    const [row] = await tx.select({ id: schedules.id }).from(schedules).where(eq(schedules.scheduleCode, schedule.code));
    scheduleIds.set(schedule.code, row!.id);
  }

  // The newest version of each exam (the one new sittings take), questions and all.
  const examRows = await tx
    .select({ id: exams.id, code: exams.code, levelId: exams.levelId })
    .from(exams)
    .where(inArray(exams.code, ['EN-1', 'CALC-1']))
    .orderBy(asc(exams.version));
  const examOf = new Map(examRows.map((e) => [e.code, e]));
  const papers = new Map<number, Question[]>();
  for (const exam of examOf.values()) {
    papers.set(exam.id, await tx.select().from(questions).where(eq(questions.examId, exam.id)).orderBy(questions.number));
  }

  const pupils = [...cohort(), ...demoPupils()];
  // The pupils (from pupils.csv) and which of them have their sitting, in two reads; the
  // passwords of those still without one are hashed side by side.
  const ids = new Map(
    (await tx.select({ id: examinees.id, loginCode: examinees.loginCode }).from(examinees).where(inArray(examinees.loginCode, pupils.map((p) => p.loginCode)))).map(
      (row) => [row.loginCode, row.id],
    ),
  );
  const seated = new Set(
    (await tx.select({ examineeId: scheduleHistories.examineeId }).from(scheduleHistories).where(inArray(scheduleHistories.examineeId, [...ids.values()]))).map(
      (row) => row.examineeId,
    ),
  );
  const waiting = pupils.filter((pupil) => {
    const id = ids.get(pupil.loginCode);
    if (id === undefined) throw new Error(`results demo: pupil ${pupil.loginCode} is not in server/seed/demo/pupils.csv`);
    return !seated.has(id);
  });
  for (const pupil of waiting) if (pupil.password !== null) void hash(pupil.password);
  const created: number[] = [];
  for (const pupil of waiting) {
    const index = pupils.indexOf(pupil);
    const exam = examOf.get(pupil.examCode);
    if (!exam) throw new Error(`results demo: exam ${pupil.examCode} is missing`);
    const examineeId = ids.get(pupil.loginCode)!;
    if (pupil.password !== null || pupil.myPage) {
      await tx
        .update(examinees)
        .set({
          email: pupil.myPage ? `${pupil.loginId}@example.com` : null,
          basicInfoRegisteredAt: pupil.myPage ? at(20) : null,
          passwordHash: pupil.password === null ? null : await hash(pupil.password),
          isMyPageLogin: pupil.myPage,
        })
        .where(eq(examinees.id, examineeId));
    }
    const base = {
      examineeId,
      scheduleId: scheduleIds.get(pupil.scheduleCode)!,
      examId: exam.id,
      userKey: randomUUID(),
      testKey: randomUUID(),
    };
    if (pupil.finishedDaysAgo === null) {
      await tx.insert(scheduleHistories).values({ ...base, status: ScheduleHistoryStatus.PENDING });
      continue;
    }
    // Finished some minutes apart on the test day, after 15 to 35 minutes of work.
    const finishedAt = new Date(at(pupil.finishedDaysAgo).getTime() + (index % 12) * 300_000);
    const startedAt = new Date(finishedAt.getTime() - (15 + (index % 5) * 5) * 60_000);
    const [history] = await tx
      .insert(scheduleHistories)
      .values({ ...base, status: ScheduleHistoryStatus.COMPLETED, startedAt, deadlineAt: new Date(startedAt.getTime() + 2_400_000), finishedAt, locale: 'en' })
      .returning({ id: scheduleHistories.id });
    created.push(history!.id);
    const paper = papers.get(exam.id)!;
    const pattern = pupil.answerPattern(paper.length);
    const rnd = random(history!.id * 7919);
    const rows = paper.flatMap((question, q) => {
      const right = pattern[q];
      if (right === null || right === undefined) return [];
      const answeredAt = new Date(startedAt.getTime() + ((q + 1) * (finishedAt.getTime() - startedAt.getTime())) / (paper.length + 1));
      return [
        {
          scheduleHistoryId: history!.id,
          questionId: question.id,
          value: right ? question.correctAnswer : wrongAnswer(question, rnd),
          answeredAt,
          receivedAt: answeredAt,
          idempotencyKey: `results-demo:${history!.id}:${question.id}`,
        },
      ];
    });
    if (rows.length > 0) await tx.insert(answers).values(rows);
    const receipt = await receiptOf(tx, history!.id);
    await tx.update(scheduleHistories).set({ answerCount: receipt.answerCount, answersDigest: receipt.digest }).where(eq(scheduleHistories.id, history!.id));
    await recordPurchases(tx, history!.id, pupil.bought, finishedAt);
  }

  // The real job functions on what this call made: score, then rank the closed cohorts, then
  // release what is a week old.
  if (created.length === 0) return;
  const ours = await tx
    .select({ id: scheduleHistories.id, levelId: exams.levelId })
    .from(scheduleHistories)
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .where(inArray(scheduleHistories.id, created));
  let scored = 0;
  for (const sitting of ours) if (await scoreSitting(tx, sitting.id, now)) scored++;
  if (scored > 0) for (const levelId of new Set(ours.map((s) => s.levelId))) await computeLevelStatistics(tx, levelId, now);
  for (const sitting of ours) await releaseResult(tx, sitting.id, now);
}

/** Paid items of a demo pupil, as a paid demo checkout would have left them. */
async function recordPurchases(tx: Tx, scheduleHistoryId: number, kinds: PaymentKind[], paidAt: Date): Promise<void> {
  const prices = defaultPaymentSettings.prices;
  const groups = [kinds.filter((k) => k === 'exam_fee'), kinds.filter((k) => k !== 'exam_fee')];
  for (const items of groups) {
    if (items.length === 0) continue;
    const purpose = items[0] === 'exam_fee' ? 'exam_fee' : 'result_fee';
    const [payment] = await tx
      .insert(payments)
      .values({
        reference: `results-demo-${scheduleHistoryId}-${purpose}`,
        scheduleHistoryId,
        purpose,
        status: 2,
        outcome: 'authorised',
        amountMinor: items.reduce((sum, kind) => sum + prices[kind], 0),
        provider: 'demo',
        expiresAt: paidAt,
        createdAt: paidAt,
        updatedAt: paidAt,
      })
      .returning({ id: payments.id });
    await tx.insert(paymentItems).values(items.map((kind) => ({ paymentId: payment!.id, kind, unitPriceMinor: prices[kind], totalMinor: prices[kind] })));
    await tx.insert(purchases).values(items.map((kind) => ({ scheduleHistoryId, kind, paymentId: payment!.id, paidAt })));
  }
}

/** The login codes of every pupil this module seeds (one sitting each), for tests that count the demo data. */
export function resultsDemoLoginCodes(): string[] {
  return [...cohort(), ...demoPupils()].map((p) => p.loginCode);
}
