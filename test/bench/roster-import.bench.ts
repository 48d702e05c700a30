/**
 * A school's roster of 10,000 pupils through the pupils import (server/imports/pupils.ts), by
 * `npm run bench` (never by `npm test`), on PGlite in memory (the embedded database a small
 * deployment runs on): the dry run (read, validate, plan), the apply (the same plan and the
 * writes: pupils with their login codes, one PENDING sitting each, one audit entry each, in one
 * transaction) and the same file again (all unchanged). Beside them, in the same run, the floor:
 * the same file parsed with csv-parse and its rows written with the same batched multi-row
 * INSERTs into a bare table of the same columns, with no validation, plan, codes, sittings or
 * audit. Prints each time and its ratio to the floor; fails when the apply takes 30 s or more.
 *
 *   npm run bench -- test/bench/roster-import.bench.ts
 *   ROSTER_BENCH_PUPILS=20000 npm run bench -- test/bench/roster-import.bench.ts
 */
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { expect, test } from 'vitest';
import { openDatabase, type Db } from '../../server/db/client.ts';
import { importRoster } from '../../server/imports/roster.ts';
import { chunks, queryRows } from '../../server/imports/plan.ts';
import { seedDemoData } from '../../server/seed/seed.ts';

const PUPILS = Number(process.env.ROSTER_BENCH_PUPILS ?? 10_000);
const LIMIT_MS = 30_000;
const context = { now: new Date('2026-06-01T09:00:00Z'), staffId: null, reason: 'bench' };

const given = ['สมชาย', 'ليلى', '小明', 'အောင်', 'Nguyễn', 'Emily', 'Олег', 'प्रिया', '花子', 'Omar'];
const family = ['ใจดี', 'حسن', '王', 'ကျော်', 'Thị Lan', "O'Brien", 'Иванов', 'शर्मा', '佐藤', 'Al-Sayed'];
const languages = ['th', 'ar', 'zh_yue_Hant', 'my', 'vi', 'en-gb', 'ru', 'hi', 'ja', 'ar'];

function pupilsFile(count: number): string {
  const lines = ['school,pupil_id,name,class,classroom,grade,email,language,login_id,schedule'];
  for (let i = 0; i < count; i++) {
    const n = i % given.length;
    const name = `${given[n]} ${family[(i * 7) % family.length]} ${i}`;
    lines.push(`BENCH-SCHOOL,B-${String(i).padStart(5, '0')},"${name}",${6 + (i % 3)}${'ABCD'[i % 4]},Room ${1 + (i % 3)},${6 + (i % 3)},,${languages[n]},,BENCH-2026`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function time<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** The floor: parse, then the same batched inserts into a bare table, in one transaction. */
async function floor(db: Db, bytes: Uint8Array): Promise<number> {
  const rows = parse(new TextDecoder().decode(bytes), { columns: true }) as Record<string, string>[];
  await db.transaction(async (tx) => {
    for (const batch of chunks(rows, 1000)) {
      const values = sql.join(
        batch.map((r) => sql`(${r.school}, ${r.pupil_id}, ${r.name}, ${r.class}, ${r.classroom}, ${Number(r.grade)}, ${r.language})`),
        sql`, `,
      );
      await tx.execute(sql`insert into bench_roster_floor values ${values} on conflict (school, pupil_id) do nothing`);
    }
  });
  return rows.length;
}

test(`roster import: ${PUPILS} pupils on PGlite, dry run and apply, beside the floor`, { timeout: 600_000 }, async () => {
  const database = await openDatabase({ memory: true, prepare: async (db) => void (await seedDemoData(db)) });
  try {
    const { db } = database;
    const encode = (text: string) => new TextEncoder().encode(text);
    for (const [kind, file] of [
      ['schools', 'code,name\nBENCH-SCHOOL,Bench Secondary School\n'],
      ['venues', 'school,name\nBENCH-SCHOOL,Room 1\nBENCH-SCHOOL,Room 2\nBENCH-SCHOOL,Room 3\n'],
      ['schedules', 'code,school,starts_at,ends_at,exams\nBENCH-2026,BENCH-SCHOOL,2026-06-01T08:00+07:00,2026-06-30T17:00+07:00,EN-1\n'],
    ] as const) {
      expect((await importRoster(db, kind, encode(file), { apply: true, ...context })).applied).toBe(true);
    }
    await db.execute(
      sql`create table bench_roster_floor (school text, pupil_id text, name text, class text, classroom text, grade smallint, language text, primary key (school, pupil_id))`,
    );

    const bytes = encode(pupilsFile(PUPILS));
    const dry = await time(() => importRoster(db, 'pupils', bytes, { apply: false, ...context }));
    const floorTime = await time(() => floor(db, bytes));
    const apply = await time(() => importRoster(db, 'pupils', bytes, { apply: true, ...context }));
    const again = await time(() => importRoster(db, 'pupils', bytes, { apply: true, ...context }));

    expect(dry.value.rows.filter((row) => row.outcome === 'create')).toHaveLength(PUPILS);
    expect(apply.value.applied).toBe(true);
    expect(again.value.rows.every((row) => row.outcome === 'unchanged')).toBe(true);
    const [{ sittings }] = (await queryRows<{ sittings: number }>(db, sql`select count(*)::int as sittings from schedule_histories sh join schedules s on s.id = sh.schedule_id where s.schedule_code = 'BENCH-2026'`)) as [{ sittings: number }];
    expect(sittings).toBe(PUPILS);

    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const ratio = (ms: number) => (ms / floorTime.ms).toFixed(1);
    console.log(
      [
        `roster import of ${PUPILS} pupils (${(bytes.byteLength / 1024).toFixed(0)} kB) on PGlite, load average ${loadavg()[0]!.toFixed(1)}:`,
        '| step | time | ratio to the floor |',
        '|---|---|---|',
        `| floor: csv-parse + batched INSERT of the rows | ${seconds(floorTime.ms)} | 1.0 |`,
        `| dry run (read, validate, plan) | ${seconds(dry.ms)} | ${ratio(dry.ms)} |`,
        `| apply (plan + pupils, codes, sittings, audit) | ${seconds(apply.ms)} | ${ratio(apply.ms)} |`,
        `| the same file again (all unchanged) | ${seconds(again.ms)} | ${ratio(again.ms)} |`,
      ].join('\n'),
    );
    expect(apply.ms).toBeLessThan(LIMIT_MS);
  } finally {
    await database.close();
  }
});
