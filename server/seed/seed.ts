/**
 * The demo, brought in on every demo start like a school's own data: subjects and levels, the
 * exam files of server/seed/demo/exams/ through the exam import, then the roster files of
 * server/seed/demo/ (schools, venues, schedules, pupils: server/seed/demo-roster.ts) through the
 * roster import, all in one transaction that holds the imports' lock. An unchanged file writes
 * nothing (an exam's content digest; a roster row that matches what is stored), so a second start
 * changes nothing; a changed file updates what it names, as the import does for any school.
 *
 * What no file format says is the demo's scenarios, applied by this module after the import to
 * what the files just created, never to rows that were there before (an existing ./data keeps
 * what pupils and proctors did with it): the passwords of the accounts that log in with one, the
 * my-page flag and already registered basic information, the starting status of sittings that
 * are finished, cancelled or expired, the suspended test period, the foreign-payment school, the
 * results demo (server/seed/results-demo.ts: its test periods relative to the first start, the
 * cohort's answers, scores and payments) and the demo proctors of server/seed/staff-accounts.json.
 * Pupils an older seed wrote without a pupil id are matched by their login code and given the
 * file's, so the file adopts them instead of refusing their codes.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { importKinds, type ImportKind } from '../../contract/imports.ts';
import type { Db, Tx } from '../db/client.ts';
import { examinees, exams, levels, organizations, scheduleHistories, schedules, staff, subjects } from '../db/schema.ts';
import { digestOf } from '../domain/exam.ts';
import { isFinished } from '../domain/schedule-history.ts';
import { importExamDocument, jsonQuestionKey } from '../imports/exams/apply.ts';
import { fold, lockImports, type ImportResult } from '../imports/plan.ts';
import { importRosterInTransaction } from '../imports/roster.ts';
import { demoSittingsOf, loadDemoAccounts, type DemoAccount } from './demo-accounts.ts';
import { demoExams, demoLevels, demoShortExams, demoSubjects } from './demo-content.ts';
import { demoPupilRowsOf, demoRosterFiles, examCodesOf, readDemoPupils } from './demo-roster.ts';
import { passwordHasher, type PasswordHasher } from './passwords.ts';
import { seedResultsDemo } from './results-demo.ts';
import { loadStaffAccounts, type StaffAccount } from './staff-accounts.ts';

export type SeedSummary = { examinees: number; exams: number; questions: number };

/** When the demo's finished sittings were sat, and its basic information registered. */
const DEMO_PAST = new Date('2026-01-05T09:00:00.000Z');

/** Test periods of the demo suspended for their whole window (SCHEDULE_SUSPENSION_TIME). */
const suspendedSchedules: ReadonlySet<string> = new Set(['demo-paused']);
/** Schools of the demo that pay through the foreign payment flow. */
const foreignPaymentSchools: ReadonlySet<string> = new Set(['gradus-abroad']);

/** `accounts`: the demo pupils to bring in (default: all of demo-accounts.json). */
/** `now`: the server's time; the results demo (server/seed/results-demo.ts) places its exams before it. */
export async function seedDemoData(db: Db, accounts: DemoAccount[] = loadDemoAccounts(), now: Date = new Date()): Promise<SeedSummary> {
  const hash = passwordHasher();
  const pupilRows = demoPupilRowsOf(accounts, readDemoPupils());
  const files = demoRosterFiles(accounts);
  const context = { apply: true, now, staffId: null, reason: 'demo seed' };
  return db.transaction(async (tx) => {
    // Every start holds the imports' lock from its first read: starts side by side wait in turn.
    await lockImports(tx);
    await tx.insert(subjects).values([...demoSubjects]).onConflictDoNothing();
    await tx.insert(levels).values([...demoLevels]).onConflictDoNothing();

    let questionCount = 0;
    for (const exam of [...demoExams, ...demoShortExams]) {
      const result = await importExamDocument(tx, exam.document, jsonQuestionKey(exam.code), { ...context, undigestedInPlace: true });
      if (!result.applied) throw new Error(`server/seed/demo/exams/${exam.code}.json: not imported ${JSON.stringify(result.rows.filter((row) => row.outcome === 'refuse'))}`);
      questionCount += exam.questions.length;
    }

    const results = {} as Record<ImportKind, ImportResult>;
    for (const kind of importKinds) {
      if (kind === 'pupils') await adoptOlderPupils(tx, readDemoPupils());
      const known = kind === 'pupils' ? await pupilIdsByCode(tx, [...pupilRows.keys()]) : new Map<string, number>();
      results[kind] = await importRosterInTransaction(tx, kind, files[kind], context);
      if (!results[kind].applied) {
        throw new Error(`server/seed/demo/${kind}.csv: not imported ${JSON.stringify(results[kind].rows.filter((row) => row.outcome === 'refuse'))}`);
      }
      if (kind === 'pupils') await applyPupilScenarios(tx, accounts, { known, hash });
    }
    const created = (kind: ImportKind) => new Set(results[kind].rows.filter((row) => row.outcome === 'create').map((row) => fold(row.key)));
    const newSchedules = [...created('schedules')].filter((code) => suspendedSchedules.has(code));
    if (newSchedules.length > 0) {
      await tx
        .update(schedules)
        .set({ suspendedFrom: sql`${schedules.startsAt}`, suspendedUntil: sql`${schedules.endsAt}` })
        .where(inArray(sql`lower(${schedules.scheduleCode})`, newSchedules));
    }
    const newForeign = [...created('schools')].filter((code) => foreignPaymentSchools.has(code));
    if (newForeign.length > 0) await tx.update(organizations).set({ foreignPaymentMethod: true }).where(inArray(sql`lower(${organizations.code})`, newForeign));

    await seedResultsDemo(tx, now, hash);
    await ensureStaff(tx, loadStaffAccounts(), hash);
    return { examinees: accounts.length, exams: demoExams.length + demoShortExams.length, questions: questionCount };
  });
}

/** The stored pupils of these login codes, by code. */
async function pupilIdsByCode(tx: Tx, codes: readonly string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await tx.select({ id: examinees.id, loginCode: examinees.loginCode }).from(examinees).where(inArray(examinees.loginCode, [...codes]));
  return new Map(rows.map((row) => [row.loginCode, row.id]));
}

/** Demo pupils an older seed wrote without a pupil id get the file's (found by login code and school). */
async function adoptOlderPupils(tx: Tx, rows: ReturnType<typeof readDemoPupils>): Promise<void> {
  const older = await tx
    .select({ id: examinees.id, loginCode: examinees.loginCode, school: organizations.code })
    .from(examinees)
    .innerJoin(organizations, eq(organizations.id, examinees.organizationId))
    .where(and(isNull(examinees.externalId), inArray(examinees.loginCode, [...rows.keys()])));
  for (const pupil of older) {
    const row = rows.get(pupil.loginCode)!;
    if (fold(row.school) === fold(pupil.school)) await tx.update(examinees).set({ externalId: row.pupilId }).where(eq(examinees.id, pupil.id));
  }
}

/**
 * The scenarios of demo-accounts.json on the pupils the pupils file just created (`known`: the
 * pupils stored before it, left as they are): password, my-page flag, registered basic
 * information, and each sitting's starting status.
 */
async function applyPupilScenarios(tx: Tx, accounts: readonly DemoAccount[], options: { known: ReadonlyMap<string, number>; hash: PasswordHasher }): Promise<void> {
  const fresh = accounts.filter((account) => !options.known.has(account.login_code));
  if (fresh.length === 0) return;
  for (const account of fresh) if (account.password !== undefined) void options.hash(account.password);
  const ids = await pupilIdsByCode(tx, fresh.map((account) => account.login_code));
  const sittings = await tx
    .select({ id: scheduleHistories.id, examineeId: scheduleHistories.examineeId, examCode: exams.code })
    .from(scheduleHistories)
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .where(inArray(scheduleHistories.examineeId, [...ids.values()]));
  for (const account of fresh) {
    const examineeId = ids.get(account.login_code);
    if (examineeId === undefined) throw new Error(`server/seed/demo/pupils.csv: ${account.login_code} was not imported`);
    const registered = account.email !== undefined && account.email !== null;
    if (account.password !== undefined || account.is_my_page_login || registered) {
      await tx
        .update(examinees)
        .set({
          passwordHash: account.password === undefined ? null : await options.hash(account.password),
          isMyPageLogin: account.is_my_page_login,
          ...(registered ? { email: account.email, basicInfoRegisteredAt: DEMO_PAST } : {}),
        })
        .where(eq(examinees.id, examineeId));
    }
    const codes = examCodesOf(account);
    for (const [index, sitting] of demoSittingsOf(account).entries()) {
      if (sitting.status === ScheduleHistoryStatus.PENDING) continue;
      if (sitting.status === ScheduleHistoryStatus.DOING) throw new Error(`demo-accounts.json: ${account.login_code} cannot start in the middle of an exam`);
      const found = sittings.find((row) => row.examineeId === examineeId && fold(row.examCode) === fold(codes[index]!));
      if (!found) throw new Error(`server/seed/demo/pupils.csv: ${account.login_code} has no sitting of ${codes[index]}`);
      await tx
        .update(scheduleHistories)
        .set(
          isFinished(sitting.status)
            ? // Sat and finished on the first morning of the period, without answers.
              {
                status: sitting.status,
                startedAt: DEMO_PAST,
                deadlineAt: new Date(DEMO_PAST.getTime() + 2400_000),
                finishedAt: new Date(DEMO_PAST.getTime() + 600_000),
                answerCount: 0,
                answersDigest: digestOf([]),
              }
            : { status: sitting.status },
        )
        .where(eq(scheduleHistories.id, found.id));
    }
  }
}

/** The demo proctors of server/seed/staff-accounts.json, each when missing (found by organisation and login id). */
async function ensureStaff(tx: Tx, accounts: readonly StaffAccount[], hash: PasswordHasher): Promise<void> {
  for (const account of accounts) {
    const [organization] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.code, account.org_code)).limit(1);
    if (!organization) throw new Error(`staff-accounts.json: no organisation ${account.org_code}`);
    const [found] = await tx
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.organizationId, organization.id), eq(staff.loginId, account.login_id)))
      .limit(1);
    if (found) continue;
    await tx
      .insert(staff)
      .values({ organizationId: organization.id, loginId: account.login_id, name: account.name, role: 'proctor', passwordHash: await hash(account.password) })
      .onConflictDoNothing();
  }
}
