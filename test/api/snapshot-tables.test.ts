/**
 * snapshotTables, the proof the API tests give that a refused request wrote nothing: it covers
 * every table of the schema, is equal when nothing was written, and differs, in the changed
 * table's entry only, when one row of one table is inserted, deleted or changed in one column,
 * down to a microsecond of a timestamp.
 */
import { eq, getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as schema from '../../server/db/schema.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { addSitting, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

const tables = Object.entries(schema).filter(([, value]) => is(value, PgTable)) as [string, PgTable][];

/** The keys whose entries differ between two snapshots. */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((key) => after[key] !== before[key]);
}

describe.each(kinds)('snapshotTables on %s', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  test('has an entry for every table of the schema, with its row count, and is equal when nothing was written', async () => {
    const before = await snapshotTables(database.db);
    expect(Object.keys(before).sort()).toEqual(tables.map(([key]) => key).sort());
    for (const [key, table] of tables) {
      const result = await database.db.execute(sql`select count(*)::int as count from ${table}`);
      const count = (result as unknown as { rows: { count: number }[] }).rows[0]!.count;
      expect(before[key], getTableName(table)).toMatch(count === 0 ? /^0 $/ : new RegExp(`^${count} [0-9a-f]{32}$`));
    }
    expect(Number(before.questions!.split(' ')[0])).toBeGreaterThan(0);
    expect(await snapshotTables(database.db)).toEqual(before);
  });

  test('one changed column of one row changes that table’s entry only, and changing it back restores it', async () => {
    const pupil = await addSitting(database.db);
    const [row] = await database.db.select().from(schema.examinees).where(eq(schema.examinees.id, pupil.examineeId));
    const before = await snapshotTables(database.db);

    await database.db.update(schema.examinees).set({ email: 'changed@example.org' }).where(eq(schema.examinees.id, pupil.examineeId));
    const after = await snapshotTables(database.db);
    expect(changed(before, after)).toEqual(['examinees']);
    expect(after.examinees!.split(' ')[0]).toBe(before.examinees!.split(' ')[0]);

    await database.db.update(schema.examinees).set({ email: row!.email }).where(eq(schema.examinees.id, pupil.examineeId));
    expect(await snapshotTables(database.db)).toEqual(before);
  });

  test('one microsecond later in one timestamp of one row is a difference', async () => {
    const pupil = await addSitting(database.db);
    const before = await snapshotTables(database.db);
    await database.db.execute(
      sql`update schedule_histories set started_at = coalesce(started_at, timestamptz '2026-06-01T08:00:00Z') + interval '1 microsecond' where id = ${pupil.scheduleHistoryId}`,
    );
    expect(changed(before, await snapshotTables(database.db))).toEqual(['scheduleHistories']);
  });

  test('one inserted row and one deleted row are differences', async () => {
    const pupil = await addSitting(database.db);
    const before = await snapshotTables(database.db);
    const move = { scheduleHistoryId: pupil.scheduleHistoryId, deviceToken: 'snapshot-test', movedAt: new Date('2026-06-01T08:30:00Z') };
    await database.db.insert(schema.deviceMoves).values(move);
    const withRow = await snapshotTables(database.db);
    expect(changed(before, withRow)).toEqual(['deviceMoves']);
    expect(withRow.deviceMoves!.split(' ')[0]).toBe(String(Number(before.deviceMoves!.split(' ')[0]) + 1));

    await database.db.delete(schema.deviceMoves).where(eq(schema.deviceMoves.scheduleHistoryId, pupil.scheduleHistoryId));
    expect(await snapshotTables(database.db)).toEqual(before);

    const [oldest] = await database.db.select({ id: schema.answers.id }).from(schema.answers).orderBy(schema.answers.id).limit(1);
    await database.db.delete(schema.answers).where(eq(schema.answers.id, oldest!.id));
    expect(changed(before, await snapshotTables(database.db))).toEqual(['answers']);
  });
});
