/**
 * What migration 0013's roster trigger costs the statements that update a sitting's row
 * (`npm run bench -- test/bench/roster-trigger.bench.ts`), measured apart from HTTP and Node: on
 * a scratch PostgreSQL database (127.0.0.1:5432, dropped afterwards), a table with the columns of
 * `schedule_histories` and the migration's own function and triggers, 1,000 sittings; 20,000
 * contact-only UPDATEs (what an answer save does to the sitting at most once a second, and a
 * heartbeat on the same question every 10 s) in a PL/pgSQL loop, timed inside PostgreSQL, in six
 * rounds that alternate the trigger enabled and disabled. Prints µs per updated row each way.
 * A contact-only update must leave `roster_version` as it was: anything else fails the run.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { expect, test } from 'vitest';
import { isPostgresReachable, postgresAdminUrl } from '../helpers/db.ts';
import { createScratchDatabase } from './exam-day-seed.ts';

const ROWS = 20_000;
const migration = fileURLToPath(new URL('../../server/db/migrations/0013_roster_version.sql', import.meta.url));

test('roster trigger: a contact-only UPDATE of a sitting with and without it', { timeout: 300_000 }, async () => {
  if (!(await isPostgresReachable())) {
    console.log('roster trigger bench: PostgreSQL is not reachable at 127.0.0.1:5432, skipped');
    return;
  }
  const scratch = await createScratchDatabase(postgresAdminUrl);
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  try {
    await client.query(`create table schedule_histories (id serial primary key, examinee_id int, schedule_id int, exam_id int,
      status smallint default 6, started_at timestamptz, deadline_at timestamptz, finished_at timestamptz, device_token text,
      device_released_at timestamptz, question_index smallint, waiting_answers int default 0, refused_elsewhere_at timestamptz,
      extra_seconds int default 0, flag_retake boolean default false, answer_count int, answers_digest text,
      last_contact_at timestamptz, roster_version bigint not null default 0)`);
    const statements = readFileSync(migration, 'utf8').split('--> statement-breakpoint');
    // The stamping function and the two triggers on schedule_histories (the statements after the ALTER TABLE).
    for (const statement of statements.slice(1, 4)) await client.query(statement);
    await client.query(`insert into schedule_histories (examinee_id, schedule_id, exam_id, last_contact_at) select g, 1, 1, now() from generate_series(1, 1000) g`);
    const [{ before }] = (await client.query<{ before: string }>('select sum(roster_version)::text as before from schedule_histories')).rows as [{ before: string }];

    const round = async () => {
      await client.query(`do $$ declare t0 timestamptz := clock_timestamp(); begin
        for i in 1..${ROWS} loop update schedule_histories set last_contact_at = clock_timestamp() where id = 1 + (i % 1000); end loop;
        perform set_config('bench.us', (extract(epoch from clock_timestamp() - t0) * 1e6 / ${ROWS})::text, false); end $$`);
      const { rows } = await client.query<{ us: number }>(`select current_setting('bench.us')::float as us`);
      return rows[0]!.us;
    };
    const withTrigger: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < 6; i++) {
      await client.query('alter table schedule_histories enable trigger schedule_histories_roster_version');
      withTrigger.push(await round());
      await client.query('alter table schedule_histories disable trigger schedule_histories_roster_version');
      without.push(await round());
    }
    const [{ after }] = (await client.query<{ after: string }>('select sum(roster_version)::text as after from schedule_histories')).rows as [{ after: string }];
    expect(after).toBe(before);

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    console.log(
      `roster trigger: contact-only UPDATE of a sitting, µs per row inside PostgreSQL, ${ROWS} rows a round, 6 rounds each, load average ${loadavg()[0]!.toFixed(1)}:\n` +
        `  with the trigger:    ${list(withTrigger)} (median ${median(withTrigger).toFixed(0)})\n` +
        `  without the trigger: ${list(without)} (median ${median(without).toFixed(0)})`,
    );
  } finally {
    await client.end();
    await scratch.drop();
  }
});
