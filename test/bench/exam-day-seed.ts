/**
 * Bench-only seeding for the exam-day simulation (test/bench/exam-day.bench.ts): a scratch
 * PostgreSQL database of its own, migrated and seeded with the demo data as `npm start` does,
 * plus `count` pupils of the demo school booked into the open demo test period (DEMO-2026), one
 * PENDING sitting each, spread over the twelve regular exams (every question type), written
 * with a few multi-row INSERTs (thousands of pupils in a second or two). Each pupil logs in
 * with a fresh random login code, as printed for a real school. With `rooms`, the pupils sit in
 * that many classrooms of the demo school (venues, round robin: pupil i in room i mod rooms), and
 * `proctors` proctor accounts of the school (who see every room) each get a staff bearer token,
 * stored as POST /api/admin/login stores one (the sign-in's rate limit refuses fifty at once from
 * one address). `warmUp` more pupils, in no classroom, are returned apart: the bench runs them
 * first, unmeasured, so the measured phases meet warm processes and connection pools.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { LOGIN_CODE_ALPHABET } from '../../contract/session.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { hashPassword } from '../../server/domain/passwords.ts';
import { newToken } from '../../server/domain/tokens.ts';
import { examinees, exams, organizations, scheduleHistories, schedules, staff, staffTokens, venues } from '../../server/db/schema.ts';
import { seedDemoData } from '../../server/seed/seed.ts';

export const BENCH_EXAMS = ['EN-1', 'EN-2', 'EN-3', 'CALC-1', 'CALC-2', 'CALC-3', 'JA-1', 'JA-2', 'JA-3', 'VP-1', 'VP-2', 'VP-3'];

export type BenchPupil = { loginCode: string; scheduleHistoryId: number; examCode: string; venueId: number | null };
export type BenchProctor = { loginId: string; token: string };
export type ExamDay = { pupils: BenchPupil[]; warmUp: BenchPupil[]; scheduleCode: string; rooms: number[]; proctors: BenchProctor[] };

export type ScratchDatabase = { url: string; name: string; drop(): Promise<void> };

/** A new, empty database next to `adminUrl`'s (dropped by `drop()`). */
export async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const name = `gradus_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

function loginCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => LOGIN_CODE_ALPHABET[b % LOGIN_CODE_ALPHABET.length]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

/** Migrates and seeds `url` like `npm start`, then adds `count` pupils; returns them (closes its connection). */
export async function seedExamDay(url: string, count: number): Promise<BenchPupil[]> {
  return (await seedExamDayRooms(url, count)).pupils;
}

/**
 * seedExamDay with the pupils in `rooms` classrooms (none: the schedule's venue) and `proctors`
 * proctor accounts; returns the pupils, the test period's code, the rooms' ids and the accounts.
 */
export async function seedExamDayRooms(url: string, count: number, options: { rooms?: number; proctors?: number; warmUp?: number } = {}): Promise<ExamDay> {
  const database: Database = await openDatabase({ databaseUrl: url, prepare: async (db) => void (await seedDemoData(db)) });
  try {
    const { db } = database;
    const [school] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.code, 'GRADUS-DEMO'));
    const [period] = await db.select({ id: schedules.id }).from(schedules).where(eq(schedules.scheduleCode, 'DEMO-2026'));
    const examRows = await db.select({ id: exams.id, code: exams.code }).from(exams).where(inArray(exams.code, BENCH_EXAMS));
    if (!school || !period || examRows.length !== BENCH_EXAMS.length) throw new Error('the demo seed is missing GRADUS-DEMO, DEMO-2026 or an exam');
    const examIds = new Map(examRows.map((e) => [e.code, e.id]));
    const roomCount = options.rooms ?? 0;
    const rooms =
      roomCount === 0
        ? []
        : (
            await db
              .insert(venues)
              .values(Array.from({ length: roomCount }, (_, i) => ({ organizationId: school.id, name: `Bench room ${String(i + 1).padStart(3, '0')}` })))
              .returning({ id: venues.id })
          ).map((r) => r.id);
    const proctors: BenchProctor[] = [];
    if ((options.proctors ?? 0) > 0) {
      const passwordHash = await hashPassword(randomUUID());
      const accounts = await db
        .insert(staff)
        .values(Array.from({ length: options.proctors! }, (_, i) => ({ organizationId: school.id, loginId: `bench-proctor-${i + 1}`, name: `Bench proctor ${i + 1}`, role: 'proctor' as const, passwordHash })))
        .returning({ id: staff.id, loginId: staff.loginId });
      const now = new Date();
      for (const account of accounts) {
        const { token, tokenHash } = newToken();
        await db.insert(staffTokens).values({ tokenHash, staffId: account.id, createdAt: now, expiresAt: new Date(now.getTime() + 12 * 3_600_000) });
        proctors.push({ loginId: account.loginId, token });
      }
    }

    const codes = new Set<string>();
    const warmUp = options.warmUp ?? 0;
    while (codes.size < count + warmUp) codes.add(loginCode());
    const all = [...codes];
    const pupils: BenchPupil[] = [];
    for (let start = 0; start < all.length; start += 1000) {
      const batch = all.slice(start, start + 1000);
      const inserted = await db
        .insert(examinees)
        .values(
          batch.map((code, i) => ({
            organizationId: school.id,
            name: `Bench pupil ${start + i + 1}`,
            gradeId: 4,
            loginCode: code,
            venueId: rooms.length === 0 || start + i >= count ? null : rooms[(start + i) % rooms.length]!,
          })),
        )
        .returning({ id: examinees.id, loginCode: examinees.loginCode, venueId: examinees.venueId });
      const booked = inserted.map((row, i) => ({ row, examCode: BENCH_EXAMS[(start + i) % BENCH_EXAMS.length]! }));
      const sittings = await db
        .insert(scheduleHistories)
        .values(
          booked.map(({ row, examCode }) => ({
            examineeId: row.id,
            scheduleId: period.id,
            examId: examIds.get(examCode)!,
            status: 0,
            userKey: randomUUID(),
            testKey: randomUUID(),
          })),
        )
        .returning({ id: scheduleHistories.id, examineeId: scheduleHistories.examineeId });
      const sittingOf = new Map(sittings.map((s) => [s.examineeId, s.id]));
      for (const { row, examCode } of booked) pupils.push({ loginCode: row.loginCode, scheduleHistoryId: sittingOf.get(row.id)!, examCode, venueId: row.venueId });
    }
    return { pupils: pupils.slice(0, count), warmUp: pupils.slice(count), scheduleCode: 'DEMO-2026', rooms, proctors };
  } finally {
    await database.close();
  }
}
