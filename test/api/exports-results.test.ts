/**
 * GET /admin/schedules/:code/results.csv, on both databases: what a school opens in its
 * spreadsheet program. UTF-8 with a BOM and CRLF; one row per sitting with the pupil, class,
 * classroom, code, exam, status, score, correct rate, one column per unit and passed; the rank
 * only where the school shows ranks; cells a spreadsheet would run as formulas neutralised; one
 * classroom with ?venue=; administrators only (a proctor 403), an unknown test period 404; each
 * export audited. The command line's `export-results` writes the same file (a PGlite directory,
 * or PostgreSQL).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { openDatabase, type Db } from '../../server/db/client.ts';
import { auditLog, examinees, exams, organizations, questions, resultUnits, results, scheduleHistories, schedules, venues } from '../../server/db/schema.ts';
import { runExportResults } from '../../server/cli/export-results.ts';
import { neutralise, writeCsv } from '../../server/exports/csv-writer.ts';
import { resultsCsv } from '../../server/exports/results-csv.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { randomLoginCode } from '../helpers/server-fixtures.ts';
import { addStaff, staffLogin } from '../helpers/admin-api.ts';
import { createAdminWithToken } from '../helpers/admin-token.ts';

const kinds = await testDatabaseKinds();

type Pupil = { name: string; className: string; room: 'A' | 'B'; externalId: string; result?: { score: number; correct: number; passed: boolean; rank: number } };

/** A school with two classrooms and a test period of the demo English exam (EN-1), its pupils booked and some scored. */
async function school(db: Db, pupils: Pupil[], rankDisplayFlag: 1 | 3) {
  const tag = randomUUID().slice(0, 8);
  const [org] = await db
    .insert(organizations)
    .values({ code: `CSV-${tag}`, name: `CSV school ${tag}`, category: 'SCHOOL', loginMethod: 1, rankDisplayFlag })
    .returning({ id: organizations.id });
  const rooms = await db
    .insert(venues)
    .values([
      { organizationId: org!.id, name: `Room A ${tag}` },
      { organizationId: org!.id, name: `Room B ${tag}` },
    ])
    .returning({ id: venues.id, name: venues.name });
  const [schedule] = await db
    .insert(schedules)
    .values({ scheduleCode: `CSV-${tag}`, organizationId: org!.id, startsAt: new Date('2026-01-01T00:00:00Z'), endsAt: new Date('2030-12-31T00:00:00Z') })
    .returning({ id: schedules.id, code: schedules.scheduleCode });
  const [exam] = await db.select({ id: exams.id }).from(exams).where(eq(exams.code, 'EN-1')).orderBy(asc(exams.version)).limit(1);
  const unitRows = await db.select({ unit: questions.unit, number: questions.number }).from(questions).where(eq(questions.examId, exam!.id)).orderBy(asc(questions.number));
  const units = [...new Set(unitRows.map((u) => u.unit))];
  const questionCount = unitRows.length;
  const codes = new Map<string, string>();
  for (const pupil of pupils) {
    const loginCode = randomLoginCode();
    codes.set(pupil.name, loginCode);
    const room = rooms[pupil.room === 'A' ? 0 : 1]!;
    const [examinee] = await db
      .insert(examinees)
      .values({ organizationId: org!.id, name: pupil.name, loginCode, externalId: pupil.externalId, className: pupil.className, venueId: room.id })
      .returning({ id: examinees.id });
    const [history] = await db
      .insert(scheduleHistories)
      .values({
        examineeId: examinee!.id,
        scheduleId: schedule!.id,
        examId: exam!.id,
        status: pupil.result ? ScheduleHistoryStatus.RESULT_PUBLIC : ScheduleHistoryStatus.PENDING,
        userKey: randomUUID(),
        testKey: randomUUID(),
        finishedAt: pupil.result ? new Date('2026-05-01T10:00:00Z') : null,
      })
      .returning({ id: scheduleHistories.id });
    if (pupil.result) {
      const { score, correct, passed, rank } = pupil.result;
      await db.insert(results).values({
        scheduleHistoryId: history!.id,
        score,
        maxScore: questionCount,
        correctCount: correct,
        questionCount,
        passed,
        rank,
        rankTotal: 2,
        scoredAt: new Date('2026-05-01T10:05:00Z'),
      });
      // The first unit: every question of it right; the others: none.
      await db.insert(resultUnits).values(
        units.map((unit, index) => {
          const total = unitRows.filter((u) => u.unit === unit).length;
          return { scheduleHistoryId: history!.id, unit, questionCount: total, correctCount: index === 0 ? total : 0 };
        }),
      );
    }
  }
  return { orgId: org!.id, scheduleId: schedule!.id, code: schedule!.code, rooms, units, unitRows, questionCount, codes };
}

function rowsOf(csv: string): Record<string, string>[] {
  return parse(csv, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

const classA: Pupil[] = [
  { name: 'Aiko Tanaka', className: '6A', room: 'A', externalId: 'S-001', result: { score: 7, correct: 7, passed: true, rank: 1 } },
  { name: 'أمينة', className: '6A', room: 'A', externalId: 'S-002', result: { score: 3, correct: 3, passed: false, rank: 2 } },
  { name: '=HYPERLINK("http://x")', className: '6B', room: 'B', externalId: 'S-003' },
  { name: '+1', className: '-2', room: 'B', externalId: '@SUM(A1)' },
];

describe.each(kinds)('results CSV on %s', (kind) => {
  const api = useApi(kind);
  let admin: { token: string; staffId: number };
  let shown: Awaited<ReturnType<typeof school>>;
  let hidden: Awaited<ReturnType<typeof school>>;

  beforeAll(async () => {
    admin = await createAdminWithToken(api.db, new Date(TEST_START));
    shown = await school(api.db, classA, 1);
    hidden = await school(api.db, classA.slice(0, 2), 3);
  }, 300_000);

  test('UTF-8 with BOM and CRLF, one row per sitting, per-unit columns, passed, and the rank where the school shows it', async () => {
    const response = await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv`, { token: admin.token, headers: { Accept: 'text/csv' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="results-${shown.code}.csv"`);
    // The bytes themselves: a text decoder would drop the BOM.
    const raw = await api.app.request(`/api/admin/schedules/${shown.code}/results.csv`, { headers: { Authorization: `Bearer ${admin.token}` } });
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.toString('utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.replaceAll('\r\n', '').includes('\n')).toBe(false);

    const header = csv.slice(1).split('\r\n')[0]!.split(',');
    expect(header).toEqual([
      'pupil id', 'pupil name', 'class', 'classroom', 'login code', 'exam', 'status', 'score', 'max score', 'correct rate %',
      ...shown.units.map((unit) => `unit: ${unit}`),
      'passed', 'rank',
    ]);
    expect(shown.units.length).toBeGreaterThan(1);

    const rows = rowsOf(csv);
    expect(rows).toHaveLength(4);
    const aiko = rows.find((r) => r['pupil id'] === 'S-001')!;
    const firstUnit = shown.unitRows.filter((u) => u.unit === shown.units[0]).length;
    expect(aiko).toMatchObject({
      'pupil name': 'Aiko Tanaka',
      class: '6A',
      classroom: shown.rooms[0]!.name,
      'login code': shown.codes.get('Aiko Tanaka'),
      exam: 'EN-1',
      status: 'RESULT_PUBLIC',
      score: '7',
      'max score': String(shown.questionCount),
      'correct rate %': String(Math.round((7 * 1000) / shown.questionCount) / 10),
      [`unit: ${shown.units[0]}`]: `${firstUnit}/${firstUnit}`,
      [`unit: ${shown.units[1]}`]: `0/${shown.unitRows.filter((u) => u.unit === shown.units[1]).length}`,
      passed: 'yes',
      rank: '1/2',
    });
    // Names in any script come through as written.
    expect(rows.find((r) => r['pupil id'] === 'S-002')).toMatchObject({ 'pupil name': 'أمينة', passed: 'no', rank: '2/2' });
    // Not sat yet: its status, and no result.
    const pending = rows.find((r) => r['pupil id'] === 'S-003')!;
    expect(pending).toMatchObject({ status: 'PENDING', score: '', passed: '', rank: '', [`unit: ${shown.units[0]}`]: '' });
  });

  test('a cell that begins with =, +, - or @ is neutralised with a single quote', async () => {
    const response = await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv`, { token: admin.token });
    const rows = rowsOf(response.body as string);
    expect(rows.map((r) => r['pupil name'])).toContain(`'=HYPERLINK("http://x")`);
    const plus = rows.find((r) => r['pupil name'] === "'+1")!;
    expect(plus).toMatchObject({ class: "'-2", 'pupil id': "'@SUM(A1)" });
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // The writer itself: tab and carriage return too; numbers and ordinary text untouched.
    expect(neutralise('\tx')).toBe("'\tx");
    expect(neutralise('\rx')).toBe("'\rx");
    expect(neutralise('Ana-Maria')).toBe('Ana-Maria');
    expect(writeCsv(['a'], [[-2], ['say "hi", then\nleave']])).toBe('\uFEFFa\r\n-2\r\n"say ""hi"", then\nleave"\r\n');
  });

  test('no rank column where the school hides ranks', async () => {
    const response = await api.call('GET', `/api/admin/schedules/${hidden.code}/results.csv`, { token: admin.token });
    expect(response.status).toBe(200);
    const csv = response.body as string;
    expect(csv.slice(1).split('\r\n')[0]!.split(',')).not.toContain('rank');
    const rows = rowsOf(csv);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(Object.keys(row)).not.toContain('rank');
  });

  test('?venue= keeps one classroom; a classroom of another school is 404', async () => {
    const roomB = shown.rooms[1]!;
    const response = await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv?venue=${roomB.id}`, { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="results-${shown.code}-venue-${roomB.id}.csv"`);
    const rows = rowsOf(response.body as string);
    expect(rows.map((r) => r['pupil id']).sort()).toEqual(["'@SUM(A1)", 'S-003']);
    for (const row of rows) expect(row.classroom).toBe(roomB.name);

    const elsewhere = await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv?venue=${hidden.rooms[0]!.id}`, { token: admin.token });
    expect(elsewhere.status).toBe(404);
    expect(errorOf(elsewhere).code).toBe('NOT_FOUND');
    const malformed = await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv?venue=abc`, { token: admin.token });
    expect(errorOf(malformed).code).toBe('VALIDATION_ERROR');
  });

  test('each export is audited: results_export, who, which test period and classroom, how many rows', async () => {
    const roomA = shown.rooms[0]!;
    await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv?venue=${roomA.id}`, { token: admin.token });
    const entries = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.scheduleId, shown.scheduleId), eq(auditLog.action, 'results_export')))
      .orderBy(asc(auditLog.id));
    const last = entries.at(-1)!;
    expect(last).toMatchObject({ staffId: admin.staffId, entity: `schedule:${shown.code}` });
    expect(last.detail).toMatchObject({ venue_id: roomA.id, rows: 2 });
  });

  test('a proctor is refused 403, without a token 401, an unknown test period 404; nothing is audited', async () => {
    const [pupilOrg] = await api.db.select({ code: organizations.code }).from(organizations).where(eq(organizations.id, shown.orgId));
    const proctor = await addStaff(api.db, { organizationId: shown.orgId, orgCode: pupilOrg!.code });
    const proctorToken = await staffLogin(api, proctor);
    const before = await api.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, 'results_export'));

    const refused = await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv`, { token: proctorToken });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('FORBIDDEN');
    const anonymous = await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv`);
    expect(anonymous.status).toBe(401);
    const unknown = await api.call('GET', '/api/admin/schedules/NO-SUCH-PERIOD/results.csv', { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('NOT_FOUND');

    const after = await api.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, 'results_export'));
    expect(after.length).toBe(before.length);
  });

  test('an Accept that admits no CSV is 406', async () => {
    const response = await api.call('GET', `/api/admin/schedules/${shown.code}/results.csv`, { token: admin.token, headers: { Accept: 'application/json' } });
    expect(response.status).toBe(406);
  });
});

/**
 * The command line opens the database the environment names: a PGlite directory (closed while
 * the command runs: it belongs to one process) or PostgreSQL.
 */
async function cliDatabase(kind: 'pglite' | 'postgres') {
  if (kind === 'postgres') {
    const database = await createTestDatabase('postgres');
    return { db: database.db, env: { DATABASE_URL: database.url }, pause: async () => undefined, resume: async () => database.db, close: () => database.close() };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gradus-cli-'));
  let database = await openDatabase({ dataDir, prepare: async (db) => void (await seedDemoData(db)) });
  return {
    db: database.db,
    env: { DATA_DIR: dataDir },
    pause: () => database.close(),
    resume: async () => (database = await openDatabase({ dataDir })).db,
    close: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(kinds)('export-results on the command line, on %s', (kind) => {
  test('writes the same file as the console for a classroom named by its name, audited without a staff member', { timeout: 300_000 }, async () => {
    const database = await cliDatabase(kind);
    const outDir = mkdtempSync(path.join(tmpdir(), 'gradus-results-'));
    try {
      const made = await school(database.db, classA, 1);
      const roomA = made.rooms[0]!;
      const expected = await resultsCsv(database.db, { schedule: { id: made.scheduleId, code: made.code, name: '', startsAt: new Date(), endsAt: new Date() }, school: { id: made.orgId, code: '', name: '', rankDisplayFlag: 1 }, venue: roomA });
      await database.pause();
      const out = path.join(outDir, 'results.csv');
      const lines: string[] = [];
      const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), env: database.env };
      const code = await runExportResults([made.code, '--venue', roomA.name, '--out', out], io);
      expect(code, lines.join('\n')).toBe(0);
      expect(lines.join('\n')).toContain(`Wrote 2 result row(s) of test period "${made.code}"`);
      expect(readFileSync(out, 'utf8')).toBe(expected.csv);
      expect(rowsOf(readFileSync(out, 'utf8')).map((r) => r['pupil id']).sort()).toEqual(['S-001', 'S-002']);

      expect(await runExportResults([made.code, '--out'], io)).toBe(2);
      expect(await runExportResults(['NO-SUCH-PERIOD', '--out', out], io)).toBe(1);
      expect(await runExportResults([made.code, '--venue', 'No such room', '--out', out], io)).toBe(1);

      const db = await database.resume();
      const entries = await db.select().from(auditLog).where(and(eq(auditLog.scheduleId, made.scheduleId), eq(auditLog.action, 'results_export')));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ staffId: null, reason: 'command line', entity: `schedule:${made.code}` });
      expect(entries[0]!.detail).toMatchObject({ venue_id: roomA.id, rows: 2 });
    } finally {
      await database.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
