/**
 * What a pupil reads of their own result (seed section 2 "Score report content", section 3
 * "Result"): the short result and the full score report. Both only for the caller's own
 * sitting (NOT_FOUND otherwise), only when the shared availability rule
 * (machines/schedule-history/schedule-history.selectors.ts) says viewable: from one week after
 * the exam (RESULT_NOT_RELEASED before, or while not scored), for two years
 * (RESULT_VIEW_EXPIRED after). The score report also needs the result sheet bought
 * (PAYMENT_REQUIRED). Percentages are rounded to one decimal.
 */
import { titleIn, type CallerLanguages } from './exam-titles.ts';
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { DisplayFlag, ScheduleHistoryStatus } from '../../contract/enums.ts';
import { type ErrorCode } from '../../contract/errors.ts';
import { type Rating, type ScoreReport, type ShortResult } from '../../contract/results.ts';
import { resultAvailability, viewableUntil, type ResultAvailability } from '../../machines/schedule-history/schedule-history.selectors.ts';
import type { Db } from '../db/client.ts';
import {
  answers,
  examinees,
  exams,
  organizations,
  questions,
  resultUnits,
  results,
  scheduleHistories,
  unitStatistics,
  venues,
} from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { ownedBy } from './purchases.ts';
import { percent } from './results-lifecycle.ts';
import { isCorrect } from './scoring.ts';
import { loadOwnSitting, type Sitting } from './sitting.ts';
import type { Principal } from './tokens.ts';

type WithoutServerTime<T> = Omit<T, 'server_time'>;

/** Why results are not shown: not started, never taken (EXPIRED), cancelled, not yet or no longer. */
function refusalOf(availability: Exclude<ResultAvailability, 'viewable'>, status: number): ErrorCode {
  if (availability === 'not_finished') {
    if (status === ScheduleHistoryStatus.PENDING) return 'EXAM_NOT_STARTED';
    if (status === ScheduleHistoryStatus.EXPIRED) return 'EXPIRED';
    return 'RESULT_NOT_RELEASED';
  }
  if (availability === 'cancelled') return 'ER_SCHEDULE_HISTORY_CANCELLED';
  return availability === 'expired' ? 'RESULT_VIEW_EXPIRED' : 'RESULT_NOT_RELEASED';
}

/** The caller's viewable sitting with its result row, or the refusal. */
async function viewableResult(db: Db, principal: Principal, scheduleHistoryId: number, now: Date) {
  const sitting = await loadOwnSitting(db, principal, scheduleHistoryId);
  const { history } = sitting;
  const availability = resultAvailability({ status: history.status, finishedAt: history.finishedAt, now });
  if (availability !== 'viewable') throw new DomainError(refusalOf(availability, history.status));
  const [result] = await db.select().from(results).where(eq(results.scheduleHistoryId, history.id));
  // Scored statuses always have a result; a missing one is waiting for scoring again (a reset).
  if (!result || history.finishedAt === null) throw new DomainError('RESULT_NOT_RELEASED');
  return { sitting, result, finishedAt: history.finishedAt };
}

function subjectAndLevel(sitting: Sitting) {
  return {
    subject: { id: sitting.subject.id as ShortResult['subject']['id'], name: sitting.subject.name },
    level: { id: sitting.level.id, name: sitting.level.name, order: sitting.level.position },
  };
}

/** A reader of the caller's own result (the short result, the score report): what viewableResult lets through, as `View`. */
type ResultReader<View> = (db: Db, principal: Principal, scheduleHistoryId: number, now: Date, wanted: CallerLanguages) => Promise<WithoutServerTime<View>>;

export const shortResult: ResultReader<ShortResult> = async (db, principal, scheduleHistoryId, now) => {
  const { sitting, result, finishedAt } = await viewableResult(db, principal, scheduleHistoryId, now);
  return {
    schedule_history_id: sitting.history.id,
    ...subjectAndLevel(sitting),
    exam_date: finishedAt.toISOString(),
    score: result.score,
    max_score: result.maxScore,
    passed: result.passed,
    correct_count: result.correctCount,
    question_count: result.questionCount,
    correct_rate: percent(result.correctCount, result.questionCount),
    viewable_until: viewableUntil(finishedAt).toISOString(),
  };
};

/** Whole years between a birth date (YYYY-MM-DD) and an instant (UTC calendar). */
export function ageAt(birthDate: string, at: Date): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate);
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  let age = at.getUTCFullYear() - y;
  const month = at.getUTCMonth() + 1;
  if (month < m || (month === m && at.getUTCDate() < d)) age--;
  return age >= 0 ? age : null;
}

/** A (90 % and more), B (75 %), C (passed), D (not passed): the contract's RatingSchema. */
export function ratingOf(correctRate: number, passed: boolean): Rating {
  if (!passed) return 'D';
  if (correctRate >= 90) return 'A';
  if (correctRate >= 75) return 'B';
  return 'C';
}

export const scoreReport: ResultReader<ScoreReport> = async (db, principal, scheduleHistoryId, now, wanted) => {
  const { sitting, result, finishedAt } = await viewableResult(db, principal, scheduleHistoryId, now);
  const owned = await ownedBy(db, sitting.history.id);
  if (owned.items.result_sheet !== 2) throw new DomainError('PAYMENT_REQUIRED', 'The result sheet has not been bought.');

  const [about] = await db
    .select({
      birthDate: examinees.birthDate,
      organizationId: examinees.organizationId,
      organizationName: organizations.name,
      organizationRegion: organizations.region,
      rankDisplayFlag: organizations.rankDisplayFlag,
      title: exams.title,
      titles: exams.titles,
      passPercent: exams.passPercent,
      levelId: exams.levelId,
    })
    .from(scheduleHistories)
    .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
    .innerJoin(organizations, eq(organizations.id, examinees.organizationId))
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .where(eq(scheduleHistories.id, sitting.history.id));
  if (!about) throw new DomainError('NOT_FOUND');
  let region = about.organizationRegion;
  if (sitting.schedule.venueId !== null) {
    const [venue] = await db.select({ region: venues.region }).from(venues).where(eq(venues.id, sitting.schedule.venueId));
    region = venue?.region ?? region;
  }

  const correctRate = percent(result.correctCount, result.questionCount);
  const statisticsDone = result.statisticsAt !== null;
  const units = await db
    .select()
    .from(resultUnits)
    .where(eq(resultUnits.scheduleHistoryId, sitting.history.id))
    .orderBy(asc(resultUnits.unit));
  const averages = statisticsDone
    ? await db
        .select({ organizationId: unitStatistics.organizationId, unit: unitStatistics.unit, correctRate: unitStatistics.correctRate })
        .from(unitStatistics)
        .where(
          and(
            eq(unitStatistics.levelId, about.levelId),
            or(isNull(unitStatistics.organizationId), eq(unitStatistics.organizationId, about.organizationId)),
          ),
        )
    : [];
  const averageOf = (unit: string, organizationId: number | null) =>
    averages.find((a) => a.unit === unit && a.organizationId === organizationId)?.correctRate ?? null;

  return {
    schedule_history_id: sitting.history.id,
    examinee: {
      name: sitting.examinee.name,
      age: about.birthDate === null ? null : ageAt(about.birthDate, finishedAt),
      grade_id: sitting.examinee.gradeId,
      region,
      organization_name: about.organizationName,
    },
    exam: { ...subjectAndLevel(sitting), title: titleIn(about, wanted), exam_date: finishedAt.toISOString() },
    result: {
      score: result.score,
      max_score: result.maxScore,
      pass_score: Math.ceil((about.passPercent * result.maxScore) / 100),
      passed: result.passed,
      correct_count: result.correctCount,
      question_count: result.questionCount,
      correct_rate: correctRate,
      rating: ratingOf(correctRate, result.passed),
    },
    rank: rankOf(result, about.rankDisplayFlag),
    // The distribution with the pupil's score marked shows their place: hidden with the rank.
    distribution: showsRanking(about.rankDisplayFlag) ? await distributionAt(db, about.levelId, result.maxScore) : null,
    units: units.map((u) => {
      const all = averageOf(u.unit, null);
      const organization = averageOf(u.unit, about.organizationId);
      return {
        unit: u.unit,
        question_count: u.questionCount,
        correct_count: u.correctCount,
        correct_rate: percent(u.correctCount, u.questionCount),
        average_all: all === null ? null : Math.round(all * 10) / 10,
        average_organization: organization === null ? null : Math.round(organization * 10) / 10,
      };
    }),
    wrong_answer_example: await wrongAnswerExample(db, sitting.history.id, sitting.history.examId),
    certificate_available: result.passed && owned.items.certificate === 2,
    viewable_until: viewableUntil(finishedAt).toISOString(),
  };
};

/**
 * Whether the pupil's organisation shows rankings: not when its display flag is 3 (seed section 3,
 * "Display flags: 1 display, 3 hide"). Hidden, the score report carries neither the rank nor the
 * level's score distribution (which, with the pupil's score marked, tells them their place).
 */
export function showsRanking(displayFlag: number): boolean {
  return displayFlag !== DisplayFlag.HIDE;
}

/**
 * The rank at the level as the pupil may see it: hidden (neither position nor total sent) when
 * their organisation does not show rankings (`showsRanking`).
 */
export function rankOf(result: { rank: number | null; rankTotal: number | null }, displayFlag: number): ScoreReport['rank'] {
  if (!showsRanking(displayFlag)) return { status: 'hidden' };
  return result.rank !== null && result.rankTotal !== null
    ? { status: 'complete', position: result.rank, total: result.rankTotal }
    : { status: 'in_progress' };
}

/** How many scored examinees of the level got each score, 0 to `maxScore`. */
async function distributionAt(db: Db, levelId: number, maxScore: number) {
  const rows = await db
    .select({ score: results.score })
    .from(results)
    .innerJoin(scheduleHistories, eq(scheduleHistories.id, results.scheduleHistoryId))
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .where(
      and(
        eq(exams.levelId, levelId),
        inArray(scheduleHistories.status, [
          ScheduleHistoryStatus.SCORING_COMPLETED,
          ScheduleHistoryStatus.STATISTIC_COMPLETED,
          ScheduleHistoryStatus.RESULT_PUBLIC,
        ]),
      ),
    );
  const counts = Array.from({ length: maxScore + 1 }, (_, score) => ({ score, count: 0 }));
  for (const { score } of rows) if (score <= maxScore) counts[score]!.count++;
  return counts;
}

/** The first question answered wrongly (else the first left unanswered), with the right answer as display text. */
async function wrongAnswerExample(db: Db, scheduleHistoryId: number, examId: number): Promise<ScoreReport['wrong_answer_example']> {
  const paper = await db.select().from(questions).where(eq(questions.examId, examId)).orderBy(asc(questions.number));
  const given = new Map(
    (await db.select({ questionId: answers.questionId, value: answers.value }).from(answers).where(eq(answers.scheduleHistoryId, scheduleHistoryId))).map(
      (a) => [a.questionId, a.value],
    ),
  );
  const wrong = paper.filter((q) => !isCorrect(q, given.get(q.id) ?? ''));
  const pick = wrong.find((q) => (given.get(q.id) ?? '') !== '') ?? wrong[0];
  if (!pick) return null;
  return {
    question_number: pick.number,
    unit: pick.unit,
    type: pick.type,
    prompt: pick.prompt,
    math: pick.math,
    given: displayAnswer(pick, given.get(pick.id) ?? ''),
    correct: displayAnswer(pick, pick.correctAnswer),
  };
}

/** An answer as the pupil saw it: choice and block labels instead of ids. */
export function displayAnswer(question: typeof questions.$inferSelect, value: string): string {
  if (value === '') return '';
  switch (question.type) {
    case 'single_choice':
      return question.choices.find((c) => c.id === value)?.label ?? value;
    case 'ordering':
      return value
        .split(',')
        .map((id) => question.blocks.find((b) => b.id === id)?.label ?? id)
        .join(' → ');
    default:
      return value;
  }
}
