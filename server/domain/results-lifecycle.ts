/**
 * The work of the results jobs (server/jobs/), one function per job kind, each run inside the
 * job's transaction and each idempotent: it reads the sitting's status under a row lock and
 * asks the schedule history machine (`nextStatus`) whether its event applies; when the machine
 * says no (already done, reset, cancelled), it does nothing.
 *
 * - scoreSitting: COMPLETED -> SCORING_COMPLETED; writes `results` and `result_units`
 *   (score = correct answers, max = question count, passed = score * 100 >= pass_percent * max);
 * - computeLevelStatistics: for one level, the sittings of closed cohorts (schedule ended, none
 *   of its sittings at the level still PENDING, DOING or unscored) are ranked "N of M" by score
 *   (ties share a rank) and moved to STATISTIC_COMPLETED (a released one stays RESULT_PUBLIC);
 *   per-unit correct rates over all of them and per organisation go to `unit_statistics`;
 * - releaseResult: -> RESULT_PUBLIC one week after the exam, and the printing of its bought
 *   documents is enqueued (server/documents/store.ts);
 * - expireSchedule: PENDING sittings of an ended schedule -> EXPIRED;
 * - autoFinishSitting: DOING past deadline + upload window -> COMPLETED (finished at the
 *   deadline, with the receipt of what was saved), then scoring is enqueued.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { isScoredStatus } from '../../machines/schedule-history/schedule-history.selectors.ts';
import type { Tx } from '../db/client.ts';
import {
  answers,
  examinees,
  exams,
  questions,
  resultUnits,
  results,
  scheduleHistories,
  schedules,
  unitStatistics,
} from '../db/schema.ts';
import { enqueueDocuments } from '../documents/store.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { receiptOf } from './exam.ts';
import { nextStatus } from './schedule-history.ts';
import { isCorrect } from './scoring.ts';

const S = ScheduleHistoryStatus;

async function lockHistory(tx: Tx, scheduleHistoryId: number) {
  const [row] = await tx.select().from(scheduleHistories).where(eq(scheduleHistories.id, scheduleHistoryId)).for('update');
  return row;
}

/** Percent rounded to one decimal (seed section 3). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part * 1000) / whole) / 10;
}

export async function scoreSitting(tx: Tx, scheduleHistoryId: number, now: Date): Promise<boolean> {
  const history = await lockHistory(tx, scheduleHistoryId);
  if (!history) return false;
  const next = nextStatus(history.status, { type: 'scoring.completed' });
  if (next === undefined) return false;

  const [exam] = await tx.select({ passPercent: exams.passPercent }).from(exams).where(eq(exams.id, history.examId));
  if (!exam) throw new Error(`Sitting ${history.id} has no exam`);
  const paper = await tx
    .select({
      id: questions.id,
      type: questions.type,
      correctAnswer: questions.correctAnswer,
      caseSensitive: questions.caseSensitive,
      unit: questions.unit,
    })
    .from(questions)
    .where(eq(questions.examId, history.examId))
    .orderBy(asc(questions.number));
  const given = new Map(
    (await tx.select({ questionId: answers.questionId, value: answers.value }).from(answers).where(eq(answers.scheduleHistoryId, history.id))).map(
      (a) => [a.questionId, a.value],
    ),
  );

  const units = new Map<string, { questionCount: number; correctCount: number }>();
  let correct = 0;
  for (const question of paper) {
    const value = given.get(question.id);
    const right = value !== undefined && isCorrect(question, value);
    if (right) correct++;
    const unit = units.get(question.unit) ?? { questionCount: 0, correctCount: 0 };
    unit.questionCount++;
    if (right) unit.correctCount++;
    units.set(question.unit, unit);
  }
  const max = paper.length;

  await tx.delete(resultUnits).where(eq(resultUnits.scheduleHistoryId, history.id));
  await tx.delete(results).where(eq(results.scheduleHistoryId, history.id));
  await tx.insert(results).values({
    scheduleHistoryId: history.id,
    score: correct,
    maxScore: max,
    correctCount: correct,
    questionCount: max,
    passed: max > 0 && correct * 100 >= exam.passPercent * max,
    scoredAt: now,
  });
  if (units.size > 0) {
    await tx.insert(resultUnits).values([...units].map(([unit, counts]) => ({ scheduleHistoryId: history.id, unit, ...counts })));
  }
  await tx.update(scheduleHistories).set({ status: next }).where(eq(scheduleHistories.id, history.id));
  return true;
}

/** Statuses that keep a cohort open: the exam may still be sat, finished or scored. */
const openStatuses: readonly number[] = [S.PENDING, S.DOING, S.COMPLETED];

/** Ranks the level's closed cohorts and writes its unit statistics; returns how many sittings were ranked. */
export async function computeLevelStatistics(tx: Tx, levelId: number, now: Date): Promise<number> {
  const sittings = await tx
    .select({
      id: scheduleHistories.id,
      status: scheduleHistories.status,
      scheduleId: scheduleHistories.scheduleId,
      endsAt: schedules.endsAt,
      organizationId: examinees.organizationId,
    })
    .from(scheduleHistories)
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .innerJoin(schedules, eq(schedules.id, scheduleHistories.scheduleId))
    .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
    .where(eq(exams.levelId, levelId))
    .orderBy(asc(scheduleHistories.id))
    .for('update', { of: scheduleHistories });

  const openByCohort = new Map<number, number>();
  for (const s of sittings) {
    openByCohort.set(s.scheduleId, (openByCohort.get(s.scheduleId) ?? 0) + (openStatuses.includes(s.status) ? 1 : 0));
  }
  // The machine decides who is in: its guard checks that the cohort is closed.
  const ranked = sittings.flatMap((s) => {
    if (!isScoredStatus(s.status)) return [];
    const next = nextStatus(s.status, {
      type: 'statistics.completed',
      now: now.getTime(),
      scheduleEndsAt: s.endsAt.getTime(),
      openSittings: openByCohort.get(s.scheduleId) ?? 0,
    });
    return next === undefined ? [] : [{ ...s, next }];
  });
  if (ranked.length === 0) return 0;

  const ids = ranked.map((s) => s.id);
  const scores = new Map(
    (await tx.select({ id: results.scheduleHistoryId, score: results.score }).from(results).where(inArray(results.scheduleHistoryId, ids))).map(
      (r) => [r.id, r.score],
    ),
  );
  const population = ranked.filter((s) => scores.has(s.id));
  const total = population.length;
  for (const s of population) {
    const mine = scores.get(s.id)!;
    const rank = 1 + population.filter((o) => scores.get(o.id)! > mine).length;
    await tx.update(results).set({ rank, rankTotal: total, statisticsAt: now }).where(eq(results.scheduleHistoryId, s.id));
    if (s.next !== s.status) await tx.update(scheduleHistories).set({ status: s.next }).where(eq(scheduleHistories.id, s.id));
  }

  const unitRows = await tx
    .select({ id: resultUnits.scheduleHistoryId, unit: resultUnits.unit, questionCount: resultUnits.questionCount, correctCount: resultUnits.correctCount })
    .from(resultUnits)
    .where(inArray(resultUnits.scheduleHistoryId, population.map((s) => s.id)));
  const organizationOf = new Map(population.map((s) => [s.id, s.organizationId]));
  type Sum = { questions: number; correct: number; sittings: Set<number> };
  const sums = new Map<string, Sum & { organizationId: number | null; unit: string }>();
  const add = (organizationId: number | null, row: (typeof unitRows)[number]) => {
    const key = `${organizationId ?? ''}|${row.unit}`;
    const sum = sums.get(key) ?? { organizationId, unit: row.unit, questions: 0, correct: 0, sittings: new Set<number>() };
    sum.questions += row.questionCount;
    sum.correct += row.correctCount;
    sum.sittings.add(row.id);
    sums.set(key, sum);
  };
  for (const row of unitRows) {
    add(null, row);
    add(organizationOf.get(row.id) ?? null, row);
  }
  for (const sum of sums.values()) {
    const values = { examineeCount: sum.sittings.size, correctRate: percent(sum.correct, sum.questions), computedAt: now };
    await tx
      .insert(unitStatistics)
      .values({ levelId, organizationId: sum.organizationId, unit: sum.unit, ...values })
      .onConflictDoUpdate({ target: [unitStatistics.levelId, unitStatistics.organizationId, unitStatistics.unit], set: values });
  }
  return total;
}

export async function releaseResult(tx: Tx, scheduleHistoryId: number, now: Date): Promise<boolean> {
  const history = await lockHistory(tx, scheduleHistoryId);
  if (!history || history.finishedAt === null) return false;
  const next = nextStatus(history.status, { type: 'result.released', now: now.getTime(), finishedAt: history.finishedAt.getTime() });
  if (next === undefined || next === history.status) return false;
  await tx.update(scheduleHistories).set({ status: next }).where(eq(scheduleHistories.id, history.id));
  await tx.update(results).set({ releasedAt: now }).where(eq(results.scheduleHistoryId, history.id));
  await enqueueDocuments(tx, history.id, now);
  return true;
}

/** Returns how many sittings expired. */
export async function expireSchedule(tx: Tx, scheduleId: number, now: Date): Promise<number> {
  const [schedule] = await tx.select({ endsAt: schedules.endsAt }).from(schedules).where(eq(schedules.id, scheduleId));
  if (!schedule) return 0;
  const pending = await tx
    .select({ id: scheduleHistories.id, status: scheduleHistories.status })
    .from(scheduleHistories)
    .where(and(eq(scheduleHistories.scheduleId, scheduleId), eq(scheduleHistories.status, S.PENDING)))
    .for('update');
  let expired = 0;
  for (const row of pending) {
    const next = nextStatus(row.status, { type: 'schedule.ended', now: now.getTime(), scheduleEndsAt: schedule.endsAt.getTime() });
    if (next === undefined) continue;
    await tx.update(scheduleHistories).set({ status: next }).where(eq(scheduleHistories.id, row.id));
    expired++;
  }
  return expired;
}

export async function autoFinishSitting(tx: Tx, scheduleHistoryId: number, now: Date, uploadWindowMs: number): Promise<boolean> {
  const history = await lockHistory(tx, scheduleHistoryId);
  if (!history || history.deadlineAt === null) return false;
  const next = nextStatus(history.status, {
    type: 'exam.autoFinished',
    now: now.getTime(),
    deadlineAt: history.deadlineAt.getTime(),
    uploadWindowMs,
  });
  if (next === undefined) return false;
  const receipt = await receiptOf(tx, history.id);
  await tx
    .update(scheduleHistories)
    .set({ status: next, finishedAt: history.deadlineAt, answerCount: receipt.answerCount, answersDigest: receipt.digest })
    .where(eq(scheduleHistories.id, history.id));
  await enqueueScoring(tx, history.id, now);
  return true;
}

/** Asks for the scoring of a finished sitting (idempotent while one is pending). */
export async function enqueueScoring(tx: Tx, scheduleHistoryId: number, now: Date): Promise<void> {
  await enqueueJob(tx, { kind: 'score', key: `score:${scheduleHistoryId}`, payload: { scheduleHistoryId }, runAt: now });
}
