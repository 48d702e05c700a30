/**
 * The sweep: finds the results lifecycle's due work in the data and enqueues it (enqueue is
 * idempotent by key, so sweeping again is harmless). What is due at `now`:
 * - auto-finish: DOING sittings whose deadline + upload window has passed;
 * - score: COMPLETED sittings (normally enqueued at finish; this catches any left behind);
 * - expire: ended schedules that still have PENDING sittings;
 * - statistics: levels with a scored, unranked sitting in a closed cohort (schedule ended, no
 *   sitting of it at that level PENDING, DOING or unscored);
 * - release: scored, unreleased sittings one week after the exam.
 */
import { and, eq, inArray, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { RESULT_RELEASE_MS } from '../../machines/schedule-history/schedule-history.machine.ts';
import type { Db } from '../db/client.ts';
import { exams, results, scheduleHistories, schedules } from '../db/schema.ts';
import { enqueueJob } from './queue.ts';

const S = ScheduleHistoryStatus;

/** Returns how many jobs were added. */
export async function sweep(db: Db, now: Date, options: { uploadWindowMs: number }): Promise<number> {
  let added = 0;
  const add = async (kind: Parameters<typeof enqueueJob>[1]['kind'], key: string, payload: Record<string, unknown>) => {
    if (await enqueueJob(db, { kind, key, payload, runAt: now })) added++;
  };

  const overdue = await db
    .select({ id: scheduleHistories.id })
    .from(scheduleHistories)
    .where(and(eq(scheduleHistories.status, S.DOING), lt(scheduleHistories.deadlineAt, new Date(now.getTime() - options.uploadWindowMs))));
  for (const { id } of overdue) await add('auto-finish', `auto-finish:${id}`, { scheduleHistoryId: id });

  const unscored = await db.select({ id: scheduleHistories.id }).from(scheduleHistories).where(eq(scheduleHistories.status, S.COMPLETED));
  for (const { id } of unscored) await add('score', `score:${id}`, { scheduleHistoryId: id });

  const ended = await db
    .selectDistinct({ id: schedules.id })
    .from(schedules)
    .innerJoin(scheduleHistories, eq(scheduleHistories.scheduleId, schedules.id))
    .where(and(lt(schedules.endsAt, now), eq(scheduleHistories.status, S.PENDING)));
  for (const { id } of ended) await add('expire', `expire:schedule:${id}`, { scheduleId: id });

  const other = alias(scheduleHistories, 'other');
  const otherExam = alias(exams, 'other_exam');
  const levels = await db
    .selectDistinct({ levelId: exams.levelId })
    .from(scheduleHistories)
    .innerJoin(results, eq(results.scheduleHistoryId, scheduleHistories.id))
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .innerJoin(schedules, eq(schedules.id, scheduleHistories.scheduleId))
    .where(
      and(
        isNull(results.statisticsAt),
        inArray(scheduleHistories.status, [S.SCORING_COMPLETED, S.STATISTIC_COMPLETED, S.RESULT_PUBLIC]),
        lt(schedules.endsAt, now),
        notExists(
          db
            .select({ one: sql`1` })
            .from(other)
            .innerJoin(otherExam, eq(otherExam.id, other.examId))
            .where(
              and(
                eq(other.scheduleId, scheduleHistories.scheduleId),
                eq(otherExam.levelId, exams.levelId),
                inArray(other.status, [S.PENDING, S.DOING, S.COMPLETED]),
              ),
            ),
        ),
      ),
    );
  for (const { levelId } of levels) await add('statistics', `statistics:level:${levelId}`, { levelId });

  const releasable = await db
    .select({ id: scheduleHistories.id })
    .from(scheduleHistories)
    .where(
      and(
        inArray(scheduleHistories.status, [S.SCORING_COMPLETED, S.STATISTIC_COMPLETED]),
        lte(scheduleHistories.finishedAt, new Date(now.getTime() - RESULT_RELEASE_MS)),
      ),
    );
  for (const { id } of releasable) await add('release', `release:${id}`, { scheduleHistoryId: id });

  return added;
}
