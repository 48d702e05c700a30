/**
 * The test periods file (schedules), keyed by `code` (unique in the deployment, matched in any
 * case). Columns: code, school, starts_at, ends_at, exams (required); name, classroom, mode
 * (optional: a column left out keeps what is stored, an empty cell is the default).
 *
 * Rules:
 * - starts_at / ends_at are ISO 8601 with an offset ('bad_date' otherwise); the end must be after
 *   the start ('bad_window' on ends_at).
 * - exams: exam codes separated by spaces (or commas). A test period gets the latest version of
 *   each at the time the code is first listed; that version stays (pupils are booked into it)
 *   when a newer one is imported later. An exam can be taken out only while nobody has a sitting
 *   of it in this test period ('started_cannot_change').
 * - A test period belongs to one school for good: another school code is 'invalid'.
 * - mode: personal or group (default group: a school that imports its pupils applied for them).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { ApplicationMode } from '../../contract/enums.ts';
import type { Tx } from '../db/client.ts';
import { exams, organizations, scheduleExams, scheduleHistories, schedules, venues } from '../db/schema.ts';
import { checkRecords, codeCell, fold, instantCell, optionalCell, overlay, plannedRow, planRows, refused, requiredText, type PlannedRow, type RosterImporter } from './plan.ts';
import { organizationsByCode, venuesOf } from './venues.ts';

const ScheduleRowSchema = v.object({
  code: codeCell,
  school: codeCell,
  name: optionalCell(v.pipe(v.string(), v.maxLength(200, 'too_long')), ''),
  classroom: optionalCell(v.pipe(v.string(), v.maxLength(200, 'too_long')), null),
  starts_at: v.pipe(v.string(), v.nonEmpty('required'), instantCell),
  ends_at: v.pipe(v.string(), v.nonEmpty('required'), instantCell),
  mode: optionalCell(v.pipe(v.string(), v.toLowerCase(), v.picklist(['personal', 'group'], 'invalid')), 'group' as const),
  exams: v.pipe(requiredText(2000), v.transform((text) => [...new Set(text.split(/[\s,]+/).filter((code) => code !== ''))])),
});

type ScheduleState = { school: string; name: string; classroom: string | null; starts_at: string; ends_at: string; mode: 'personal' | 'group'; exams: string };

/** The latest version of each exam code (in any case), by folded code. */
export async function latestExams(tx: Tx, codes: Iterable<string>): Promise<Map<string, { id: number; code: string; version: number }>> {
  const folded = [...new Set([...codes].map(fold))];
  const latest = new Map<string, { id: number; code: string; version: number }>();
  if (folded.length === 0) return latest;
  const rows = await tx.select({ id: exams.id, code: exams.code, version: exams.version }).from(exams).where(inArray(sql`lower(${exams.code})`, folded));
  for (const row of rows) {
    const seen = latest.get(fold(row.code));
    if (!seen || seen.version < row.version) latest.set(fold(row.code), row);
  }
  return latest;
}

export const schedulesImporter: RosterImporter = {
  kind: 'schedules',
  columns: { required: ['code', 'school', 'starts_at', 'ends_at', 'exams'], optional: ['name', 'classroom', 'mode'] },
  async plan(tx, table) {
    const checked = checkRecords(table.records, ScheduleRowSchema, { columns: ['code'], of: (cells) => cells.code ?? '', folded: (cells) => fold(cells.code ?? '') });
    const valid = checked.flatMap((c) => (c.value ? [c.value] : []));
    const schools = await organizationsByCode(tx, valid.map((row) => row.school));
    const rooms = await venuesOf(tx, [...schools.values()].map((school) => school.id));
    const examsByCode = await latestExams(tx, valid.flatMap((row) => row.exams));

    const codes = [...new Set(valid.map((row) => fold(row.code)))];
    const stored =
      codes.length === 0
        ? []
        : await tx
            .select({ schedule: schedules, orgCode: organizations.code, venueName: venues.name })
            .from(schedules)
            .innerJoin(organizations, eq(organizations.id, schedules.organizationId))
            .leftJoin(venues, eq(venues.id, schedules.venueId))
            .where(inArray(sql`lower(${schedules.scheduleCode})`, codes));
    const storedIds = stored.map((row) => row.schedule.id);
    const links =
      storedIds.length === 0
        ? []
        : await tx
            .select({
              scheduleId: scheduleExams.scheduleId,
              examId: exams.id,
              code: exams.code,
              sittings: sql<number>`(select count(*)::int from ${scheduleHistories} where ${scheduleHistories.scheduleId} = ${scheduleExams.scheduleId} and ${scheduleHistories.examId} = ${exams.id})`,
            })
            .from(scheduleExams)
            .innerJoin(exams, eq(exams.id, scheduleExams.examId))
            .where(inArray(scheduleExams.scheduleId, storedIds));
    const byCode = new Map(stored.map((row) => [fold(row.schedule.scheduleCode), row]));

    type Change = { id: number | null; code: string; organizationId: number; venueId: number | null; state: ScheduleState; addExamIds: number[]; removeExamIds: number[] };
    const changes: Change[] = [];
    const rows = planRows(checked, (c, row) => {
      const problems: PlannedRow['problems'] = [];
      const school = schools.get(fold(row.school));
      if (!school) problems.push({ column: 'school', reason: 'unknown_school', value: row.school });
      const room = school && row.classroom ? rooms.get(`${school.id}/${row.classroom}`) : undefined;
      if (school && row.classroom && !room) problems.push({ column: 'classroom', reason: 'unknown_classroom', value: row.classroom });
      if (row.ends_at <= row.starts_at) problems.push({ column: 'ends_at', reason: 'bad_window', value: c.record.cells.ends_at ?? '' });
      for (const code of row.exams) if (!examsByCode.has(fold(code))) problems.push({ column: 'exams', reason: 'unknown_exam', value: code });

      const existing = byCode.get(fold(row.code));
      const linked = existing ? links.filter((link) => link.scheduleId === existing.schedule.id) : [];
      const listed = new Set(row.exams.map(fold));
      if (existing && school && existing.schedule.organizationId !== school.id) problems.push({ column: 'school', reason: 'invalid', value: row.school });
      for (const link of linked) {
        if (!listed.has(fold(link.code)) && link.sittings > 0) problems.push({ column: 'exams', reason: 'started_cannot_change', value: link.code });
      }
      if (problems.length > 0 || !school) return refused(c, problems);

      const examCodes = (codes: string[]) => [...codes].sort().join(' ');
      const before: ScheduleState | null = existing
        ? {
            school: existing.orgCode,
            name: existing.schedule.name,
            classroom: existing.venueName,
            starts_at: existing.schedule.startsAt.toISOString(),
            ends_at: existing.schedule.endsAt.toISOString(),
            mode: existing.schedule.applicationMode === ApplicationMode.PERSONAL ? 'personal' : 'group',
            exams: examCodes(linked.map((link) => link.code)),
          }
        : null;
      const linkedCodes = new Set(linked.map((link) => fold(link.code)));
      const keptCodes = linked.filter((link) => listed.has(fold(link.code))).map((link) => link.code);
      const added = row.exams.filter((code) => !linkedCodes.has(fold(code))).map((code) => examsByCode.get(fold(code))!);
      const fresh: ScheduleState = { school: school.code, name: '', classroom: null, starts_at: row.starts_at, ends_at: row.ends_at, mode: 'group', exams: '' };
      const after = overlay(before ?? fresh, {
        name: row.name,
        classroom: row.classroom === undefined ? undefined : (room?.name ?? null),
        starts_at: row.starts_at,
        ends_at: row.ends_at,
        mode: row.mode,
        exams: examCodes([...keptCodes, ...added.map((exam) => exam.code)]),
      });
      const planned = plannedRow(c, `schedule:${existing?.schedule.scheduleCode ?? row.code}`, before, after);
      if (planned.outcome === 'create' || planned.outcome === 'update') {
        changes.push({
          id: existing?.schedule.id ?? null,
          code: row.code,
          organizationId: school.id,
          venueId: after.classroom === null ? null : (room?.id ?? existing?.schedule.venueId ?? null),
          state: after,
          addExamIds: added.map((exam) => exam.id),
          removeExamIds: linked.filter((link) => !listed.has(fold(link.code))).map((link) => link.examId),
        });
      }
      return planned;
    });

    return {
      rows,
      async apply(tx: Tx) {
        for (const change of changes) {
          const columns = {
            name: change.state.name,
            venueId: change.venueId,
            startsAt: new Date(change.state.starts_at),
            endsAt: new Date(change.state.ends_at),
            applicationMode: change.state.mode === 'personal' ? ApplicationMode.PERSONAL : ApplicationMode.GROUP,
          };
          let id = change.id;
          if (id === null) {
            const [created] = await tx
              .insert(schedules)
              .values({ scheduleCode: change.code, organizationId: change.organizationId, ...columns })
              .returning({ id: schedules.id });
            id = created!.id;
          } else {
            await tx.update(schedules).set(columns).where(eq(schedules.id, id));
          }
          if (change.removeExamIds.length > 0) {
            await tx.delete(scheduleExams).where(and(eq(scheduleExams.scheduleId, id), inArray(scheduleExams.examId, change.removeExamIds)));
          }
          if (change.addExamIds.length > 0) {
            await tx
              .insert(scheduleExams)
              .values(change.addExamIds.map((examId) => ({ scheduleId: id, examId })))
              .onConflictDoNothing();
          }
        }
      },
    };
  },
};
