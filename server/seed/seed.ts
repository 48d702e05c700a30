/**
 * Idempotent demo data, safe to run on every start: subjects, levels, the demo organisations
 * with their classrooms and test periods, the exams, and the demo pupils of
 * server/seed/demo-accounts.json with their sittings, and the demo proctors of
 * server/seed/staff-accounts.json (one per demo organisation). Rows are found by their natural keys
 * (subject id, organisation code, schedule code, exam code, login code; a sitting by pupil,
 * schedule and exam code) and only created when missing; existing rows, and what pupils did with
 * them, are left alone. The exams are the files of server/seed/demo/exams/, brought in through
 * the exam import (server/imports/exams/apply.ts) in this transaction: an unchanged file (the same
 * content digest) writes nothing; a changed one updates its exam in place, or adds the exam's next
 * version once a pupil has started it, which sittings booked from then on take (an exam the seed
 * wrote before its exams were files, without a digest, is brought up to date in place once). So
 * a newer version adds its new rows to an existing ./data.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Db, Tx } from '../db/client.ts';
import {
  examinees,
  exams,
  levels,
  organizations,
  scheduleHistories,
  schedules,
  staff,
  subjects,
  venues,
} from '../db/schema.ts';
import { digestOf } from '../domain/exam.ts';
import { isFinished } from '../domain/schedule-history.ts';
import { importExamDocument, jsonQuestionKey } from '../imports/exams/apply.ts';
import { demoSittingsOf, loadDemoAccounts, type DemoAccount } from './demo-accounts.ts';
import { passwordHasher, type PasswordHasher } from './passwords.ts';
import { seedResultsDemo } from './results-demo.ts';
import { loadStaffAccounts, type StaffAccount } from './staff-accounts.ts';
import {
  demoExams,
  demoLevels,
  demoOrganization,
  demoSchedules,
  demoShortExams,
  demoSubjects,
  demoVenues,
  otherDemoOrganizations,
  scheduleForScenario,
  type DemoSchedule,
  type DemoVenueKey,
} from './demo-content.ts';

export type SeedSummary = { examinees: number; exams: number; questions: number };

/** When the demo's finished sittings were sat, and its basic information registered. */
const DEMO_PAST = new Date('2026-01-05T09:00:00.000Z');

/** `accounts`: the demo pupils to ensure (default: all of demo-accounts.json). */
/** `now`: the server's time; the results demo (server/seed/results-demo.ts) places its exams before it. */
export async function seedDemoData(db: Db, accounts: DemoAccount[] = loadDemoAccounts(), now: Date = new Date()): Promise<SeedSummary> {
  const hash = passwordHasher();
  return db.transaction(async (tx) => {
    await tx.insert(subjects).values([...demoSubjects]).onConflictDoNothing();
    await tx.insert(levels).values([...demoLevels]).onConflictDoNothing();

    const organizationIds = new Map<string, number>();
    for (const organization of [demoOrganization, ...otherDemoOrganizations]) {
      await tx.insert(organizations).values(organization).onConflictDoNothing();
      organizationIds.set(organization.code, await idOf(tx, 'organization', organizations, eq(organizations.code, organization.code)));
    }
    const demoOrganizationId = organizationIds.get(demoOrganization.code)!;
    const venueIds = new Map<DemoVenueKey, number>();
    for (const venue of demoVenues) venueIds.set(venue.key, await ensureVenue(tx, demoOrganizationId, venue));
    const scheduleIds = new Map<string, number>();
    for (const schedule of demoSchedules as readonly DemoSchedule[]) {
      const organizationId = organizationIds.get(schedule.org ?? demoOrganization.code);
      if (organizationId === undefined) throw new Error(`demo-content.ts: schedule ${schedule.code} of an unknown organisation`);
      await tx
        .insert(schedules)
        .values({
          scheduleCode: schedule.code,
          organizationId,
          venueId: schedule.venue === undefined ? null : (venueIds.get(schedule.venue) ?? null),
          startsAt: new Date(schedule.startsAt),
          endsAt: new Date(schedule.endsAt),
          suspendedFrom: schedule.suspendedFrom === undefined ? null : new Date(schedule.suspendedFrom),
          suspendedUntil: schedule.suspendedUntil === undefined ? null : new Date(schedule.suspendedUntil),
          applicationMode: schedule.applicationMode ?? 1,
        })
        .onConflictDoNothing();
      scheduleIds.set(schedule.code, await idOf(tx, 'schedule', schedules, eq(schedules.scheduleCode, schedule.code)));
    }

    let questionCount = 0;
    for (const exam of [...demoExams, ...demoShortExams]) {
      const result = await importExamDocument(tx, exam.document, jsonQuestionKey(exam.code), {
        apply: true,
        undigestedInPlace: true,
        now,
        staffId: null,
        reason: 'demo seed',
      });
      if (!result.applied) throw new Error(`server/seed/demo/exams/${exam.code}.json: not imported ${JSON.stringify(result.rows.filter((row) => row.outcome === 'refuse'))}`);
      questionCount += exam.questions.length;
    }
    // Each exam by its code: the newest version, which new sittings take.
    const newest = new Map<string, number>();
    for (const row of await tx
      .select({ id: exams.id, code: exams.code })
      .from(exams)
      .where(inArray(exams.code, [...demoExams, ...demoShortExams].map((exam) => exam.code)))
      .orderBy(asc(exams.version))) {
      newest.set(row.code, row.id);
    }
    for (const exam of [...demoExams, ...demoShortExams]) {
      if (!newest.has(exam.code)) throw new Error(`Seed: exam ${exam.code} is stored under a code of another case`);
    }
    /** The regular paper of each level, by "subject/level"; every paper (short ones too) by code. */
    const examIds = new Map<string, { id: number; code: string }>();
    const examIdsByCode = new Map<string, { id: number; code: string; subjectId: number; level: number }>();
    for (const exam of demoExams) examIds.set(`${exam.subjectId}/${exam.level}`, { id: newest.get(exam.code)!, code: exam.code });
    for (const exam of [...demoExams, ...demoShortExams]) {
      examIdsByCode.set(exam.code, { id: newest.get(exam.code)!, code: exam.code, subjectId: exam.subjectId, level: exam.level });
    }

    // Which pupils and sittings exist, in two reads (not three per pupil): on a later start, all.
    const known = new Map(
      (await tx.select({ id: examinees.id, loginCode: examinees.loginCode }).from(examinees).where(inArray(examinees.loginCode, accounts.map((a) => a.login_code)))).map(
        (row) => [row.loginCode, row.id],
      ),
    );
    const booked = new Set(
      (known.size === 0
        ? []
        : await tx
            .select({ examineeId: scheduleHistories.examineeId, scheduleId: scheduleHistories.scheduleId, examCode: exams.code })
            .from(scheduleHistories)
            .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
            .where(inArray(scheduleHistories.examineeId, [...known.values()]))
      ).map((row) => sittingKey(row.examineeId, row.scheduleId, row.examCode)),
    );
    for (const account of accounts) if (!known.has(account.login_code) && account.password !== undefined) void hash(account.password);
    for (const account of accounts) {
      const organizationId = organizationIds.get(account.org_code);
      const scheduleCode = account.schedule_code ?? scheduleForScenario[account.scenario];
      const scheduleId = scheduleCode === undefined ? undefined : scheduleIds.get(scheduleCode);
      if (organizationId === undefined || scheduleId === undefined) {
        throw new Error(`demo-accounts.json: ${account.login_code} names an unknown organisation or schedule`);
      }
      const sittings = demoSittingsOf(account).map((sitting) => {
        const special = sitting.examCode === undefined ? undefined : examIdsByCode.get(sitting.examCode);
        if (sitting.examCode !== undefined && (special?.subjectId !== sitting.subject || special.level !== sitting.level)) {
          throw new Error(`demo-accounts.json: ${account.login_code} names exam ${sitting.examCode}, not one of subject ${sitting.subject} level ${sitting.level}`);
        }
        const exam = special ?? examIds.get(`${sitting.subject}/${sitting.level}`);
        if (exam === undefined) {
          throw new Error(`demo-accounts.json: no exam for subject ${sitting.subject} level ${sitting.level}`);
        }
        return { examId: exam.id, examCode: exam.code, status: sitting.status };
      });
      await ensurePupil(tx, account, { organizationId, scheduleId, sittings }, { examineeId: known.get(account.login_code), booked, hash });
    }
    await seedResultsDemo(tx, now, hash);
    await ensureStaff(tx, loadStaffAccounts(), hash);
    return { examinees: accounts.length, exams: demoExams.length + demoShortExams.length, questions: questionCount };
  });
}

async function ensureVenue(
  tx: Tx,
  organizationId: number,
  venue: { name: string; disabled: boolean },
): Promise<number> {
  await tx
    .insert(venues)
    .values({ organizationId, name: venue.name, disabled: venue.disabled })
    .onConflictDoNothing();
  return idOf(tx, 'venue', venues, and(eq(venues.organizationId, organizationId), eq(venues.name, venue.name)));
}

/** A sitting by pupil, test period and exam code: a pupil booked into any version of an exam is booked. */
const sittingKey = (examineeId: number, scheduleId: number, examCode: string) => `${examineeId}/${scheduleId}/${examCode.toLowerCase()}`;

/** The pupil and, each when missing, their sittings (`known`: the pupil's id if it exists, and every existing sitting). */
async function ensurePupil(
  tx: Tx,
  account: DemoAccount,
  ids: { organizationId: number; scheduleId: number; sittings: { examId: number; examCode: string; status: number }[] },
  known: { examineeId: number | undefined; booked: ReadonlySet<string>; hash: PasswordHasher },
): Promise<void> {
  let examineeId = known.examineeId;
  if (examineeId === undefined) {
    const registered = account.email !== undefined && account.email !== null;
    await tx
      .insert(examinees)
      .values({
        organizationId: ids.organizationId,
        name: account.name,
        gradeId: account.grade_id,
        email: account.email ?? null,
        basicInfoRegisteredAt: registered ? DEMO_PAST : null,
        isMyPageLogin: account.is_my_page_login,
        loginCode: account.login_code,
        loginId: account.login_id ?? null,
        // Hashed only when the pupil is new: scrypt is deliberately slow.
        passwordHash: account.password === undefined ? null : await known.hash(account.password),
      })
      .onConflictDoNothing();
    examineeId = await idOf(tx, 'examinee', examinees, eq(examinees.loginCode, account.login_code));
  }

  for (const sitting of ids.sittings) {
    if (known.booked.has(sittingKey(examineeId, ids.scheduleId, sitting.examCode))) continue;
    const [existing] = await tx
      .select({ id: scheduleHistories.id })
      .from(scheduleHistories)
      .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
      .where(
        and(
          eq(scheduleHistories.examineeId, examineeId),
          eq(scheduleHistories.scheduleId, ids.scheduleId),
          eq(exams.code, sitting.examCode),
        ),
      )
      .limit(1);
    if (existing) continue;

    const base = { examineeId, scheduleId: ids.scheduleId, examId: sitting.examId, userKey: randomUUID(), testKey: randomUUID() };
    if (sitting.status === ScheduleHistoryStatus.DOING) {
      throw new Error(`demo-accounts.json: ${account.login_code} cannot start in the middle of an exam`);
    }
    if (isFinished(sitting.status)) {
      // Sat and finished on the first morning of the period, without answers.
      await tx.insert(scheduleHistories).values({
        ...base,
        status: sitting.status,
        startedAt: DEMO_PAST,
        deadlineAt: new Date(DEMO_PAST.getTime() + 2400_000),
        finishedAt: new Date(DEMO_PAST.getTime() + 600_000),
        answerCount: 0,
        answersDigest: digestOf([]),
      });
    } else {
      await tx.insert(scheduleHistories).values({ ...base, status: sitting.status });
    }
  }
}

/** The demo proctors of server/seed/staff-accounts.json, each when missing (found by organisation and login id). */
async function ensureStaff(tx: Tx, accounts: readonly StaffAccount[], hash: PasswordHasher): Promise<void> {
  for (const account of accounts) {
    const organizationId = await idOf(tx, 'organization', organizations, eq(organizations.code, account.org_code));
    const [found] = await tx
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.organizationId, organizationId), eq(staff.loginId, account.login_id)))
      .limit(1);
    if (found) continue;
    await tx
      .insert(staff)
      .values({ organizationId, loginId: account.login_id, name: account.name, role: 'proctor', passwordHash: await hash(account.password) })
      .onConflictDoNothing();
  }
}

type TableWithId = typeof organizations | typeof venues | typeof schedules | typeof levels | typeof exams | typeof examinees;

async function idOf(tx: Tx, what: string, table: TableWithId, where: ReturnType<typeof and>): Promise<number> {
  const [row] = await tx.select({ id: table.id }).from(table).where(where).limit(1);
  if (!row) throw new Error(`Seed: the ${what} was neither found nor created`);
  return row.id;
}
