/**
 * Rows for server tests, written straight to the database: a fresh pupil with one sitting per
 * test (so tests in one file never share a pupil), optionally in their own organisation,
 * classroom or test period; and a snapshot of every table to prove a request changed nothing.
 */
import { randomUUID } from 'node:crypto';
import { asc, eq, is, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { LOGIN_CODE_ALPHABET } from '../../contract/session.ts';
import type { Db } from '../../server/db/client.ts';
import * as schema from '../../server/db/schema.ts';
import { hashPassword } from '../../server/domain/passwords.ts';

const { examinees, exams, organizations, questions, scheduleHistories, schedules, venues } = schema;

export function randomLoginCode(): string {
  const chars = Array.from({ length: 12 }, () => LOGIN_CODE_ALPHABET[Math.floor(Math.random() * LOGIN_CODE_ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

export type SittingOptions = {
  /** Default EN-1 (the demo English exam). */
  examCode?: string;
  /** Default 0 (PENDING). */
  status?: number;
  /** A new organisation with these properties instead of the demo one. */
  organization?: {
    disabled?: boolean;
    loginMethod?: number;
    enableModeStep?: boolean;
    foreignPaymentMethod?: boolean;
    category?: schema.OrganizationCategory;
  };
  /** A new classroom; `null` for a test period without one. */
  venue?: { disabled?: boolean } | null;
  /** A new test period (default: the demo one, open 2026 to 2030). */
  schedule?: { startsAt: string; endsAt: string; suspendedFrom?: string; suspendedUntil?: string };
  /** A login ID (random) with this password, for login types 1 and 5. */
  password?: string;
  isMyPageLogin?: boolean;
};

export type TestSitting = {
  loginCode: string;
  /** Set when `password` was given. */
  loginId: string | undefined;
  examineeId: number;
  scheduleHistoryId: number;
  examId: number;
  organizationId: number;
  orgCode: string;
  scheduleId: number;
  scheduleCode: string;
  venueId: number | null;
};

/** A new pupil booked into one sitting. */
export async function addSitting(db: Db, options: SittingOptions = {}): Promise<TestSitting> {
  const tag = randomUUID().slice(0, 8);
  let organizationId: number;
  if (options.organization) {
    [{ id: organizationId }] = await db
      .insert(organizations)
      .values({
        code: `TEST-${tag}`,
        name: `Test organisation ${tag}`,
        category: options.organization.category ?? 'SCHOOL',
        loginMethod: options.organization.loginMethod ?? 1,
        enableModeStep: options.organization.enableModeStep ?? false,
        foreignPaymentMethod: options.organization.foreignPaymentMethod ?? false,
        disabled: options.organization.disabled ?? false,
      })
      .returning({ id: organizations.id }) as [{ id: number }];
  } else {
    organizationId = await idWhere(db, organizations, eq(organizations.code, 'GRADUS-DEMO'));
  }

  let scheduleId: number;
  let venueId: number | null = null;
  if (options.organization || options.venue !== undefined || options.schedule) {
    if (options.venue !== null) {
      [{ id: venueId }] = await db
        .insert(venues)
        .values({ organizationId, name: `Room ${tag}`, disabled: options.venue?.disabled ?? false })
        .returning({ id: venues.id }) as [{ id: number }];
    }
    const window = options.schedule ?? { startsAt: '2026-01-01T00:00:00Z', endsAt: '2030-12-31T23:59:59Z' };
    [{ id: scheduleId }] = await db
      .insert(schedules)
      .values({
        scheduleCode: `TEST-${tag}`,
        organizationId,
        venueId,
        startsAt: new Date(window.startsAt),
        endsAt: new Date(window.endsAt),
        suspendedFrom: options.schedule?.suspendedFrom ? new Date(options.schedule.suspendedFrom) : null,
        suspendedUntil: options.schedule?.suspendedUntil ? new Date(options.schedule.suspendedUntil) : null,
      })
      .returning({ id: schedules.id }) as [{ id: number }];
  } else {
    scheduleId = await idWhere(db, schedules, eq(schedules.scheduleCode, 'DEMO-2026'));
  }
  const [place] = await db
    .select({ orgCode: organizations.code, scheduleCode: schedules.scheduleCode, venueId: schedules.venueId })
    .from(schedules)
    .innerJoin(organizations, eq(organizations.id, schedules.organizationId))
    .where(eq(schedules.id, scheduleId));

  const examId = await idWhere(db, exams, eq(exams.code, options.examCode ?? 'EN-1'));
  const loginCode = randomLoginCode();
  const loginId = options.password === undefined ? undefined : `pupil.${tag}`;
  const [examinee] = await db
    .insert(examinees)
    .values({
      organizationId,
      name: `Pupil ${tag}`,
      gradeId: 4,
      loginCode,
      loginId: loginId ?? null,
      passwordHash: options.password === undefined ? null : await hashPassword(options.password),
      isMyPageLogin: options.isMyPageLogin ?? false,
    })
    .returning({ id: examinees.id });
  const [history] = await db
    .insert(scheduleHistories)
    .values({
      examineeId: examinee!.id,
      scheduleId,
      examId,
      status: options.status ?? 0,
      userKey: randomUUID(),
      testKey: randomUUID(),
    })
    .returning({ id: scheduleHistories.id });
  return {
    loginCode,
    loginId,
    examineeId: examinee!.id,
    scheduleHistoryId: history!.id,
    examId,
    organizationId,
    orgCode: place!.orgCode,
    scheduleId,
    scheduleCode: place!.scheduleCode,
    venueId: place!.venueId,
  };
}

/** Another sitting of the same pupil in the same test period (an exam list). */
export async function addAnotherSitting(
  db: Db,
  sitting: TestSitting,
  options: { examCode: string; status?: number; finishedAt?: string },
): Promise<number> {
  const examId = await idWhere(db, exams, eq(exams.code, options.examCode));
  const finishedAt = options.finishedAt ? new Date(options.finishedAt) : null;
  const [history] = await db
    .insert(scheduleHistories)
    .values({
      examineeId: sitting.examineeId,
      scheduleId: sitting.scheduleId,
      examId,
      status: options.status ?? 0,
      userKey: randomUUID(),
      testKey: randomUUID(),
      finishedAt,
      startedAt: finishedAt,
    })
    .returning({ id: scheduleHistories.id });
  return history!.id;
}

/** The questions of an exam with their correct answers, in order (what the server must never send). */
export async function answerKey(db: Db, examId: number) {
  return db
    .select({ id: questions.id, number: questions.number, type: questions.type, correctAnswer: questions.correctAnswer })
    .from(questions)
    .where(eq(questions.examId, examId))
    .orderBy(asc(questions.number));
}

export async function historyRow(db: Db, scheduleHistoryId: number) {
  const [row] = await db.select().from(scheduleHistories).where(eq(scheduleHistories.id, scheduleHistoryId));
  if (!row) throw new Error(`no schedule history ${scheduleHistoryId}`);
  return row;
}

/**
 * A fingerprint of every row of every table in the schema, read in one statement (one round trip,
 * nothing mapped in JavaScript): for each table its row count and the md5 of its rows' full text
 * in sorted order (each row cast to text: every column as PostgreSQL prints it, timestamps to the
 * microsecond). Any inserted, deleted or changed row of any table changes that table's entry, so
 * equal snapshots mean nothing was written; a difference names the table. Keys are the schema's
 * export names (`staff`, `auditLog`, ...).
 */
export async function snapshotTables(db: Db): Promise<TableSnapshot> {
  const result = await db.execute(snapshotStatement());
  const [row] = (result as unknown as { rows: Record<string, string>[] }).rows;
  if (!row) throw new Error('snapshotTables: the statement returned no row');
  return { ...row };
}

/** Per table (by its name in the schema's exports): `<row count> <md5 of its rows>`. */
export type TableSnapshot = Record<string, string>;

let statement: SQL | undefined;

function snapshotStatement(): SQL {
  statement ??= sql.raw(
    `select ${Object.entries(schema)
      .filter(([, value]) => isTable(value))
      .map(([key, value]) => {
        const { name, schema: tableSchema } = getTableConfig(value as PgTable);
        const table = tableSchema ? `${quoted(tableSchema)}.${quoted(name)}` : quoted(name);
        const rowText = 'snapshot_row::text collate "C"';
        return `(select count(*)::text || ' ' || coalesce(md5(string_agg(${rowText}, E'\\n' order by ${rowText})), '') from ${table} snapshot_row) as ${quoted(key)}`;
      })
      .join(', ')}`,
  );
  return statement;
}

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function isTable(value: unknown): boolean {
  return is(value, PgTable);
}

async function idWhere(db: Db, table: typeof organizations | typeof schedules | typeof exams, where: ReturnType<typeof eq>) {
  const [row] = await db.select({ id: table.id }).from(table).where(where);
  if (!row) throw new Error('fixture: missing demo row (was the database seeded?)');
  return row.id;
}

/** Items bought for a sitting, as a paid checkout leaves them (payments, payment_items, purchases). */
export async function buyItems(db: Db, scheduleHistoryId: number, kinds: schema.PaymentKind[], paidAt: Date): Promise<void> {
  const [payment] = await db
    .insert(schema.payments)
    .values({
      reference: `TEST-${scheduleHistoryId}-${randomUUID().slice(0, 8)}`,
      scheduleHistoryId,
      purpose: kinds.includes('exam_fee') ? 'exam_fee' : 'result_fee',
      status: 2,
      outcome: 'authorised',
      amountMinor: 500 * kinds.length,
      provider: 'demo',
      expiresAt: paidAt,
    })
    .returning({ id: schema.payments.id });
  await db.insert(schema.paymentItems).values(kinds.map((kind) => ({ paymentId: payment!.id, kind, unitPriceMinor: 500, totalMinor: 500 })));
  await db.insert(schema.purchases).values(kinds.map((kind) => ({ scheduleHistoryId, kind, paymentId: payment!.id, paidAt })));
}
