/**
 * Bad roster files, each refused with its row, column and reason, and nothing changed (the rows
 * of every table the imports write are counted before and after): a table of them, applied with
 * `apply` asked, on both databases. Then what must be accepted: a BOM, semicolons, quoted cells
 * with delimiters and line breaks (the row numbers stay the spreadsheet's), names in Arabic and
 * Thai round-tripped; and the 100 MB file refused unread, over HTTP too.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { beforeAll, describe, expect, test } from 'vitest';
import { ImportPlanResponseSchema, type ImportKind, type ImportReason } from '../../contract/imports.ts';
import type { Db } from '../../server/db/client.ts';
import { auditLog, examinees, organizations, scheduleExams, scheduleHistories, schedules, venues } from '../../server/db/schema.ts';
import { importRoster } from '../../server/imports/roster.ts';
import { createAdminToken } from '../helpers/admin-token.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi } from '../helpers/server-api.ts';

const kinds = await testDatabaseKinds();

const tables = { organizations, venues, schedules, scheduleExams, examinees, scheduleHistories, auditLog };

async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) counts[name] = await db.$count(table);
  return counts;
}

const now = new Date('2026-06-01T09:00:00Z');
const context = { now, staffId: null, reason: 'test' };
const run = (db: Db, kind: ImportKind, file: string | Uint8Array, apply = true) =>
  importRoster(db, kind, typeof file === 'string' ? new TextEncoder().encode(file) : file, { apply, ...context });

const PUPILS = 'school,pupil_id,name,class,classroom,grade,email,language,login_id,schedule\n';
const SCHEDULES = 'code,school,name,classroom,starts_at,ends_at,mode,exams\n';
const CODES = 'school,pupil_id,name,login_code,schedule,exams\n';

type Expected = { row: number | null; column: string | null; reason: ImportReason };

const latin1 = new Uint8Array([...new TextEncoder().encode(`${PUPILS}BAD,P-9,Jos`), 0xe9, 0x0a]);
const utf16 = new Uint8Array([0xff, 0xfe, ...[...`${PUPILS}BAD,P-9,Ana\n`].flatMap((ch) => [ch.charCodeAt(0), 0])]);
const utf16NoBom = utf16.slice(2);

const badFiles: [string, ImportKind, string | Uint8Array, Expected[]][] = [
  ['a missing column', 'pupils', 'school,name\nBAD,Ana\n', [{ row: 1, column: 'pupil_id', reason: 'missing_column' }]],
  ['an unknown column', 'pupils', 'school,pupil_id,name,nickname\nBAD,P-9,Ana,Annie\n', [{ row: 1, column: 'nickname', reason: 'unknown_column' }]],
  ['a column named twice', 'pupils', 'school,pupil_id,name,Name\nBAD,P-9,Ana,Ana\n', [{ row: 1, column: 'name', reason: 'duplicate_column' }]],
  ['an unknown school', 'pupils', `${PUPILS}NOPE,P-9,Ana,,,,,,,\n`, [{ row: 2, column: 'school', reason: 'unknown_school' }]],
  ['an unknown classroom', 'pupils', `${PUPILS}BAD,P-9,Ana,6A,Room Z,,,,,\n`, [{ row: 2, column: 'classroom', reason: 'unknown_classroom' }]],
  ['an unknown schedule', 'pupils', `${PUPILS}BAD,P-9,Ana,6A,,,,,,NOPE-2026\n`, [{ row: 2, column: 'schedule', reason: 'unknown_schedule' }]],
  ["another school's schedule", 'pupils', `${PUPILS}BAD,P-9,Ana,6A,,,,,,DEMO-2026\n`, [{ row: 2, column: 'schedule', reason: 'unknown_schedule' }]],
  ['a login id another pupil has', 'pupils', `${PUPILS}BAD,P-9,Ana,6A,,,,,taken.id,\n`, [{ row: 2, column: 'login_id', reason: 'duplicate_login_id' }]],
  ['one login id twice in the file', 'pupils', `${PUPILS}BAD,P-9,Ana,6A,,,,,same.id,\nBAD,P-10,Ben,6A,,,,,same.id,\n`, [{ row: 3, column: 'login_id', reason: 'duplicate_login_id' }]],
  [
    'one pupil twice in the file',
    'pupils',
    `${PUPILS}BAD,P-9,Ana,6A,,,,,,\nbad,P-9,Ana B,6A,,,,,,\n`,
    [
      { row: 3, column: 'school', reason: 'duplicate_in_file' },
      { row: 3, column: 'pupil_id', reason: 'duplicate_in_file' },
    ],
  ],
  ['a login code another pupil has', 'pupils', `${CODES}BAD,P-9,Ana,GM47-WCWJ-CRKT,,\n`, [{ row: 2, column: 'login_code', reason: 'duplicate_login_code' }]],
  ['one login code twice in the file', 'pupils', `${CODES}BAD,P-9,Ana,3333-4444-6666,,\nBAD,P-10,Ben,3333-4444-6666,,\n`, [{ row: 3, column: 'login_code', reason: 'duplicate_login_code' }]],
  ['a login code not in the format', 'pupils', `${CODES}BAD,P-9,Ana,ABCD-EFGH-IJKL,,\n`, [{ row: 2, column: 'login_code', reason: 'invalid' }]],
  ['an exam the test period does not have', 'pupils', `${CODES}BAD,P-9,Ana,,BAD-2026,EN-1 CALC-1\n`, [{ row: 2, column: 'exams', reason: 'unknown_exam' }]],
  ['exams without a test period', 'pupils', `${CODES}BAD,P-9,Ana,,,EN-1\n`, [{ row: 2, column: 'schedule', reason: 'required' }]],
  ['a required cell left empty', 'pupils', `${PUPILS}BAD,P-9,,6A,,,,,,\n`, [{ row: 2, column: 'name', reason: 'required' }]],
  ['a grade that is none', 'pupils', `${PUPILS}BAD,P-9,Ana,6A,,13,,,,\n`, [{ row: 2, column: 'grade', reason: 'invalid' }]],
  ['a language with no catalog', 'pupils', `${PUPILS}BAD,P-9,Ana,6A,,,,klingon,,\n`, [{ row: 2, column: 'language', reason: 'invalid' }]],
  ['a name too long', 'pupils', `${PUPILS}BAD,P-9,${'A'.repeat(201)},6A,,,,,,\n`, [{ row: 2, column: 'name', reason: 'too_long' }]],
  ['cells past the header', 'pupils', `${PUPILS}BAD,P-9,Ana,6A,,,,,,,extra\n`, [{ row: 2, column: null, reason: 'invalid' }]],
  ['a quote never closed', 'pupils', `${PUPILS}BAD,P-9,"Ana,6A,,,,,,\n`, [{ row: 2, column: null, reason: 'invalid' }]],
  ['an unknown exam', 'schedules', `${SCHEDULES}BAD-2027,BAD,,,2027-06-01T09:00+07:00,2027-06-02T09:00+07:00,group,EN-1 NOPE-9\n`, [{ row: 2, column: 'exams', reason: 'unknown_exam' }]],
  ['a day that does not exist', 'schedules', `${SCHEDULES}BAD-2027,BAD,,,2027-06-31T09:00+07:00,2027-07-02T09:00+07:00,group,EN-1\n`, [{ row: 2, column: 'starts_at', reason: 'bad_date' }]],
  ['a time without its offset', 'schedules', `${SCHEDULES}BAD-2027,BAD,,,2027-06-01 09:00,2027-06-02T09:00Z,group,EN-1\n`, [{ row: 2, column: 'starts_at', reason: 'bad_date' }]],
  ['a window that ends before it starts', 'schedules', `${SCHEDULES}BAD-2027,BAD,,,2027-06-02T09:00+07:00,2027-06-01T09:00+07:00,group,EN-1\n`, [{ row: 2, column: 'ends_at', reason: 'bad_window' }]],
  ['an unknown classroom of a test period', 'schedules', `${SCHEDULES}BAD-2027,BAD,,Room Z,2027-06-01T09:00+07:00,2027-06-02T09:00+07:00,group,EN-1\n`, [{ row: 2, column: 'classroom', reason: 'unknown_classroom' }]],
  ['a test period moved to another school', 'schedules', `${SCHEDULES}BAD-2026,GRADUS-DEMO,,,2026-06-01T09:00+07:00,2026-06-30T09:00+07:00,group,EN-1\n`, [{ row: 2, column: 'school', reason: 'invalid' }]],
  ['a classroom of an unknown school', 'venues', 'school,name\nNOPE,Room 1\n', [{ row: 2, column: 'school', reason: 'unknown_school' }]],
  ['a school code with a space', 'schools', 'code,name\nBAD SCHOOL,Bad\n', [{ row: 2, column: 'code', reason: 'invalid' }]],
  ['a category that is none', 'schools', 'code,name,category\nNEW-1,New,UNIVERSITY\n', [{ row: 2, column: 'category', reason: 'invalid' }]],
  ['Latin-1 bytes', 'pupils', latin1, [{ row: null, column: null, reason: 'encoding' }]],
  ['UTF-16 with its BOM', 'pupils', utf16, [{ row: null, column: null, reason: 'encoding' }]],
  ['UTF-16 without a BOM', 'pupils', utf16NoBom, [{ row: null, column: null, reason: 'encoding' }]],
  ['an empty file', 'pupils', '\uFEFF \r\n\r\n', [{ row: null, column: null, reason: 'empty_file' }]],
];

describe.each(kinds)('refused roster files on %s', (kind) => {
  const api = useApi(kind);

  beforeAll(async () => {
    const setup: [ImportKind, string][] = [
      ['schools', 'code,name\nBAD,Bad Input Primary\n'],
      ['venues', 'school,name\nBAD,Room A\n'],
      ['schedules', `${SCHEDULES}BAD-2026,BAD,,Room A,2026-06-01T09:00+07:00,2026-06-30T17:00+07:00,group,EN-1\n`],
      ['pupils', `${PUPILS}BAD,P-1,Taken,6A,Room A,,,,taken.id,BAD-2026\n`],
    ];
    for (const [k, file] of setup) expect((await run(api.db, k, file)).applied, k).toBe(true);
  });

  test.each(badFiles)('%s is refused with its row, column and reason, and nothing changes', async (_name, fileKind, file, expected) => {
    const before = await rowCounts(api.db);
    const result = await run(api.db, fileKind, file);
    expect(result.applied).toBe(false);
    const problems = result.rows.flatMap((row) => row.problems.map((problem) => ({ row: row.row, column: problem.column, reason: problem.reason })));
    expect(problems).toEqual(expected);
    expect(await rowCounts(api.db)).toEqual(before);
  });

  test('one bad row refuses the whole file: the good rows beside it are not applied either', async () => {
    const before = await rowCounts(api.db);
    const result = await run(api.db, 'pupils', `${PUPILS}BAD,P-20,Good One,6A,,,,,,\nBAD,P-21,Bad One,6A,,0,,,,\nBAD,P-22,Good Two,6A,,,,,,\n`);
    expect(result.rows.map((row) => row.outcome)).toEqual(['create', 'refuse', 'create']);
    expect(result.applied).toBe(false);
    expect(await rowCounts(api.db)).toEqual(before);
  });

  test("two pupils swap their login ids and codes in one file: applied, each holds the other's", async () => {
    const header = 'school,pupil_id,name,login_id,login_code\n';
    const first = await run(api.db, 'pupils', `${header}BAD,P-50,Ana,swap.a,TTTT-TTTT-TTT3\nBAD,P-51,Ben,swap.b,TTTT-TTTT-TTT4\n`);
    expect(first.applied).toBe(true);
    const swapped = await run(api.db, 'pupils', `${header}BAD,P-50,Ana,swap.b,tttt tttt ttt4\nBAD,P-51,Ben,swap.a,TTTT-TTTT-TTT3\n`);
    expect(swapped.rows.map((row) => [row.outcome, row.problems])).toEqual([['update', []], ['update', []]]);
    expect(swapped.applied).toBe(true);
    const [ana] = await api.db.select().from(examinees).where(eq(examinees.loginCode, 'TTTT-TTTT-TTT4'));
    expect(ana).toMatchObject({ externalId: 'P-50', loginId: 'swap.b' });
    const [ben] = await api.db.select().from(examinees).where(eq(examinees.loginCode, 'TTTT-TTTT-TTT3'));
    expect(ben).toMatchObject({ externalId: 'P-51', loginId: 'swap.a' });
    // Taking another pupil's id while that pupil keeps it is still refused, and changes nothing.
    const before = await rowCounts(api.db);
    const taken = await run(api.db, 'pupils', 'school,pupil_id,name,login_id\nBAD,P-50,Ana,swap.a\n');
    expect(taken.rows[0]!.problems).toEqual([{ column: 'login_id', reason: 'duplicate_login_id', value: 'swap.a' }]);
    expect(await rowCounts(api.db)).toEqual(before);
  });

  test('a dry run of a good file changes nothing', async () => {
    const before = await rowCounts(api.db);
    const result = await run(api.db, 'pupils', `${PUPILS}BAD,P-30,Dry Run,6A,,,,,,BAD-2026\n`, false);
    expect(result).toMatchObject({ applied: false, rows: [{ row: 2, outcome: 'create', problems: [] }] });
    expect(await rowCounts(api.db)).toEqual(before);
  });

  test('a BOM, semicolons, quoted cells with delimiters and line breaks, Arabic and Thai names: accepted and round-tripped', async () => {
    const file =
      '\uFEFFSchool;Pupil_ID;Name;Class;Grade\r\n' +
      'BAD;P-40;"عمر الساعدي; الابن";6A;6\r\n' +
      'BAD;P-41;"สมหญิง ""น้อย"" รักเรียน";"6B\r\nafternoon";6\r\n' +
      'BAD;P-42;Ana;6A;not-a-grade\r\n';
    const refusedFirst = await run(api.db, 'pupils', file);
    // The line break inside the quoted class keeps P-41 in row 3: the bad grade is in row 4.
    expect(refusedFirst.rows.map((row) => [row.row, row.outcome])).toEqual([[2, 'create'], [3, 'create'], [4, 'refuse']]);
    const result = await run(api.db, 'pupils', file.replace('not-a-grade', '6'));
    expect(result.applied).toBe(true);
    const [school] = await api.db.select().from(organizations).where(eq(organizations.code, 'BAD'));
    const stored = await api.db.select().from(examinees).where(eq(examinees.organizationId, school!.id));
    const byId = new Map(stored.map((row) => [row.externalId, row]));
    expect(byId.get('P-40')).toMatchObject({ name: 'عمر الساعدي; الابن', className: '6A', gradeId: 6 });
    expect(byId.get('P-41')).toMatchObject({ name: 'สมหญิง "น้อย" รักเรียน', className: '6B\r\nafternoon' });
  });

  test('a file of 100 MB is refused unread: by the import and by the route', async () => {
    const huge = Buffer.alloc(100 * 1024 * 1024, 0x41);
    const before = await rowCounts(api.db);
    const started = performance.now();
    const result = await run(api.db, 'pupils', huge);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result.rows).toEqual([{ row: null, key: '', outcome: 'refuse', problems: [{ column: null, reason: 'too_large', value: String(huge.byteLength) }] }]);

    const token = await createAdminToken(api.db, api.clock.now());
    const post = async (init: RequestInit & { duplex?: 'half' }) => {
      const response = await api.app.request('/api/admin/imports/pupils?apply=1', init);
      expect(response.status).toBe(200);
      const plan = v.parse(ImportPlanResponseSchema, await response.json());
      expect(plan).toMatchObject({ kind: 'pupils', applied: false, summary: { refuse: 1 }, rows: [{ row: null, problems: [{ reason: 'too_large' }] }] });
    };
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' };
    // Its Content-Length says it all: refused before the body is read.
    await post({ method: 'POST', headers: { ...headers, 'Content-Length': String(huge.byteLength) }, body: huge });
    // Sent in chunks with no length: the route stops reading a little past 10 MB.
    const megabyte = new Uint8Array(1024 * 1024).fill(0x41);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled++ < 100) controller.enqueue(megabyte);
        else controller.close();
      },
    });
    await post({ method: 'POST', headers, body: stream, duplex: 'half' });
    expect(pulled).toBeLessThan(20);
    expect(await rowCounts(api.db)).toEqual(before);
  });
});
