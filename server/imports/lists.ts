/**
 * What the roster imports filled in, as the console lists it: the schools with their classrooms
 * and test periods, and a school's pupils with their login codes. `organizationId`: a proctor's
 * organisation (they see only it), or null for an administrator (everything).
 */
import { and, asc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { PUPILS_LISTED, type Pupil, type School } from '../../contract/imports.ts';
import { normalizeLoginCode } from '../../contract/session.ts';
import type { Db } from '../db/client.ts';
import { examinees, organizations, schedules, venues } from '../db/schema.ts';

export async function listSchools(db: Db, organizationId: number | null): Promise<School[]> {
  const orgs = await db
    .select()
    .from(organizations)
    .where(organizationId === null ? undefined : eq(organizations.id, organizationId))
    .orderBy(asc(organizations.code));
  const ids = orgs.map((org) => org.id);
  if (ids.length === 0) return [];
  const rooms = await db.select().from(venues).where(inArray(venues.organizationId, ids)).orderBy(asc(venues.name));
  const periods = await db.select().from(schedules).where(inArray(schedules.organizationId, ids)).orderBy(asc(schedules.startsAt), asc(schedules.scheduleCode));
  return orgs.map((org) => ({
    code: org.code,
    name: org.name,
    category: org.category,
    login_method: org.loginMethod,
    disabled: org.disabled,
    venues: rooms.filter((room) => room.organizationId === org.id).map((room) => ({ id: room.id, name: room.name, disabled: room.disabled })),
    schedules: periods
      .filter((period) => period.organizationId === org.id)
      .map((period) => ({ code: period.scheduleCode, name: period.name, starts_at: period.startsAt.toISOString(), ends_at: period.endsAt.toISOString() })),
  }));
}

/** `q` matches a part of the name or pupil id, or the login code (typed in any case, hyphens or not); at most PUPILS_LISTED, by class then name. */
export async function listPupils(
  db: Db,
  filter: { organizationId: number | null; school?: string | undefined; q?: string | undefined; venue?: number | undefined },
): Promise<Pupil[]> {
  const where: SQL[] = [];
  if (filter.organizationId !== null) where.push(eq(examinees.organizationId, filter.organizationId));
  if (filter.school !== undefined) where.push(eq(organizations.code, filter.school));
  if (filter.venue !== undefined) where.push(eq(examinees.venueId, filter.venue));
  if (filter.q !== undefined && filter.q !== '') {
    const like = `%${filter.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const code = normalizeLoginCode(filter.q);
    where.push(or(ilike(examinees.name, like), ilike(examinees.externalId, like), ...(code === undefined ? [] : [eq(examinees.loginCode, code)]))!);
  }
  const rows = await db
    .select({ pupil: examinees, venueName: venues.name })
    .from(examinees)
    .innerJoin(organizations, eq(organizations.id, examinees.organizationId))
    .leftJoin(venues, eq(venues.id, examinees.venueId))
    .where(and(...where))
    .orderBy(asc(examinees.className), asc(examinees.name), asc(examinees.id))
    .limit(PUPILS_LISTED);
  return rows.map(({ pupil, venueName }) => ({
    id: pupil.id,
    external_id: pupil.externalId,
    name: pupil.name,
    class_name: pupil.className,
    venue: pupil.venueId === null || venueName === null ? null : { id: pupil.venueId, name: venueName },
    login_code: pupil.loginCode,
    login_id: pupil.loginId,
    locale: pupil.locale,
  }));
}
