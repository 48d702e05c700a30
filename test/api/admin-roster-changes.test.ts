/**
 * The proctor's roster per room and by cursor: a room is the pupils' classroom (else the
 * schedule's venue); the first answer is the room in full with a cursor, and a poll with
 * `since` gets only the rows that changed after it (a new question, an answer, a login, an
 * action) and those whose state the time alone moved (offline after 30 s of silence, time up),
 * never a heartbeat that changes nothing the roster shows, nor another room's pupils. A `since`
 * that is not a cursor of this database is 422 ROSTER_CURSOR_INVALID. A transaction left open
 * anywhere in the PostgreSQL cluster (a backup of another database) does not make a poll send
 * again what an earlier poll sent: the cursor carries its answer's snapshot.
 */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import * as v from 'valibot';
import { afterEach, describe, expect, test } from 'vitest';
import { ROSTER_CURSOR_MAX_LENGTH, RosterAnswerSchema, RosterChangesSchema, RosterResponseSchema, type RosterPupil } from '../../contract/admin.ts';
import { examinees, scheduleHistories, venues } from '../../server/db/schema.ts';
import { cursorOf, readCursor } from '../../server/domain/roster.ts';
import { postgresAdminUrl, testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, answerKey, type TestSitting } from '../helpers/server-fixtures.ts';
import { addClassmate, addStaff, staffLogin, terminal } from '../helpers/admin-api.ts';

const kinds = await testDatabaseKinds();

async function classWithProctor(api: ApiContext) {
  const first = await addSitting(api.db, { organization: {} });
  const proctor = await addStaff(api.db, first);
  const token = await staffLogin(api, proctor);
  return { first, token };
}

async function full(api: ApiContext, token: string, code: string, query = '') {
  const response = await api.call('GET', `/api/admin/schedules/${code}/roster${query}`, { token });
  expect(response.status).toBe(200);
  return v.parse(RosterResponseSchema, response.body);
}

async function changes(api: ApiContext, token: string, code: string, since: string, room = '') {
  const response = await api.call('GET', `/api/admin/schedules/${code}/roster?since=${encodeURIComponent(since)}${room}`, { token });
  expect(response.status).toBe(200);
  const answer = v.parse(RosterAnswerSchema, response.body);
  expect(answer.kind).toBe('changes');
  return v.parse(RosterChangesSchema, response.body);
}

const ids = (pupils: RosterPupil[]) => pupils.map((p) => p.schedule_history_id).sort((a, b) => a - b);
const rowOf = (pupils: RosterPupil[], sitting: TestSitting) => pupils.find((p) => p.schedule_history_id === sitting.scheduleHistoryId);

describe.each(kinds)('the roster by cursor on %s', (kind) => {
  const api = useApi(kind);

  test('a poll with the cursor gets only what changed, and what the time moved', async () => {
    const { first, token } = await classWithProctor(api);
    const second = await addClassmate(api.db, first);
    const waiting = await addClassmate(api.db, first);
    const lab1 = terminal(api);
    const one = await lab1.sit(first.loginCode);
    const lab2 = terminal(api);
    const two = await lab2.sit(second.loginCode);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 3)).status).toBe(200);
    expect((await lab2.heartbeat(two.token, two.scheduleHistoryId, 0)).status).toBe(200);

    const initial = await full(api, token, first.scheduleCode);
    expect(ids(initial.pupils)).toEqual(ids([first, second, waiting].map((s) => ({ schedule_history_id: s.scheduleHistoryId }) as RosterPupil)));
    let cursor = initial.cursor;

    // Nothing changed: an empty answer with a new cursor.
    api.clock.advance(5_000);
    let answer = await changes(api, token, first.scheduleCode, cursor);
    expect(answer).toMatchObject({ since: cursor, venue: null, pupils: [] });
    cursor = answer.cursor;

    // Heartbeats on the same questions 10 s later change nothing the roster shows.
    api.clock.advance(5_000);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 3)).status).toBe(200);
    expect((await lab2.heartbeat(two.token, two.scheduleHistoryId, 0)).status).toBe(200);
    answer = await changes(api, token, first.scheduleCode, cursor);
    expect(answer.pupils).toEqual([]);
    cursor = answer.cursor;

    // A new question on screen: that pupil alone, whole.
    api.clock.advance(1_000);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 4)).status).toBe(200);
    answer = await changes(api, token, first.scheduleCode, cursor);
    expect(ids(answer.pupils)).toEqual([first.scheduleHistoryId]);
    expect(rowOf(answer.pupils, first)).toMatchObject({ state: 'in_exam', question_index: 4, answers_saved: 0 });
    cursor = answer.cursor;

    // An answer saved: that pupil, with the count.
    const [q1] = await answerKey(api.db, second.examId);
    expect((await lab2.call('POST', '/api/exam/answers', two.token, api.answer(two.scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);
    answer = await changes(api, token, first.scheduleCode, cursor);
    expect(ids(answer.pupils)).toEqual([second.scheduleHistoryId]);
    expect(rowOf(answer.pupils, second)?.answers_saved).toBe(1);
    cursor = answer.cursor;

    // Long after that answer, the first pupil keeps beating and the second falls silent: the time
    // alone makes the second offline, and that crossing is a change.
    for (let i = 0; i < 4; i++) {
      api.clock.advance(10_000);
      expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 4)).status).toBe(200);
    }
    answer = await changes(api, token, first.scheduleCode, cursor);
    expect(ids(answer.pupils)).toEqual([second.scheduleHistoryId]);
    expect(rowOf(answer.pupils, second)?.state).toBe('offline');
    cursor = answer.cursor;
    api.clock.advance(5_000);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 4)).status).toBe(200);
    answer = await changes(api, token, first.scheduleCode, cursor);
    expect(answer.pupils).toEqual([]);
    cursor = answer.cursor;

    // Heard from again after the silence: back in the exam, a change.
    expect((await lab2.heartbeat(two.token, two.scheduleHistoryId, 0)).status).toBe(200);
    answer = await changes(api, token, first.scheduleCode, cursor);
    expect(ids(answer.pupils)).toEqual([second.scheduleHistoryId]);
    expect(rowOf(answer.pupils, second)?.state).toBe('in_exam');
    cursor = answer.cursor;

    // A login of the pupil who has not started, and a proctor's extension.
    await terminal(api).login(waiting.loginCode);
    const extended = await api.call('POST', `/api/admin/sittings/${first.scheduleHistoryId}/extend`, { token, body: { minutes: 5, reason: 'Fire drill' } });
    expect(extended.status).toBe(200);
    answer = await changes(api, token, first.scheduleCode, cursor);
    expect(ids(answer.pupils)).toEqual(ids([first, waiting].map((s) => ({ schedule_history_id: s.scheduleHistoryId }) as RosterPupil)));
    expect(rowOf(answer.pupils, waiting)?.state).toBe('logged_in');
    expect(rowOf(answer.pupils, first)?.extra_seconds).toBe(300);
    cursor = answer.cursor;

    // The second pupil's deadline passes with nothing written: time up is a change.
    const [row] = await api.db.select({ deadlineAt: scheduleHistories.deadlineAt }).from(scheduleHistories).where(eq(scheduleHistories.id, second.scheduleHistoryId));
    api.clock.set(new Date(row!.deadlineAt!.getTime() + 1_000));
    answer = await changes(api, token, first.scheduleCode, cursor);
    expect(rowOf(answer.pupils, second)?.state).toBe('time_up');
    expect(rowOf(answer.pupils, waiting)).toBeUndefined();
  });

  test('a room is its pupils\' classroom: its roster, its changes and the schedule\'s rooms', async () => {
    const { first, token } = await classWithProctor(api);
    const [roomA] = await api.db.insert(venues).values({ organizationId: first.organizationId, name: `A ${first.scheduleCode}` }).returning();
    const [roomB] = await api.db.insert(venues).values({ organizationId: first.organizationId, name: `B ${first.scheduleCode}` }).returning();
    const inA = await addClassmate(api.db, first);
    const inB = await addClassmate(api.db, first);
    await api.db.update(examinees).set({ venueId: roomA!.id }).where(eq(examinees.id, inA.examineeId));
    await api.db.update(examinees).set({ venueId: roomB!.id }).where(eq(examinees.id, inB.examineeId));

    const whole = await full(api, token, first.scheduleCode);
    expect(whole.rooms.map((r) => r.id).sort()).toEqual([first.venueId!, roomA!.id, roomB!.id].sort());
    expect(rowOf(whole.pupils, inA)?.venue).toEqual({ id: roomA!.id, name: roomA!.name });
    // The schedule's own venue holds the pupil who has no classroom.
    expect(rowOf(whole.pupils, first)?.venue?.id).toBe(first.venueId);

    const a = await full(api, token, first.scheduleCode, `?venue_id=${roomA!.id}`);
    expect(a.venue).toEqual({ id: roomA!.id, name: roomA!.name });
    expect(ids(a.pupils)).toEqual([inA.scheduleHistoryId]);
    const own = await full(api, token, first.scheduleCode, `?venue_id=${first.venueId}`);
    expect(ids(own.pupils)).toEqual([first.scheduleHistoryId]);

    // Both rooms' pupils log in: room A's changes carry its pupil only.
    await terminal(api).login(inA.loginCode);
    await terminal(api).login(inB.loginCode);
    const changed = await changes(api, token, first.scheduleCode, a.cursor, `&venue_id=${roomA!.id}`);
    expect(changed.venue?.id).toBe(roomA!.id);
    expect(ids(changed.pupils)).toEqual([inA.scheduleHistoryId]);
    expect(changed.pupils[0]?.state).toBe('logged_in');
  });

  test('a since that is not a cursor of this database is 422 ROSTER_CURSOR_INVALID', async () => {
    const { first, token } = await classWithProctor(api);
    const { cursor } = await full(api, token, first.scheduleCode);
    const [, at] = cursor.split('.');
    for (const since of ['abc', '1..3', '1.2.3.4.5', '1.2.3_4', '', '-1.5', '99999999999999999.1', `1.${Number(at) + 3_600_000}`]) {
      const response = await api.call('GET', `/api/admin/schedules/${first.scheduleCode}/roster?since=${encodeURIComponent(since)}`, { token });
      expect(response.status, since).toBe(422);
      expect(errorOf(response).code, since).toBe('ROSTER_CURSOR_INVALID');
    }
    // The snapshot's part: a transaction not begun yet, running ones out of order, twice, or
    // from xmax on, or a part too many.
    const [xmin, , span] = cursor.split('.') as [string, string, string];
    const next = BigInt(xmin) + BigInt(span);
    for (const since of [
      `${next + 1000n}.${at}.0`,
      `${xmin}.${at}.${Number(span) + 1000}`,
      `${xmin}.${at}.10.3_1`,
      `${xmin}.${at}.10.1_1`,
      `${xmin}.${at}.10.10`,
      `${xmin}.${at}.10.1.1`,
      `${xmin}.${at}.10.1_`,
    ]) {
      const response = await api.call('GET', `/api/admin/schedules/${first.scheduleCode}/roster?since=${encodeURIComponent(since)}`, { token });
      expect(response.status, since).toBe(422);
      expect(errorOf(response).code, since).toBe('ROSTER_CURSOR_INVALID');
    }
    // The cursor itself is fine, and so is an old one, and one of the conservative form.
    expect((await changes(api, token, first.scheduleCode, cursor)).pupils).toEqual([]);
    expect((await changes(api, token, first.scheduleCode, '1.0')).pupils.length).toBe(1);
    expect((await changes(api, token, first.scheduleCode, '1.0.0')).pupils.length).toBe(1);
  });
});

describe('the cursor', () => {
  const now = new Date(TEST_START);
  const ms = now.getTime();

  test('carries the snapshot: the oldest running, the next to begin and those running, from the oldest', () => {
    expect(cursorOf({ xmin: 700n, xmax: 700n, xip: [] }, now)).toBe(`700.${ms}.0`);
    const cursor = cursorOf({ xmin: 700n, xmax: 745n, xip: [700n, 702n, 744n] }, now);
    expect(cursor).toBe(`700.${ms}.45.0_2_44`);
    expect(readCursor(cursor)).toEqual({ at: ms, xmin: 700n, snapshot: { xmin: 700n, xmax: 745n, xip: [700n, 702n, 744n] } });
    expect(readCursor(`700.${ms}`)).toEqual({ at: ms, xmin: 700n, snapshot: null });
  });

  test('with more running transactions than it holds, is the conservative form: the oldest running alone', () => {
    const xip = Array.from({ length: 40 }, (_, i) => 1_000_000n + BigInt(i) * 1_000n);
    const cursor = cursorOf({ xmin: 1_000_000n, xmax: 1_100_000n, xip }, now);
    expect(cursor).toBe(`1000000.${ms}`);
    expect(readCursor(cursor)).toEqual({ at: ms, xmin: 1_000_000n, snapshot: null });
    // Short of the limit, the exact form.
    const few = cursorOf({ xmin: 1_000_000n, xmax: 1_100_000n, xip: xip.slice(0, 5) }, now);
    expect(few.length).toBeLessThanOrEqual(ROSTER_CURSOR_MAX_LENGTH);
    expect(readCursor(few).snapshot?.xip).toEqual(xip.slice(0, 5));
  });
});

if (kinds.includes('postgres')) {
  describe('the roster by cursor on postgres, beside a long transaction elsewhere in the cluster', () => {
    const api = useApi('postgres');
    let held: pg.Client | undefined;
    afterEach(async () => {
      await held?.query('rollback').catch(() => {});
      await held?.end();
      held = undefined;
    });

    test('a poll after nothing changed gets no pupils while another database keeps a transaction open', async () => {
      const { first, token } = await classWithProctor(api);
      const second = await addClassmate(api.db, first);
      const lab1 = terminal(api);
      const one = await lab1.sit(first.loginCode);
      const lab2 = terminal(api);
      const two = await lab2.sit(second.loginCode);

      // Another database of the cluster (the test server's own) holds a transaction with an id
      // open across every poll below, as a long backup would: the oldest transaction running.
      held = new pg.Client({ connectionString: postgresAdminUrl });
      await held.connect();
      await held.query('begin');
      const { rows } = await held.query<{ xid: string }>('select pg_current_xact_id()::text as xid');
      const heldXid = BigInt(rows[0]!.xid);

      const initial = await full(api, token, first.scheduleCode);
      expect(initial.pupils).toHaveLength(2);
      let cursor = initial.cursor;

      // A new question on screen, committed after the held transaction began: that pupil alone.
      api.clock.advance(5_000);
      expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 2)).status).toBe(200);
      let answer = await changes(api, token, first.scheduleCode, cursor);
      expect(ids(answer.pupils)).toEqual([first.scheduleHistoryId]);
      cursor = answer.cursor;

      // Nothing changed since: no pupils, poll after poll, although the held transaction is older
      // than that change.
      for (let poll = 0; poll < 3; poll++) {
        api.clock.advance(5_000);
        answer = await changes(api, token, first.scheduleCode, cursor);
        expect(answer.pupils, `poll ${poll}`).toEqual([]);
        cursor = answer.cursor;
      }

      // Another change is still seen, and only it.
      expect((await lab2.heartbeat(two.token, two.scheduleHistoryId, 5)).status).toBe(200);
      answer = await changes(api, token, first.scheduleCode, cursor);
      expect(ids(answer.pupils)).toEqual([second.scheduleHistoryId]);
      expect(rowOf(answer.pupils, second)?.question_index).toBe(5);

      // The cursor names the held transaction among those running.
      const [xmin, , , running = ''] = answer.cursor.split('.');
      expect(running.split('_').map((offset) => BigInt(xmin!) + BigInt(offset))).toContain(heldXid);
      // Its conservative form (the oldest running alone) counts everything since the held
      // transaction began as changed: both pupils.
      const conservative = await changes(api, token, first.scheduleCode, answer.cursor.split('.').slice(0, 2).join('.'));
      expect(ids(conservative.pupils)).toEqual([first.scheduleHistoryId, second.scheduleHistoryId].sort((a, b) => a - b));
    });
  });
}
