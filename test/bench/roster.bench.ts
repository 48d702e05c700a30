/**
 * The proctor's roster at scale, measured (`npm run bench -- test/bench/roster.bench.ts`), never
 * asserted on time. On a scratch PostgreSQL database (127.0.0.1:5432, dropped afterwards), seeded
 * as exam-day.bench.ts seeds it: ROSTER_PUPILS (10,000) pupils in one test period, spread over
 * ROSTER_ROOMS (50) classrooms, every one logged in (a live token) and in the exam with 10 answers saved. The real app
 * (`createApp`, in process) answers 50 proctors, one per room, each polling its room.
 *
 * Each of ROSTER_ROUNDS (10) rounds, ROSTER_POLL_MS (5 s) apart, writes five seconds of the exam first, as the pupils' calls
 * write it: every pupil's heartbeat (a contact-only update, which the roster must not count as a
 * change), a sixth of them moving to the next question, and a sixth saving an answer (the save's
 * upsert and its contact). Then the 50 proctors poll at once with their cursors (`since`), and,
 * in the same round, the floor: the bare query of one room's sittings (the 50 at once); then one
 * room's poll alone beside its floor alone. It prints
 * each poll's time (p50, p99, max), rows and bytes beside the floor's, the full answers (one room,
 * the whole test period) once, and the load average. Every poll must be a 200 with the room's
 * changed rows, and a heartbeat alone must change nothing: anything else fails the run.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { expect, test } from 'vitest';
import { LoginType } from '../../contract/enums.ts';
import { ROSTER_POLL_MS, RosterChangesSchema, RosterResponseSchema, StaffLoginResponseSchema } from '../../contract/admin.ts';
import { createApp } from '../../server/app.ts';
import { openDatabase } from '../../server/db/client.ts';
import { organizations, schedules, venues } from '../../server/db/schema.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { isPostgresReachable, postgresAdminUrl } from '../helpers/db.ts';
import { createScratchDatabase, seedExamDay } from './exam-day-seed.ts';

const PUPILS = Number(process.env.ROSTER_PUPILS ?? 10_000);
const ROOMS = Number(process.env.ROSTER_ROOMS ?? 50);
const ROUNDS = Number(process.env.ROSTER_ROUNDS ?? 10);

const silent = { info: () => {}, error: () => {} };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

test(`roster: ${ROOMS} proctors polling one test period of ${PUPILS} pupils, beside the bare room query`, { timeout: 900_000 }, async () => {
  if (!(await isPostgresReachable())) {
    console.log('roster bench: PostgreSQL is not reachable at 127.0.0.1:5432, skipped');
    return;
  }
  const scratch = await createScratchDatabase(postgresAdminUrl);
  try {
    await seedExamDay(scratch.url, PUPILS);
    const database = await openDatabase({ databaseUrl: scratch.url });
    try {
      const { db } = database;
      const run = (query: ReturnType<typeof sql>) => db.execute(query) as unknown as Promise<{ rows: Array<Record<string, unknown>> }>;
      const [school] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.code, 'GRADUS-DEMO'));
      const [period] = await db.select({ id: schedules.id, code: schedules.scheduleCode }).from(schedules).where(eq(schedules.scheduleCode, 'DEMO-2026'));
      const rooms = await db
        .insert(venues)
        .values(Array.from({ length: ROOMS }, (_, i) => ({ organizationId: school!.id, name: `Bench room ${String(i + 1).padStart(2, '0')}` })))
        .returning({ id: venues.id });
      const roomIds = rooms.map((r) => r.id);
      // Each bench pupil in a classroom, round robin; every sitting in the exam, heard from now, 10 answers saved.
      await run(sql`
        update examinees e set venue_id = (${sql.param(roomIds)}::int[])[1 + (e.id % ${ROOMS})]
        where e.id in (select examinee_id from schedule_histories where schedule_id = ${period!.id}) and e.name like 'Bench pupil %'`);
      await run(sql`
        update schedule_histories set status = 6, started_at = now(), deadline_at = now() + interval '2 hours', last_contact_at = now(),
          device_token = 'bench-' || id, question_index = 0
        where schedule_id = ${period!.id} and status = 0`);
      await run(sql`
        insert into answers (schedule_history_id, question_id, value, answered_at, received_at, idempotency_key)
        select sh.id, q.id, 'a', now() - interval '1 minute', now() - interval '1 minute', gen_random_uuid()::text
        from schedule_histories sh cross join lateral (select id from questions where exam_id = sh.exam_id order by id limit 10) q
        where sh.schedule_id = ${period!.id} and sh.status = 6`);
      // Each pupil logged in with the code: a live token bound to the sitting, as on exam day.
      await run(sql`
        insert into auth_tokens (token_hash, examinee_id, schedule_history_id, login_type, created_at, expires_at)
        select encode(sha256(('bench-' || sh.id)::bytea), 'hex'), sh.examinee_id, sh.id, ${LoginType.CODE}, now(), now() + interval '1 day'
        from schedule_histories sh where sh.schedule_id = ${period!.id}`);
      await run(sql`analyze`);

      const app = createApp({ db, logger: silent });
      const proctor = loadStaffAccounts().find((a) => a.org_code === 'GRADUS-DEMO')!;
      const login = await app.request('/api/admin/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ org_code: proctor.org_code, login_id: proctor.login_id, password: proctor.password }),
      });
      const token = v.parse(StaffLoginResponseSchema, await login.json()).access_token;
      const get = async (query: string) => {
        const started = performance.now();
        const response = await app.request(`/api/admin/schedules/${period!.code}/roster${query}`, { headers: { authorization: `Bearer ${token}` } });
        const text = await response.text();
        const took = performance.now() - started;
        expect(response.status, text.slice(0, 200)).toBe(200);
        return { took, text, body: JSON.parse(text) as unknown };
      };
      const floorOfRoom = async (room: number) => {
        const started = performance.now();
        await run(sql`select sh.* from schedule_histories sh join examinees e on e.id = sh.examinee_id where sh.schedule_id = ${period!.id} and e.venue_id = ${room}`);
        return performance.now() - started;
      };

      // The first answers: the whole test period once, then each room in full (its cursor kept), every pupil just heard from.
      await run(sql`update schedule_histories set last_contact_at = now() where schedule_id = ${period!.id}`);
      const whole = await get('');
      const wholeRows = v.parse(RosterResponseSchema, whole.body).pupils.length;
      const cursors = new Map<number, string>();
      const fullTimes: number[] = [];
      let fullBytes = 0;
      for (const room of roomIds) {
        const answer = await get(`?venue_id=${room}`);
        const roster = v.parse(RosterResponseSchema, answer.body);
        cursors.set(room, roster.cursor);
        fullTimes.push(answer.took);
        fullBytes += answer.text.length;
      }

      // Heartbeats alone (contact only): no row changes.
      await run(sql`update schedule_histories set last_contact_at = now() where schedule_id = ${period!.id}`);
      const quiet = await Promise.all(roomIds.map(async (room) => v.parse(RosterChangesSchema, (await get(`?venue_id=${room}&since=${cursors.get(room)}`)).body)));
      expect(quiet.every((answer) => answer.pupils.length === 0)).toBe(true);
      for (const [i, room] of roomIds.entries()) cursors.set(room, quiet[i]!.cursor);

      const pollTimes: number[] = [];
      const floorTimes: number[] = [];
      const rowsPerPoll: number[] = [];
      const bytesPerPoll: number[] = [];
      const writeTimes: number[] = [];
      const alone: number[] = [];
      const aloneFloor: number[] = [];
      let lastPoll = performance.now();
      for (let round = 0; round < ROUNDS; round++) {
        // The proctors poll every ROSTER_POLL_MS: the next round's writes fall in those seconds.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, ROSTER_POLL_MS - (performance.now() - lastPoll))));
        const started = performance.now();
        // Five seconds of the exam: every pupil's heartbeat, a sixth move on, a sixth save an answer.
        await run(sql`update schedule_histories set last_contact_at = now() where schedule_id = ${period!.id}`);
        await run(sql`update schedule_histories set question_index = question_index + 1, last_contact_at = now()
          where schedule_id = ${period!.id} and (id + ${round}) % 6 = 0`);
        await run(sql`update answers a set value = ${`v${round}`}, received_at = now(), idempotency_key = gen_random_uuid()::text
          from schedule_histories sh where sh.id = a.schedule_history_id and sh.schedule_id = ${period!.id} and (sh.id + ${round}) % 6 = 3
          and a.question_id = (select min(question_id) from answers b where b.schedule_history_id = sh.id)`);
        writeTimes.push(performance.now() - started);

        lastPoll = performance.now();
        const polls = await Promise.all(roomIds.map((room) => get(`?venue_id=${room}&since=${cursors.get(room)}`)));
        for (const [i, room] of roomIds.entries()) {
          const changes = v.parse(RosterChangesSchema, polls[i]!.body);
          expect(changes.venue?.id).toBe(room);
          cursors.set(room, changes.cursor);
          pollTimes.push(polls[i]!.took);
          rowsPerPoll.push(changes.pupils.length);
          bytesPerPoll.push(polls[i]!.text.length);
        }
        floorTimes.push(...(await Promise.all(roomIds.map((room) => floorOfRoom(room)))));
        // One room's poll alone (nothing changed since the poll above), beside its floor alone.
        const room = roomIds[round % ROOMS]!;
        const one = await get(`?venue_id=${room}&since=${cursors.get(room)}`);
        cursors.set(room, v.parse(RosterChangesSchema, one.body).cursor);
        alone.push(one.took);
        aloneFloor.push(await floorOfRoom(room));
      }
      // A third of every room changed each round (a sixth moved on, a sixth answered): each poll carries about that.
      expect(Math.min(...rowsPerPoll)).toBeGreaterThan(0);

      const per = PUPILS / ROOMS;
      console.log(
        [
          `roster: ${ROOMS} proctors, one room each (${per} pupils), one test period of ${PUPILS} pupils in the exam, PostgreSQL, ${ROUNDS} rounds, load average ${loadavg()[0]!.toFixed(1)}:`,
          '| what | p50 | p99 | max | rows | bytes |',
          '|---|---|---|---|---|---|',
          `| floor: the bare query of one room's sittings (${ROOMS} at once) | ${ms(percentile(floorTimes, 50))} | ${ms(percentile(floorTimes, 99))} | ${ms(Math.max(...floorTimes))} | ${per} | – |`,
          `| a roster update: one room's changes since its cursor (${ROOMS} at once) | ${ms(percentile(pollTimes, 50))} | ${ms(percentile(pollTimes, 99))} | ${ms(Math.max(...pollTimes))} | ${percentile(rowsPerPoll, 50)} (p50) | ${percentile(bytesPerPoll, 50)} (p50) |`,
          `| floor alone: the bare query of one room | ${ms(percentile(aloneFloor, 50))} | ${ms(percentile(aloneFloor, 99))} | ${ms(Math.max(...aloneFloor))} | ${per} | – |`,
          `| a roster update alone (one room, its changes since the poll above) | ${ms(percentile(alone, 50))} | ${ms(percentile(alone, 99))} | ${ms(Math.max(...alone))} | | |`,
          `| one room in full (the first answer, one at a time) | ${ms(percentile(fullTimes, 50))} | ${ms(percentile(fullTimes, 99))} | ${ms(Math.max(...fullTimes))} | ${per} | ${Math.round(fullBytes / ROOMS)} |`,
          `| the whole test period in full, once | ${ms(whole.took)} | | | ${wholeRows} | ${whole.text.length} |`,
          `ratio of the roster update to the floor (p50): ${(percentile(pollTimes, 50) / percentile(floorTimes, 50)).toFixed(1)}; the exam's writes per round: p50 ${ms(percentile(writeTimes, 50))}`,
        ].join('\n'),
      );
    } finally {
      await database.close();
    }
  } finally {
    await scratch.drop();
  }
});

