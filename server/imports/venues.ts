/**
 * The classrooms file (venues), keyed by (school code, name): the school must exist (imported
 * before), the name is matched exactly. Columns: school, name (required); region, disabled
 * (optional: a column left out keeps what is stored, an empty cell is the default).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Tx } from '../db/client.ts';
import { organizations, regions, venues } from '../db/schema.ts';
import { checkRecords, codeCell, flagCell, fold, optionalCell, overlay, plannedRow, planRows, refused, requiredText, type RosterImporter } from './plan.ts';

const VenueRowSchema = v.object({
  school: codeCell,
  name: requiredText(200),
  region: optionalCell(v.pipe(v.string(), v.toUpperCase(), v.picklist(regions, 'invalid')), null),
  disabled: optionalCell(flagCell, false),
});

type VenueState = { region: (typeof regions)[number] | null; disabled: boolean };

/** The organisations of these codes (in any case), by folded code. */
export async function organizationsByCode(tx: Tx, codes: Iterable<string>): Promise<Map<string, { id: number; code: string }>> {
  const folded = [...new Set([...codes].map(fold))];
  if (folded.length === 0) return new Map();
  const rows = await tx.select({ id: organizations.id, code: organizations.code }).from(organizations).where(inArray(sql`lower(${organizations.code})`, folded));
  return new Map(rows.map((row) => [fold(row.code), row]));
}

/** The venues of these organisations, by `<organisation id>/<name>`. */
export async function venuesOf(tx: Tx, organizationIds: readonly number[]) {
  if (organizationIds.length === 0) return new Map<string, typeof venues.$inferSelect>();
  const rows = await tx.select().from(venues).where(inArray(venues.organizationId, [...new Set(organizationIds)]));
  return new Map(rows.map((row) => [`${row.organizationId}/${row.name}`, row]));
}

export const venuesImporter: RosterImporter = {
  kind: 'venues',
  columns: { required: ['school', 'name'], optional: ['region', 'disabled'] },
  async plan(tx, table) {
    const checked = checkRecords(table.records, VenueRowSchema, {
      columns: ['school', 'name'],
      of: (cells) => `${cells.school ?? ''}/${cells.name ?? ''}`,
      folded: (cells) => `${fold(cells.school ?? '')}/${cells.name ?? ''}`,
    });
    const schools = await organizationsByCode(tx, checked.flatMap((c) => (c.value ? [c.value.school] : [])));
    const stored = await venuesOf(tx, [...schools.values()].map((school) => school.id));

    const changes: { id: number | null; organizationId: number; name: string; state: VenueState }[] = [];
    const rows = planRows(checked, (c, row) => {
      const school = schools.get(fold(row.school));
      if (!school) return refused(c, [{ column: 'school', reason: 'unknown_school', value: row.school }]);
      const existing = stored.get(`${school.id}/${row.name}`);
      const before: VenueState | null = existing ? { region: existing.region, disabled: existing.disabled } : null;
      const after = overlay(before ?? { region: null, disabled: false }, { region: row.region, disabled: row.disabled });
      const planned = plannedRow(c, `venue:${school.code}/${row.name}`, before, after);
      if (planned.outcome === 'create' || planned.outcome === 'update') changes.push({ id: existing?.id ?? null, organizationId: school.id, name: row.name, state: after });
      return planned;
    });

    return {
      rows,
      async apply(tx: Tx) {
        const created = changes.filter((change) => change.id === null).map((change) => ({ organizationId: change.organizationId, name: change.name, ...change.state }));
        if (created.length > 0) await tx.insert(venues).values(created);
        for (const change of changes) {
          if (change.id !== null) await tx.update(venues).set(change.state).where(and(eq(venues.id, change.id)));
        }
      },
    };
  },
};
