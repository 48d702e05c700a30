/**
 * The pupils file, keyed by (school code, pupil_id): pupil_id is the school's own id of the
 * pupil (examinees.external_id). Columns: school, pupil_id, name (required); class, classroom,
 * grade, email, language, login_id, login_code, schedule, exams, birth_date (optional: a column
 * left out keeps what is stored, an empty cell is the default, empty or null).
 *
 * Rules:
 * - A new pupil gets a login code drawn for them (login-codes.ts) unless the row gives one
 *   (login_code, in the product's format: a school bringing its codes along); a re-import keeps
 *   the pupil's code, and a code given for a stored pupil replaces theirs.
 * - login_id and login_code are unique in the deployment: one another pupil holds, stored or
 *   given in the file, is refused ('duplicate_login_id', 'duplicate_login_code'), unless that
 *   pupil's own row in the file gives them another one: two pupils may swap theirs in one file
 *   (the old values are let go before the new ones are written). A login id gets no password:
 *   pupils log in with their codes.
 * - classroom names a classroom of the pupil's school, schedule a test period of it.
 * - A row with a schedule books the pupil into the exams of that test period they have no
 *   sitting of yet (any version of the exam counts): every one of them, or only those the exams
 *   column lists (codes of the test period's exams, 'unknown_exam' otherwise). PENDING, fresh
 *   random keys; a file never takes a pupil out of a test period.
 * - Everything is written in batches: one upsert per five thousand pupils and one insert per five
 *   thousand sittings, each column sent as one array (unnest), whatever the file's size.
 */
import { randomUUID } from 'node:crypto';
import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { catalogKeys } from '../../contract/languages.ts';
import { LoginCodeSchema } from '../../contract/session.ts';
import type { Tx } from '../db/client.ts';
import { exams, examinees, scheduleExams, scheduleHistories, schedules } from '../db/schema.ts';
import { drawUniqueLoginCodes } from './login-codes.ts';
import {
  checkRecords,
  chunks,
  codeCell,
  dateCell,
  fold,
  optionalCell,
  overlay,
  plannedRow,
  planRows,
  queryRows,
  refused,
  requiredText,
  type ApplyContext,
  type PlannedRow,
  type RosterImporter,
} from './plan.ts';
import { organizationsByCode, venuesOf } from './venues.ts';

const PupilRowSchema = v.object({
  school: codeCell,
  pupil_id: v.pipe(requiredText(64), v.regex(/^[^\s/]+$/u, 'invalid')),
  name: requiredText(200),
  class: optionalCell(v.pipe(v.string(), v.maxLength(64, 'too_long')), ''),
  classroom: optionalCell(v.pipe(v.string(), v.maxLength(200, 'too_long')), null),
  grade: optionalCell(v.pipe(v.string(), v.regex(/^(?:[1-9]|1[0-2]|99)$/, 'invalid'), v.transform(Number)), null),
  email: optionalCell(v.pipe(v.string(), v.maxLength(254, 'too_long'), v.email('invalid')), null),
  language: optionalCell(v.picklist(catalogKeys, 'invalid'), null),
  login_id: optionalCell(v.pipe(v.string(), v.maxLength(64, 'too_long'), v.regex(/^\S+$/u, 'invalid')), null),
  // Empty: the stored code, or one drawn for a new pupil.
  login_code: optionalCell(LoginCodeSchema, null),
  schedule: optionalCell(codeCell, null),
  exams: optionalCell(v.pipe(v.string(), v.maxLength(2000, 'too_long'), v.transform((text) => [...new Set(text.split(/[\s,]+/).filter((code) => code !== ''))])), null),
  birth_date: optionalCell(dateCell, null),
});

type PupilState = {
  name: string;
  class: string;
  classroom: string | null;
  grade: number | null;
  email: string | null;
  language: string | null;
  login_id: string | null;
  login_code: string | null;
  birth_date: string | null;
  /** The test period and exams the row books the pupil into, for sittings not there yet; null: none. */
  sittings_added: string | null;
};

type Booking = { scheduleId: number; examIds: number[] };

type Change = {
  organizationId: number;
  externalId: string;
  /** The stored pupil's id; null for a new pupil. */
  id: number | null;
  /** The pupil's code from now on; null for a new pupil without one in the file (drawn at apply). */
  loginCode: string | null;
  /** The stored pupil's login id or code changes (let go of first, so two pupils can swap). */
  releases: boolean;
  state: PupilState;
  venueId: number | null;
  booking: Booking | null;
};

export const pupilsImporter: RosterImporter = {
  kind: 'pupils',
  columns: {
    required: ['school', 'pupil_id', 'name'],
    optional: ['class', 'classroom', 'grade', 'email', 'language', 'login_id', 'login_code', 'schedule', 'exams', 'birth_date'],
  },
  async plan(tx, table) {
    const checked = checkRecords(table.records, PupilRowSchema, {
      columns: ['school', 'pupil_id'],
      of: (cells) => `${cells.school ?? ''}/${cells.pupil_id ?? ''}`,
      folded: (cells) => `${fold(cells.school ?? '')}/${cells.pupil_id ?? ''}`,
    });
    const valid = checked.flatMap((c) => (c.value ? [c.value] : []));
    const schools = await organizationsByCode(tx, valid.map((row) => row.school));
    const schoolIds = [...schools.values()].map((school) => school.id);
    const rooms = await venuesOf(tx, schoolIds);
    const roomNames = new Map([...rooms.values()].map((room) => [room.id, room.name]));

    const periods = await periodsOf(tx, valid.flatMap((row) => (row.schedule ? [row.schedule] : [])));
    const booked = await sittingsOf(tx, [...periods.values()].map((period) => period.id));

    const stored = new Map<string, typeof examinees.$inferSelect>();
    if (schoolIds.length > 0) {
      const rows = await tx.select().from(examinees).where(and(inArray(examinees.organizationId, schoolIds), isNotNull(examinees.externalId)));
      for (const row of rows) stored.set(`${row.organizationId}/${row.externalId}`, row);
    }
    const loginIdOwners = await ownersOf(tx, examinees.loginId, valid.flatMap((row) => (row.login_id ? [row.login_id] : [])));
    const loginCodeOwners = await ownersOf(tx, examinees.loginCode, valid.flatMap((row) => (row.login_code ? [row.login_code] : [])));
    // What the file gives each stored pupil: an id or code they hold is free when their own row gives them another.
    const givenTo = new Map<number, { login_id: string | null | undefined; login_code: string | null | undefined }>();
    for (const row of valid) {
      const school = schools.get(fold(row.school));
      const existing = school && stored.get(`${school.id}/${row.pupil_id}`);
      if (existing) givenTo.set(existing.id, { login_id: row.login_id, login_code: row.login_code });
    }
    const taken = (owner: number | undefined, self: number | undefined, value: string, column: 'login_id' | 'login_code') => {
      if (owner === undefined || owner === self) return false;
      const given = givenTo.get(owner)?.[column];
      // undefined: the column is absent; null for a code: the stored one is kept.
      return given === undefined || (column === 'login_code' && given === null) || given === value;
    };

    const loginIdsInFile = new Set<string>();
    const loginCodesInFile = new Set<string>();
    const changes: Change[] = [];
    const rows = planRows(checked, (c, row) => {
      const problems: PlannedRow['problems'] = [];
      const school = schools.get(fold(row.school));
      if (!school) return refused(c, [{ column: 'school', reason: 'unknown_school', value: row.school }]);
      const room = row.classroom ? rooms.get(`${school.id}/${row.classroom}`) : undefined;
      if (row.classroom && !room) problems.push({ column: 'classroom', reason: 'unknown_classroom', value: row.classroom });
      const period = row.schedule ? periods.get(fold(row.schedule)) : undefined;
      if (row.schedule && period?.organizationId !== school.id) problems.push({ column: 'schedule', reason: 'unknown_schedule', value: row.schedule });
      if (row.exams && row.exams.length > 0 && !row.schedule) problems.push({ column: 'schedule', reason: 'required' });
      const listed = period && row.exams && row.exams.length > 0 ? row.exams : undefined;
      for (const code of listed ?? []) {
        if (!period!.exams.some((exam) => fold(exam.code) === fold(code))) problems.push({ column: 'exams', reason: 'unknown_exam', value: code });
      }

      const existing = stored.get(`${school.id}/${row.pupil_id}`);
      if (row.login_id) {
        if (taken(loginIdOwners.get(row.login_id), existing?.id, row.login_id, 'login_id') || loginIdsInFile.has(row.login_id)) {
          problems.push({ column: 'login_id', reason: 'duplicate_login_id', value: row.login_id });
        }
        loginIdsInFile.add(row.login_id);
      }
      if (row.login_code) {
        if (taken(loginCodeOwners.get(row.login_code), existing?.id, row.login_code, 'login_code') || loginCodesInFile.has(row.login_code)) {
          problems.push({ column: 'login_code', reason: 'duplicate_login_code', value: row.login_code });
        }
        loginCodesInFile.add(row.login_code);
      }
      if (problems.length > 0) return refused(c, problems);

      const before: PupilState | null = existing
        ? {
            name: existing.name,
            class: existing.className,
            classroom: existing.venueId === null ? null : (roomNames.get(existing.venueId) ?? null),
            grade: existing.gradeId,
            email: existing.email,
            language: existing.locale,
            login_id: existing.loginId,
            login_code: existing.loginCode,
            birth_date: existing.birthDate,
            sittings_added: null,
          }
        : null;
      const empty: PupilState = { name: row.name, class: '', classroom: null, grade: null, email: null, language: null, login_id: null, login_code: null, birth_date: null, sittings_added: null };
      const after = overlay(before ?? empty, {
        name: row.name,
        class: row.class,
        classroom: row.classroom === undefined ? undefined : (room?.name ?? null),
        grade: row.grade,
        email: row.email,
        language: row.language,
        login_id: row.login_id,
        login_code: row.login_code ?? undefined,
        birth_date: row.birth_date,
      });
      let booking: Booking | null = null;
      if (period) {
        const wanted = listed ? listed.map((code) => period.exams.find((exam) => fold(exam.code) === fold(code))!) : period.exams;
        const missing = wanted.filter((exam) => existing === undefined || !booked.has(`${existing.id}/${period.id}/${fold(exam.code)}`));
        if (missing.length > 0) {
          booking = { scheduleId: period.id, examIds: missing.map((exam) => exam.id) };
          after.sittings_added = `${period.code}: ${missing.map((exam) => exam.code).join(' ')}`;
        }
      }
      const planned = plannedRow(c, `pupil:${school.code}/${row.pupil_id}`, before, after);
      if (planned.outcome === 'create' || planned.outcome === 'update') {
        const venueId = after.classroom === null ? null : (room?.id ?? existing?.venueId ?? null);
        const releases = existing !== undefined && (existing.loginId !== after.login_id || existing.loginCode !== after.login_code);
        changes.push({ id: existing?.id ?? null, organizationId: school.id, externalId: row.pupil_id, loginCode: after.login_code, releases, state: after, venueId, booking });
      }
      return planned;
    });

    return { rows, apply: (tx: Tx, context: ApplyContext) => applyPupils(tx, changes, context) };
  },
};

/** The test periods of these codes (in any case) with the exams pupils are booked into. */
async function periodsOf(tx: Tx, codes: readonly string[]) {
  const folded = [...new Set(codes.map(fold))];
  const periods = new Map<string, { id: number; code: string; organizationId: number; exams: { id: number; code: string }[] }>();
  if (folded.length === 0) return periods;
  const rows = await tx
    .select({ id: schedules.id, code: schedules.scheduleCode, organizationId: schedules.organizationId, examId: exams.id, examCode: exams.code })
    .from(schedules)
    .leftJoin(scheduleExams, sql`${scheduleExams.scheduleId} = ${schedules.id}`)
    .leftJoin(exams, sql`${exams.id} = ${scheduleExams.examId}`)
    .where(inArray(sql`lower(${schedules.scheduleCode})`, folded))
    .orderBy(exams.code);
  for (const row of rows) {
    const period = periods.get(fold(row.code)) ?? { id: row.id, code: row.code, organizationId: row.organizationId, exams: [] };
    if (row.examId !== null && row.examCode !== null) period.exams.push({ id: row.examId, code: row.examCode });
    periods.set(fold(row.code), period);
  }
  return periods;
}

/** The sittings of these test periods, as `<examinee>/<schedule>/<folded exam code>`: any version of an exam counts. */
async function sittingsOf(tx: Tx, scheduleIds: readonly number[]): Promise<Set<string>> {
  if (scheduleIds.length === 0) return new Set();
  const rows = await tx
    .select({ examineeId: scheduleHistories.examineeId, scheduleId: scheduleHistories.scheduleId, examCode: exams.code })
    .from(scheduleHistories)
    .innerJoin(exams, sql`${exams.id} = ${scheduleHistories.examId}`)
    .where(inArray(scheduleHistories.scheduleId, [...scheduleIds]));
  return new Set(rows.map((row) => `${row.examineeId}/${row.scheduleId}/${fold(row.examCode)}`));
}

/** Which stored pupil holds each of these login ids or codes. */
async function ownersOf(tx: Tx, column: typeof examinees.loginId | typeof examinees.loginCode, values: readonly string[]): Promise<Map<string, number>> {
  const owners = new Map<string, number>();
  for (const batch of chunks([...new Set(values)], 5000)) {
    const rows = await tx.select({ id: examinees.id, value: column }).from(examinees).where(inArray(column, batch));
    for (const row of rows) if (row.value !== null) owners.set(row.value, row.id);
  }
  return owners;
}

/** Rows per statement: each column goes as one array parameter (unnest), whatever the count. */
const ROWS_PER_STATEMENT = 5000;

async function applyPupils(tx: Tx, changes: readonly Change[], context: ApplyContext): Promise<void> {
  const fresh = await drawUniqueLoginCodes(tx, changes.filter((change) => change.loginCode === null).length);
  // Login ids and codes that change hands are let go of first: a unique index is checked row by row.
  const releasing = changes.flatMap((change) => (change.releases && change.id !== null ? [change.id] : []));
  for (const batch of chunks(releasing, ROWS_PER_STATEMENT)) {
    await tx.execute(sql`update ${examinees} set login_id = null, login_code = '~' || id::text where id = any(${sql.param(batch)}::int[])`);
  }
  const ids = new Map<string, number>();
  let drawn = 0;
  for (const batch of chunks(changes, ROWS_PER_STATEMENT)) {
    const column = <T>(of: (change: Change) => T) => sql.param(batch.map(of));
    const written = await queryRows<{ id: number; organization_id: number; external_id: string }>(tx, sql`
      insert into ${examinees} (organization_id, external_id, login_code, name, class_name, venue_id, grade_id, email, locale, login_id, birth_date)
      select * from unnest(
        ${column((c) => c.organizationId)}::int[], ${column((c) => c.externalId)}::text[], ${column((c) => c.loginCode ?? fresh[drawn++]!)}::text[],
        ${column((c) => c.state.name)}::text[], ${column((c) => c.state.class)}::text[], ${column((c) => c.venueId)}::int[],
        ${column((c) => c.state.grade)}::smallint[], ${column((c) => c.state.email)}::text[], ${column((c) => c.state.language)}::text[],
        ${column((c) => c.state.login_id)}::text[], ${column((c) => c.state.birth_date)}::date[])
      on conflict (organization_id, external_id) do update set
        name = excluded.name, class_name = excluded.class_name, venue_id = excluded.venue_id, grade_id = excluded.grade_id,
        email = excluded.email, locale = excluded.locale, login_id = excluded.login_id, login_code = excluded.login_code, birth_date = excluded.birth_date
      returning id, organization_id, external_id`);
    for (const row of written) ids.set(`${row.organization_id}/${row.external_id}`, row.id);
  }

  const sittings = changes.flatMap((change) =>
    (change.booking?.examIds ?? []).map((examId) => ({ examineeId: ids.get(`${change.organizationId}/${change.externalId}`)!, scheduleId: change.booking!.scheduleId, examId })),
  );
  for (const batch of chunks(sittings, ROWS_PER_STATEMENT)) {
    await tx.execute(sql`
      insert into ${scheduleHistories} (examinee_id, schedule_id, exam_id, user_key, test_key, created_at)
      select examinee_id, schedule_id, exam_id, user_key, test_key, ${context.now.toISOString()}::timestamptz from unnest(
        ${sql.param(batch.map((s) => s.examineeId))}::int[], ${sql.param(batch.map((s) => s.scheduleId))}::int[], ${sql.param(batch.map((s) => s.examId))}::int[],
        ${sql.param(batch.map(() => randomUUID()))}::text[], ${sql.param(batch.map(() => randomUUID()))}::text[])
        as t(examinee_id, schedule_id, exam_id, user_key, test_key)`);
  }
}
