/**
 * Idempotent demo data, safe to run on every start: subjects, levels, the demo organisation
 * with its classrooms and test periods, the exams with their questions, and the demo pupils of
 * server/seed/demo-accounts.json with one sitting each. Rows are found by their natural keys
 * (subject id, organisation code, schedule code, exam code, login code) and only created when
 * missing; existing rows, and what pupils did with them, are left alone.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../src/shared/contract.ts';
import type { Db, Tx } from '../db/client.ts';
import {
  examinees,
  exams,
  levels,
  organizations,
  questions,
  scheduleHistories,
  schedules,
  subjects,
  venues,
} from '../db/schema.ts';
import { digestOf } from '../domain/exam.ts';
import { loadDemoAccounts, type DemoAccount } from './demo-accounts.ts';
import {
  demoExams,
  demoLevels,
  demoOrganization,
  demoSchedules,
  demoSubjects,
  demoVenues,
  scheduleForScenario,
  type DemoVenueKey,
} from './demo-content.ts';

export type SeedSummary = { examinees: number; exams: number; questions: number };

export async function seedDemoData(db: Db): Promise<SeedSummary> {
  const accounts = loadDemoAccounts();
  return db.transaction(async (tx) => {
    await tx.insert(subjects).values([...demoSubjects]).onConflictDoNothing();
    await tx.insert(levels).values([...demoLevels]).onConflictDoNothing();

    const organizationId = await ensureOrganization(tx);
    const venueIds = new Map<DemoVenueKey, number>();
    for (const venue of demoVenues) venueIds.set(venue.key, await ensureVenue(tx, organizationId, venue));
    const scheduleIds = new Map<string, number>();
    for (const schedule of demoSchedules) {
      await tx
        .insert(schedules)
        .values({
          scheduleCode: schedule.code,
          organizationId,
          venueId: venueIds.get(schedule.venue) ?? null,
          startsAt: new Date(schedule.startsAt),
          endsAt: new Date(schedule.endsAt),
        })
        .onConflictDoNothing();
      scheduleIds.set(schedule.code, await idOf(tx, 'schedule', schedules, eq(schedules.scheduleCode, schedule.code)));
    }

    let questionCount = 0;
    const examIds = new Map<string, number>();
    for (const exam of demoExams) {
      const levelId = await idOf(
        tx,
        'level',
        levels,
        and(eq(levels.subjectId, exam.subjectId), eq(levels.position, exam.level)),
      );
      await tx
        .insert(exams)
        .values({ code: exam.code, levelId, title: exam.title, timeLimitSeconds: exam.timeLimitSeconds })
        .onConflictDoNothing();
      const examId = await idOf(tx, 'exam', exams, eq(exams.code, exam.code));
      examIds.set(`${exam.subjectId}/${exam.level}`, examId);
      await tx
        .insert(questions)
        .values(exam.questions.map((q, i) => ({ ...q, examId, number: i + 1 })))
        .onConflictDoNothing();
      questionCount += exam.questions.length;
    }

    for (const account of accounts) {
      const examId = examIds.get(`${account.subject}/${account.level}`);
      const scheduleId = scheduleIds.get(scheduleForScenario[account.scenario]);
      if (examId === undefined || scheduleId === undefined) {
        throw new Error(`demo-accounts.json: no exam for subject ${account.subject} level ${account.level}`);
      }
      await ensurePupil(tx, account, { organizationId, examId, scheduleId });
    }
    return { examinees: accounts.length, exams: demoExams.length, questions: questionCount };
  });
}

async function ensureOrganization(tx: Tx): Promise<number> {
  await tx.insert(organizations).values(demoOrganization).onConflictDoNothing();
  return idOf(tx, 'organization', organizations, eq(organizations.code, demoOrganization.code));
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

/** The pupil and, when they have none yet in that test period, their sitting. */
async function ensurePupil(
  tx: Tx,
  account: DemoAccount,
  ids: { organizationId: number; examId: number; scheduleId: number },
): Promise<void> {
  await tx
    .insert(examinees)
    .values({
      organizationId: ids.organizationId,
      name: account.name,
      gradeId: account.grade_id,
      loginCode: account.login_code,
    })
    .onConflictDoNothing();
  const examineeId = await idOf(tx, 'examinee', examinees, eq(examinees.loginCode, account.login_code));
  const [existing] = await tx
    .select({ id: scheduleHistories.id })
    .from(scheduleHistories)
    .where(and(eq(scheduleHistories.examineeId, examineeId), eq(scheduleHistories.scheduleId, ids.scheduleId)))
    .limit(1);
  if (existing) return;

  const base = { examineeId, scheduleId: ids.scheduleId, examId: ids.examId, userKey: randomUUID(), testKey: randomUUID() };
  if (account.scenario === 'completed') {
    // Sat and finished on the first morning of the period, without answers.
    const startedAt = new Date('2026-01-05T09:00:00.000Z');
    await tx.insert(scheduleHistories).values({
      ...base,
      status: ScheduleHistoryStatus.COMPLETED,
      startedAt,
      deadlineAt: new Date(startedAt.getTime() + 2400_000),
      finishedAt: new Date(startedAt.getTime() + 600_000),
      answerCount: 0,
      answersDigest: digestOf([]),
    });
  } else {
    await tx.insert(scheduleHistories).values({ ...base, status: ScheduleHistoryStatus.PENDING });
  }
}

type TableWithId = typeof organizations | typeof venues | typeof schedules | typeof levels | typeof exams | typeof examinees;

async function idOf(tx: Tx, what: string, table: TableWithId, where: ReturnType<typeof and>): Promise<number> {
  const [row] = await tx.select({ id: table.id }).from(table).where(where).limit(1);
  if (!row) throw new Error(`Seed: the ${what} was neither found nor created`);
  return row.id;
}
