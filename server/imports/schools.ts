/**
 * The schools file (organisations), keyed by `code` (matched in any case; a stored code keeps its
 * spelling). Columns: code, name (required); category, login_method, step_mode, region,
 * rank_display, disabled (optional: a column left out keeps what is stored, an empty cell is the
 * default). The README's "Roster files (CSV)" documents each.
 */
import { inArray, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { DisplayFlag } from '../../contract/enums.ts';
import type { Tx } from '../db/client.ts';
import { organizationCategories, organizations, regions } from '../db/schema.ts';
import { checkRecords, codeCell, flagCell, fold, optionalCell, overlay, plannedRow, planRows, requiredText, type RosterImporter } from './plan.ts';

/** The login methods of seed section 3, as the file names them. */
export const loginMethodWords = { code: 1, oauth: 2, examinee: 3 } as const;
type LoginMethodWord = keyof typeof loginMethodWords;
const loginMethodWordOf = (method: number): LoginMethodWord =>
  (Object.keys(loginMethodWords) as LoginMethodWord[]).find((word) => loginMethodWords[word] === method) ?? 'code';

const categoryCell = v.pipe(v.string(), v.toUpperCase(), v.picklist(organizationCategories, 'invalid'));
const regionCell = v.pipe(v.string(), v.toUpperCase(), v.picklist(regions, 'invalid'));

const SchoolRowSchema = v.object({
  code: codeCell,
  name: requiredText(200),
  category: optionalCell(categoryCell, 'SCHOOL' as const),
  login_method: optionalCell(v.pipe(v.string(), v.toLowerCase(), v.picklist(['code', 'oauth', 'examinee'], 'invalid')), 'code' as const),
  step_mode: optionalCell(flagCell, false),
  region: optionalCell(regionCell, null),
  rank_display: optionalCell(v.pipe(v.string(), v.toLowerCase(), v.picklist(['show', 'hide'], 'invalid')), 'show' as const),
  disabled: optionalCell(flagCell, false),
});

type SchoolState = {
  name: string;
  category: (typeof organizationCategories)[number];
  login_method: LoginMethodWord;
  step_mode: boolean;
  region: (typeof regions)[number] | null;
  rank_display: 'show' | 'hide';
  disabled: boolean;
};

const defaults: Omit<SchoolState, 'name'> = { category: 'SCHOOL', login_method: 'code', step_mode: false, region: null, rank_display: 'show', disabled: false };

const columnsOf = (state: SchoolState) => ({
  name: state.name,
  category: state.category,
  loginMethod: loginMethodWords[state.login_method],
  enableModeStep: state.step_mode,
  region: state.region,
  rankDisplayFlag: state.rank_display === 'hide' ? DisplayFlag.HIDE : DisplayFlag.DISPLAY,
  disabled: state.disabled,
});

export const schoolsImporter: RosterImporter = {
  kind: 'schools',
  columns: { required: ['code', 'name'], optional: ['category', 'login_method', 'step_mode', 'region', 'rank_display', 'disabled'] },
  async plan(tx, table) {
    const checked = checkRecords(table.records, SchoolRowSchema, { columns: ['code'], of: (cells) => cells.code ?? '', folded: (cells) => fold(cells.code ?? '') });
    const codes = [...new Set(checked.flatMap((c) => (c.value ? [fold(c.value.code)] : [])))];
    const stored = codes.length === 0 ? [] : await tx.select().from(organizations).where(inArray(sql`lower(${organizations.code})`, codes));
    const byCode = new Map(stored.map((row) => [fold(row.code), row]));

    const changes: { id: number | null; code: string; state: SchoolState }[] = [];
    const rows = planRows(checked, (c, { code, ...given }) => {
      const existing = byCode.get(fold(code));
      const before: SchoolState | null = existing
        ? {
            name: existing.name,
            category: existing.category,
            login_method: loginMethodWordOf(existing.loginMethod),
            step_mode: existing.enableModeStep,
            region: existing.region,
            rank_display: existing.rankDisplayFlag === DisplayFlag.HIDE ? 'hide' : 'show',
            disabled: existing.disabled,
          }
        : null;
      const after = overlay(before ?? { ...defaults, name: given.name }, given);
      const planned = plannedRow(c, `school:${existing?.code ?? code}`, before, after);
      if (planned.outcome === 'create' || planned.outcome === 'update') changes.push({ id: existing?.id ?? null, code, state: after });
      return planned;
    });

    return {
      rows,
      async apply(tx: Tx) {
        const created = changes.filter((change) => change.id === null).map((change) => ({ code: change.code, ...columnsOf(change.state) }));
        if (created.length > 0) await tx.insert(organizations).values(created);
        for (const change of changes) {
          if (change.id !== null) await tx.update(organizations).set(columnsOf(change.state)).where(sql`${organizations.id} = ${change.id}`);
        }
      },
    };
  },
};
