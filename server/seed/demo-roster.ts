/**
 * The demo's roster: the CSV files of server/seed/demo/ in the documented formats
 * (docs/file-formats.md), which the seed brings in through the roster import on every demo start,
 * in the order a deployment is filled (schools, venues, schedules, pupils).
 *
 * The pupils file is where the demo pupils of demo-accounts.json and the results demo's cohort
 * come from (school, pupil id, name, grade, login id, their fixed login code, test period and
 * exams); demo-accounts.json says what each account is for. The two are checked against each
 * other when the seed reads them, so a pupil changed in one file and not the other stops the
 * start instead of seeding an account the docs and tests describe differently.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importKinds, type ImportKind } from '../../contract/imports.ts';
import { readCsv } from '../imports/csv.ts';
import { fold } from '../imports/plan.ts';
import { pupilsImporter } from '../imports/pupils.ts';
import { demoSittingsOf, loadDemoAccounts, type DemoAccount } from './demo-accounts.ts';
import { demoExams } from './demo-content.ts';

export const demoRosterFolder = path.join(import.meta.dirname, 'demo');

/** A row of the demo's pupils file, as the seed reads it. */
export type DemoPupilRow = { school: string; pupilId: string; name: string; loginId: string | null; loginCode: string; schedule: string | null; exams: string[] };

const fileOf = (kind: ImportKind) => path.join(demoRosterFolder, `${kind}.csv`);

/** The pupils file's rows by login code. */
export function readDemoPupils(): Map<string, DemoPupilRow> {
  const table = readCsv(readFileSync(fileOf('pupils')), pupilsImporter.columns);
  if (!table.ok) throw new Error(`server/seed/demo/pupils.csv: ${JSON.stringify(table.refusal)}`);
  const rows = new Map<string, DemoPupilRow>();
  for (const { row, cells } of table.records) {
    const loginCode = cells.login_code ?? '';
    if (loginCode === '' || rows.has(loginCode)) throw new Error(`server/seed/demo/pupils.csv row ${row}: every demo pupil has a login code of their own`);
    rows.set(loginCode, {
      school: cells.school ?? '',
      pupilId: cells.pupil_id ?? '',
      name: cells.name ?? '',
      loginId: cells.login_id || null,
      loginCode,
      schedule: cells.schedule || null,
      exams: (cells.exams ?? '').split(/\s+/).filter((code) => code !== ''),
    });
  }
  return rows;
}

/** The exam code of each of an account's sittings, in demoSittingsOf's order. */
export function examCodesOf(account: DemoAccount): string[] {
  return demoSittingsOf(account).map((sitting) => {
    if (sitting.examCode !== undefined) return sitting.examCode;
    const exam = demoExams.find((paper) => paper.subjectId === sitting.subject && paper.level === sitting.level);
    if (!exam) throw new Error(`demo-accounts.json: no exam for subject ${sitting.subject} level ${sitting.level}`);
    return exam.code;
  });
}

/**
 * Each account's row of the pupils file, checked to say the same (school, name, login id, test
 * period, exams in order); throws on the first difference.
 */
export function demoPupilRowsOf(accounts: readonly DemoAccount[], rows: ReadonlyMap<string, DemoPupilRow> = readDemoPupils()): Map<string, DemoPupilRow> {
  const matched = new Map<string, DemoPupilRow>();
  for (const account of accounts) {
    const row = rows.get(account.login_code);
    const differs = (what: string) => new Error(`server/seed/demo/pupils.csv and demo-accounts.json differ on ${account.login_code}: ${what}`);
    if (!row) throw differs('no row of the pupils file has this login code');
    if (fold(row.school) !== fold(account.org_code)) throw differs('school');
    if (row.name !== account.name) throw differs('name');
    if (row.loginId !== (account.login_id ?? null)) throw differs('login_id');
    if (row.schedule === null || (account.schedule_code !== undefined && fold(row.schedule) !== fold(account.schedule_code))) throw differs('schedule');
    if (row.exams.join(' ') !== examCodesOf(account).join(' ')) throw differs('exams');
    matched.set(account.login_code, row);
  }
  return matched;
}

/**
 * The four files' bytes. `accounts`: the demo accounts to bring in (default all); the pupils
 * file keeps only their rows beside the rows of pupils no account describes (the results demo's).
 */
export function demoRosterFiles(accounts: readonly DemoAccount[] = loadDemoAccounts()): Record<ImportKind, Uint8Array> {
  const files = {} as Record<ImportKind, Uint8Array>;
  for (const kind of importKinds) files[kind] = readFileSync(fileOf(kind));
  const left = new Set(loadDemoAccounts().map((account) => account.login_code));
  for (const account of accounts) left.delete(account.login_code);
  if (left.size > 0) {
    const lines = new TextDecoder().decode(files.pupils).split('\n');
    const kept = lines.filter((line) => ![...left].some((code) => line.includes(`,${code},`)));
    files.pupils = new TextEncoder().encode(kept.join('\n'));
  }
  return files;
}
