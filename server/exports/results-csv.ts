/**
 * The results of a test period (optionally of one classroom) as a CSV for the school
 * (csv-writer.ts: UTF-8 with BOM, CRLF, formula cells neutralised). One row per sitting, sorted
 * by classroom, class, pupil name and exam:
 *
 *   pupil id, pupil name, class, classroom, login code, exam, status, score, max score,
 *   correct rate %, one column per unit of the test period's exams ("unit: <name>", cells
 *   "correct/total"), passed (yes/no), and rank ("n/m") only when the school shows ranks
 *   (organizations.rank_display_flag 1; seed section 3's display flags).
 *
 * A sitting without a result yet (not finished, not scored) has its status and empty result
 * cells. Units are in the order the exam asks them (their first question); a unit an exam does
 * not have is an empty cell for its sittings.
 */
import { asc, eq, inArray, min } from 'drizzle-orm';
import { DisplayFlag, ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Tx } from '../db/client.ts';
import { examinees, exams, questions, results, resultUnits, scheduleHistories, venues } from '../db/schema.ts';
import { percent } from '../domain/results-lifecycle.ts';
import { writeCsv, type CsvCell } from './csv-writer.ts';
import { classListOrder, pupilColumns, sittingsInScope, type ExportScope } from './scope.ts';

const statusNames = new Map<number, string>(Object.entries(ScheduleHistoryStatus).map(([name, value]) => [value, name]));

export type ResultsCsv = { csv: string; rows: number; fileName: string };

export async function resultsCsv(db: Tx, scope: ExportScope): Promise<ResultsCsv> {
  const sittings = await db
    .select({
      id: scheduleHistories.id,
      status: scheduleHistories.status,
      examId: scheduleHistories.examId,
      externalId: examinees.externalId,
      ...pupilColumns,
      exam: exams.code,
      score: results.score,
      maxScore: results.maxScore,
      correctCount: results.correctCount,
      questionCount: results.questionCount,
      passed: results.passed,
      rank: results.rank,
      rankTotal: results.rankTotal,
    })
    .from(scheduleHistories)
    .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .leftJoin(venues, eq(venues.id, examinees.venueId))
    .leftJoin(results, eq(results.scheduleHistoryId, scheduleHistories.id))
    .where(sittingsInScope(scope))
    .orderBy(...classListOrder, asc(exams.code), asc(scheduleHistories.id));

  const examIds = [...new Set(sittings.map((s) => s.examId))];
  const ids = sittings.map((s) => s.id);
  const [unitRows, scoredUnits] = await Promise.all([
    examIds.length === 0
      ? []
      : db
          .select({ unit: questions.unit, first: min(questions.number), examId: questions.examId })
          .from(questions)
          .where(inArray(questions.examId, examIds))
          .groupBy(questions.examId, questions.unit),
    ids.length === 0 ? [] : db.select().from(resultUnits).where(inArray(resultUnits.scheduleHistoryId, ids)),
  ]);
  // The test period's units in the order its exams ask them (exam by exam, then first question).
  const examOrder = new Map(examIds.map((id, index) => [id, index]));
  const units = [
    ...new Set(
      unitRows
        .sort((a, b) => examOrder.get(a.examId)! - examOrder.get(b.examId)! || (a.first ?? 0) - (b.first ?? 0))
        .map((row) => row.unit),
    ),
  ];
  const unitsOf = new Map<number, Map<string, string>>();
  for (const row of scoredUnits) {
    const cells = unitsOf.get(row.scheduleHistoryId) ?? new Map<string, string>();
    cells.set(row.unit, `${row.correctCount}/${row.questionCount}`);
    unitsOf.set(row.scheduleHistoryId, cells);
  }

  const showsRank = scope.school.rankDisplayFlag === DisplayFlag.DISPLAY;
  const header = [
    'pupil id',
    'pupil name',
    'class',
    'classroom',
    'login code',
    'exam',
    'status',
    'score',
    'max score',
    'correct rate %',
    ...units.map((unit) => `unit: ${unit}`),
    'passed',
    ...(showsRank ? ['rank'] : []),
  ];
  const rows = sittings.map((s): CsvCell[] => {
    const scored = s.score !== null;
    const cells = unitsOf.get(s.id);
    return [
      s.externalId,
      s.name,
      s.className,
      s.classroom,
      s.loginCode,
      s.exam,
      statusNames.get(s.status) ?? String(s.status),
      s.score,
      s.maxScore,
      scored ? percent(s.correctCount!, s.questionCount!) : null,
      ...units.map((unit) => cells?.get(unit) ?? null),
      scored ? (s.passed ? 'yes' : 'no') : null,
      ...(showsRank ? [s.rank === null ? null : `${s.rank}/${s.rankTotal}`] : []),
    ];
  });
  const place = scope.venue ? `-venue-${scope.venue.id}` : '';
  return { csv: writeCsv(header, rows), rows: rows.length, fileName: `results-${safeName(scope.schedule.code)}${place}.csv` };
}

/** A code as part of a file name: letters, digits, dot, dash and underscore only. */
export function safeName(code: string): string {
  return code.replace(/[^A-Za-z0-9._-]/g, '_');
}
