/**
 * What an export is about: a test period (its code, in any case, as staff type it) and,
 * optionally, one classroom of its school. Shared by the results CSV and the login slips, the
 * console's routes and the command line.
 *
 * Promises: an unknown test period is NOT_FOUND; a classroom that is not its school's is
 * NOT_FOUND too (an id from another school reveals nothing about it). The command line may name
 * the classroom by its name as well as by its id.
 */
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { auditLog, examinees, organizations, scheduleHistories, schedules, venues, type AuditActionName } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { byCode } from '../domain/lookups.ts';

export type ExportScope = {
  schedule: { id: number; code: string; name: string; startsAt: Date; endsAt: Date };
  school: { id: number; code: string; name: string; rankDisplayFlag: number };
  /** The classroom asked for; null: every pupil of the test period. */
  venue: { id: number; name: string } | null;
};

/** The sittings an export covers: its test period's, of the one classroom's pupils when it names one (join examinees). */
export function sittingsInScope(scope: ExportScope): SQL | undefined {
  const ofSchedule = eq(scheduleHistories.scheduleId, scope.schedule.id);
  return scope.venue ? and(ofSchedule, eq(examinees.venueId, scope.venue.id)) : ofSchedule;
}

/**
 * A pupil as both exports show them: name, class, classroom (their own: left join venues on
 * examinees.venue_id) and login code.
 */
export const pupilColumns = {
  name: examinees.name,
  className: examinees.className,
  classroom: venues.name,
  loginCode: examinees.loginCode,
};

/** The exports' order, as a school reads its class lists: classroom, class, pupil name. */
export const classListOrder = [asc(venues.name), asc(examinees.className), asc(examinees.name)];

/** A classroom as the command line names it: its id (digits) or its name. */
export type VenueRef = { id: number } | { name: string };

/** The venue argument of the command line: digits are an id, anything else a name. */
export function venueRefOf(text: string): VenueRef {
  return /^[1-9][0-9]{0,9}$/.test(text) ? { id: Number(text) } : { name: text };
}

export async function exportScope(db: Tx, scheduleCode: string, venue: VenueRef | undefined): Promise<ExportScope> {
  const row = await byCode(
    (match) =>
      db
        .select({
          schedule: {
            id: schedules.id,
            code: schedules.scheduleCode,
            name: schedules.name,
            startsAt: schedules.startsAt,
            endsAt: schedules.endsAt,
          },
          school: {
            id: organizations.id,
            code: organizations.code,
            name: organizations.name,
            rankDisplayFlag: organizations.rankDisplayFlag,
          },
        })
        .from(schedules)
        .innerJoin(organizations, eq(organizations.id, schedules.organizationId))
        .where(match)
        .orderBy(asc(schedules.id))
        .limit(1),
    schedules.scheduleCode,
    scheduleCode,
  );
  if (!row) throw new DomainError('NOT_FOUND', `No test period "${scheduleCode}".`);
  if (venue === undefined) return { ...row, venue: null };
  const [found] = await db
    .select({ id: venues.id, name: venues.name })
    .from(venues)
    .where(and(eq(venues.organizationId, row.school.id), 'id' in venue ? eq(venues.id, venue.id) : eq(venues.name, venue.name)))
    .limit(1);
  if (!found) throw new DomainError('NOT_FOUND', `No classroom ${'id' in venue ? venue.id : `"${venue.name}"`} at ${row.school.name}.`);
  return { ...row, venue: found };
}

/**
 * The audit entry of an export (slips_print, results_export): who (a staff member; null from the
 * command line), which test period, which classroom, how many rows left the system.
 */
export async function auditExport(
  db: Tx,
  entry: { at: Date; staffId: number | null; action: Extract<AuditActionName, 'slips_print' | 'results_export'>; scope: ExportScope; detail: Record<string, unknown> },
): Promise<void> {
  const { scope } = entry;
  await db.insert(auditLog).values({
    at: entry.at,
    staffId: entry.staffId,
    action: entry.action,
    scheduleId: scope.schedule.id,
    entity: `schedule:${scope.schedule.code}`,
    detail: { venue_id: scope.venue?.id ?? null, venue: scope.venue?.name ?? null, ...entry.detail },
    reason: entry.staffId === null ? 'command line' : '',
  });
}
