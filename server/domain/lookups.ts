/**
 * What a login page asks before anyone logs in: its organisation (GET /organization), its
 * schedule (GET /schedule) and, for the Android app's entry, the organisation's open schedule
 * (GET /app-schedule). An unknown code, or a schedule that is not the page's organisation's or
 * venue's, is INVALID_SCHEDULE: "venue, organization or schedule URL invalid" (seed section 8).
 * A code is the same code in capitals or small letters (a URL typed by hand, a link that
 * lower-cased it): the exact spelling is looked up first, then the code in any case; what is
 * answered names the code as stored. The logins on a page (server/domain/login.ts) look the page
 * up here too, and the proctor's sign-in and schedules use the same rule (`byCode`).
 */
import { and, asc, eq, gte, lte, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Organization, Schedule } from '../../contract/session.ts';
import type { Db } from '../db/client.ts';
import { organizations, schedules, venues } from '../db/schema.ts';
import { DomainError } from './errors.ts';

type WithoutServerTime<T> = Omit<T, 'server_time'>;

/** The seed's "venue, organization or schedule URL invalid" (section 8). */
export function invalidSchedule(message = 'Venue, organization or schedule URL invalid.'): DomainError {
  return new DomainError('INVALID_SCHEDULE', message);
}

/** The code column equal to `code` in any case (`lower` on both sides). */
function sameCode(column: AnyColumn, code: string): SQL {
  return sql`lower(${column}) = lower(${code})`;
}

/** Whether two codes are the same code, in any case. */
function isSameCode(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

/**
 * The first row of `find`, asked with the exact spelling (the codes' unique index) and, when that
 * finds none, with the code in any case (the lower(code) expression indexes of
 * organizations_code_lower_idx and schedules_schedule_code_lower_idx; where two codes differ only
 * in case, `find` orders the older first). Every code a person types or a URL carries is looked
 * up with it: the login pages here, and the proctor's sign-in (staff.ts) and schedules (roster.ts).
 */
export async function byCode<Row>(find: (match: SQL) => Promise<Row[]>, column: AnyColumn, code: string): Promise<Row | undefined> {
  const [exact] = await find(eq(column, code));
  if (exact) return exact;
  const [folded] = await find(sameCode(column, code));
  return folded;
}

/** The organisation of a login page's code (in any case), or INVALID_SCHEDULE. */
export async function organizationOfCode(db: Db, code: string): Promise<typeof organizations.$inferSelect> {
  const row = await byCode(
    (match) => db.select().from(organizations).where(match).orderBy(asc(organizations.id)).limit(1),
    organizations.code,
    code,
  );
  if (!row) throw invalidSchedule();
  return row;
}

/**
 * The schedule of a login page's code (in any case), or INVALID_SCHEDULE; also when the page
 * names an organisation (in any case) or a venue that is not the schedule's.
 */
export async function scheduleOfPage(db: Db, query: { scheduleCode: string; orgCode?: string | undefined; venueId?: number | undefined }) {
  const find = (match: SQL) =>
    db
      .select({
        id: schedules.id,
        organizationId: schedules.organizationId,
        code: schedules.scheduleCode,
        name: schedules.name,
        startsAt: schedules.startsAt,
        endsAt: schedules.endsAt,
        orgCode: organizations.code,
        orgName: organizations.name,
        venueId: venues.id,
        venueName: venues.name,
      })
      .from(schedules)
      .innerJoin(organizations, eq(organizations.id, schedules.organizationId))
      .leftJoin(venues, eq(venues.id, schedules.venueId))
      .where(match)
      .orderBy(asc(schedules.id))
      .limit(1);
  const row = await byCode(find, schedules.scheduleCode, query.scheduleCode);
  if (!row) throw invalidSchedule();
  if (query.orgCode !== undefined && !isSameCode(query.orgCode, row.orgCode)) throw invalidSchedule();
  if (query.venueId !== undefined && query.venueId !== row.venueId) throw invalidSchedule();
  return row;
}

export async function findOrganization(db: Db, code: string): Promise<WithoutServerTime<Organization>> {
  const row = await organizationOfCode(db, code);
  const method = row.loginMethod;
  if (method !== 1 && method !== 2 && method !== 3) throw new Error(`Not an organisation login method: ${method}`);
  return {
    code: row.code,
    name: row.name,
    category: row.category,
    login_method: method,
    enable_mode_step: row.enableModeStep,
  };
}

export async function findSchedule(
  db: Db,
  query: { scheduleCode: string; orgCode?: string; venueId?: number },
): Promise<WithoutServerTime<Schedule>> {
  const row = await scheduleOfPage(db, query);
  return {
    schedule_code: row.code,
    name: row.name || row.code,
    organization: { code: row.orgCode, name: row.orgName },
    venue: row.venueId !== null && row.venueName !== null ? { id: row.venueId, name: row.venueName } : null,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt.toISOString(),
  };
}

/** The organisation and its open schedule (the one ending soonest), if any. */
export async function findAppSchedule(
  db: Db,
  organizationCode: string,
  now: Date,
): Promise<{ org_code: string; organization_name: string; schedule_code: string | null }> {
  const organization = await organizationOfCode(db, organizationCode);
  const [open] = await db
    .select({ code: schedules.scheduleCode })
    .from(schedules)
    .where(and(eq(schedules.organizationId, organization.id), lte(schedules.startsAt, now), gte(schedules.endsAt, now)))
    .orderBy(asc(schedules.endsAt), asc(schedules.id))
    .limit(1);
  return { org_code: organization.code, organization_name: organization.name, schedule_code: open?.code ?? null };
}
