/**
 * The proctor's schedules and live roster: every roster state from real pupil calls
 * (not logged in, logged in, in the exam, offline after 30 s without contact, moving, time up,
 * finished with its receipt, cancelled, expired); the ETag and 304; a room's roster; and the
 * organisation boundary: another organisation's schedule, room or sitting is 404 NOT_FOUND,
 * exactly like one that does not exist.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { AdminSchedulesResponseSchema, RosterResponseSchema, type RosterPupil } from '../../contract/admin.ts';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { scheduleHistories, venues } from '../../server/db/schema.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, answerKey, type TestSitting } from '../helpers/server-fixtures.ts';
import { addClassmate, addStaff, examineeName, staffLogin, terminal } from '../helpers/admin-api.ts';

const kinds = await testDatabaseKinds();
const demoProctor = loadStaffAccounts().find((a) => a.org_code === 'GRADUS-DEMO')!;

/** A class in its own organisation and test period, with its proctor logged in. */
async function classWithProctor(api: ApiContext) {
  const first = await addSitting(api.db, { organization: {} });
  const proctor = await addStaff(api.db, first);
  const token = await staffLogin(api, proctor);
  return { first, proctor, token };
}

async function roster(api: ApiContext, token: string, code: string, query = '') {
  const response = await api.call('GET', `/api/admin/schedules/${code}/roster${query}`, { token });
  expect(response.status).toBe(200);
  return { body: v.parse(RosterResponseSchema, response.body), etag: response.headers.get('etag') };
}

function byId(pupils: RosterPupil[], sitting: TestSitting): RosterPupil {
  const row = pupils.find((p) => p.schedule_history_id === sitting.scheduleHistoryId);
  if (!row) throw new Error(`sitting ${sitting.scheduleHistoryId} is not on the roster`);
  return row;
}

describe.each(kinds)('proctor roster on %s', (kind) => {
  const api = useApi(kind);

  test('shows every state a pupil can be in, from the pupils\' own calls', async () => {
    const { first: notLoggedIn, token } = await classWithProctor(api);
    const loggedIn = await addClassmate(api.db, notLoggedIn);
    const offline = await addClassmate(api.db, notLoggedIn);
    const inExam = await addClassmate(api.db, notLoggedIn);
    const moving = await addClassmate(api.db, notLoggedIn);
    const timeUp = await addClassmate(api.db, notLoggedIn);
    const finished = await addClassmate(api.db, notLoggedIn);
    const cancelled = await addClassmate(api.db, notLoggedIn, { status: S.CANCELED_PENDING });
    const expired = await addClassmate(api.db, notLoggedIn, { status: S.EXPIRED });

    await terminal(api).login(loggedIn.loginCode);
    const offlineLab = terminal(api);
    await offlineLab.sit(offline.loginCode);
    const timeUpLab = terminal(api);
    await timeUpLab.sit(timeUp.loginCode);
    const finishedLab = terminal(api);
    const done = await finishedLab.sit(finished.loginCode);
    const [q1] = await answerKey(api.db, finished.examId);
    expect((await finishedLab.call('POST', '/api/exam/answers', done.token, api.answer(done.scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);
    const receipt = await finishedLab.call('POST', '/api/exam/finish', done.token, { schedule_history_id: done.scheduleHistoryId });
    expect(receipt.status).toBe(200);

    api.clock.advance(31_000); // the first pupils have not been heard from for more than 30 s
    const inExamLab = terminal(api);
    const sitting = await inExamLab.sit(inExam.loginCode);
    expect((await inExamLab.heartbeat(sitting.token, sitting.scheduleHistoryId, 6)).status).toBe(200);
    const movingLab = terminal(api);
    await movingLab.sit(moving.loginCode);
    const moved = await api.call('POST', `/api/admin/sittings/${moving.scheduleHistoryId}/move-terminal`, { token, body: { reason: 'Screen broke' } });
    expect(moved.status).toBe(200);
    // The deadline of this one passed (the proctor will see it finish on its own).
    await api.db
      .update(scheduleHistories)
      .set({ deadlineAt: new Date(api.clock.now().getTime() - 1000) })
      .where(eq(scheduleHistories.id, timeUp.scheduleHistoryId));

    const { body } = await roster(api, token, notLoggedIn.scheduleCode);
    expect(body.pupils).toHaveLength(9);
    const states = Object.fromEntries(
      Object.entries({ notLoggedIn, loggedIn, offline, inExam, moving, timeUp, finished, cancelled, expired }).map(([name, s]) => [
        name,
        byId(body.pupils, s).state,
      ]),
    );
    expect(states).toEqual({
      notLoggedIn: 'not_logged_in',
      loggedIn: 'logged_in',
      offline: 'offline',
      inExam: 'in_exam',
      moving: 'moving',
      timeUp: 'time_up',
      finished: 'finished',
      cancelled: 'cancelled',
      expired: 'expired',
    });

    const live = byId(body.pupils, inExam);
    expect(live).toMatchObject({
      examinee_name: await examineeName(api.db, inExam),
      login_code_hint: inExam.loginCode.slice(-4),
      status: S.DOING,
      question_index: 6,
      question_count: 20,
      answers_saved: 0,
      last_contact_at: api.clock.now().toISOString(),
      started_at: api.clock.now().toISOString(),
      deadline_at: sitting.deadlineAt,
      extra_seconds: 0,
      device_bound: true,
      flag_retake: false,
      receipt: null,
      subject_id: 1,
      exam_title: expect.any(String),
    });
    expect(live.venue).toEqual({ id: notLoggedIn.venueId, name: expect.any(String) });
    expect(JSON.stringify(body)).not.toContain(inExam.loginCode);
    expect(byId(body.pupils, moving).device_bound).toBe(false);
    const receiptBody = receipt.body as { answer_count: number; digest: string; finished_at: string };
    expect(byId(body.pupils, finished)).toMatchObject({
      status: S.COMPLETED,
      answers_saved: 1,
      receipt: { answer_count: 1, digest: receiptBody.digest, finished_at: receiptBody.finished_at },
    });
    expect(byId(body.pupils, notLoggedIn)).toMatchObject({ started_at: null, deadline_at: null, last_contact_at: null, question_index: null });
    expect(body.schedule).toMatchObject({ code: notLoggedIn.scheduleCode, pupil_count: 9 });
    expect(body.venue).toBeNull();
  });

  test('a logged-out pupil is not logged in any more; any successful exam call counts as contact', async () => {
    const { first, token } = await classWithProctor(api);
    const lab = terminal(api);
    const login = await lab.login(first.loginCode);
    expect(byId((await roster(api, token, first.scheduleCode)).body.pupils, first).state).toBe('logged_in');
    expect((await lab.call('POST', '/api/logout', login.token)).status).toBe(200);
    expect(byId((await roster(api, token, first.scheduleCode)).body.pupils, first).state).toBe('not_logged_in');

    const sitting = await lab.sit(first.loginCode);
    api.clock.advance(40_000);
    expect(byId((await roster(api, token, first.scheduleCode)).body.pupils, first).state).toBe('offline');
    const questions = await lab.call('GET', `/api/exam/questions?schedule_history_id=${sitting.scheduleHistoryId}`, sitting.token);
    expect(questions.status).toBe(200);
    const row = byId((await roster(api, token, first.scheduleCode)).body.pupils, first);
    expect(row.state).toBe('in_exam');
    expect(row.last_contact_at).toBe(api.clock.now().toISOString());
  });

  test('answers 304 to If-None-Match while nothing changed, and a new ETag once something did', async () => {
    const { first, token } = await classWithProctor(api);
    const path = `/api/admin/schedules/${first.scheduleCode}/roster`;
    const initial = await roster(api, token, first.scheduleCode);
    expect(initial.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

    api.clock.advance(1000); // server_time moves; the content does not
    for (const ifNoneMatch of [initial.etag!, `W/${initial.etag!}`, `"other", ${initial.etag!}`, '*']) {
      const again = await api.call('GET', path, { token, headers: { 'If-None-Match': ifNoneMatch } });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.get('etag')).toBe(initial.etag);
    }

    const lab = terminal(api);
    await lab.login(first.loginCode);
    const changed = await api.call('GET', path, { token, headers: { 'If-None-Match': initial.etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(initial.etag);
    expect(byId(v.parse(RosterResponseSchema, changed.body).pupils, first).state).toBe('logged_in');
  });

  test('heartbeats of pupils in the exam do not change the ETag; a new question, an answer or going offline does', async () => {
    const { first, token } = await classWithProctor(api);
    const second = await addClassmate(api.db, first);
    const path = `/api/admin/schedules/${first.scheduleCode}/roster`;
    const lab1 = terminal(api);
    const one = await lab1.sit(first.loginCode);
    const lab2 = terminal(api);
    const two = await lab2.sit(second.loginCode);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 3)).status).toBe(200);
    expect((await lab2.heartbeat(two.token, two.scheduleHistoryId, 0)).status).toBe(200);
    const initial = await roster(api, token, first.scheduleCode);
    expect(byId(initial.body.pupils, first)).toMatchObject({ state: 'in_exam', question_index: 3, last_contact_at: api.clock.now().toISOString() });

    // 10 s later both terminals beat again on the same questions: nothing a proctor reads changed.
    api.clock.advance(10_000);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 3)).status).toBe(200);
    expect((await lab2.heartbeat(two.token, two.scheduleHistoryId, 0)).status).toBe(200);
    const polled = await roster(api, token, first.scheduleCode);
    expect(polled.etag).toBe(initial.etag);
    // The body still carries the instant (a 200 is always current).
    expect(byId(polled.body.pupils, first).last_contact_at).toBe(api.clock.now().toISOString());
    const unchanged = await api.call('GET', path, { token, headers: { 'If-None-Match': initial.etag! } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(initial.etag);

    // The first pupil moves on to the next question: a new ETag, and a 200 with it.
    api.clock.advance(5_000);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 4)).status).toBe(200);
    const moved = await api.call('GET', path, { token, headers: { 'If-None-Match': initial.etag! } });
    expect(moved.status).toBe(200);
    const movedEtag = moved.headers.get('etag');
    expect(movedEtag).not.toBe(initial.etag);
    expect(byId(v.parse(RosterResponseSchema, moved.body).pupils, first).question_index).toBe(4);

    // An answer saved: new again.
    const [q1] = await answerKey(api.db, first.examId);
    expect((await lab1.call('POST', '/api/exam/answers', one.token, api.answer(one.scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);
    const answered = await api.call('GET', path, { token, headers: { 'If-None-Match': movedEtag! } });
    expect(answered.status).toBe(200);
    const answeredEtag = answered.headers.get('etag');
    expect(answeredEtag).not.toBe(movedEtag);

    // The second pupil falls silent for more than 30 s while the first keeps beating: offline is a change.
    api.clock.advance(25_000);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 4)).status).toBe(200);
    expect((await api.call('GET', path, { token, headers: { 'If-None-Match': answeredEtag! } })).status).toBe(304);
    api.clock.advance(10_000);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 4)).status).toBe(200);
    const silent = await api.call('GET', path, { token, headers: { 'If-None-Match': answeredEtag! } });
    expect(silent.status).toBe(200);
    const silentEtag = silent.headers.get('etag');
    expect(silentEtag).not.toBe(answeredEtag);
    expect(byId(v.parse(RosterResponseSchema, silent.body).pupils, second)).toMatchObject({ state: 'offline', last_contact_at: expect.any(String) });
    // While offline the last contact stands still: polls are 304 again, and the first pupil's beats change nothing.
    api.clock.advance(10_000);
    expect((await lab1.heartbeat(one.token, one.scheduleHistoryId, 4)).status).toBe(200);
    expect((await api.call('GET', path, { token, headers: { 'If-None-Match': silentEtag! } })).status).toBe(304);
    // Heard from again: back in the exam, a change.
    expect((await lab2.heartbeat(two.token, two.scheduleHistoryId, 0)).status).toBe(200);
    const back = await api.call('GET', path, { token, headers: { 'If-None-Match': silentEtag! } });
    expect(back.status).toBe(200);
    expect(byId(v.parse(RosterResponseSchema, back.body).pupils, second).state).toBe('in_exam');
  });

  test('lists the organisation\'s schedules with their pupil counts, and only those', async () => {
    const { first, token } = await classWithProctor(api);
    await addClassmate(api.db, first);
    const response = await api.call('GET', '/api/admin/schedules', { token });
    expect(response.status).toBe(200);
    const body = v.parse(AdminSchedulesResponseSchema, response.body);
    expect(body.schedules).toEqual([
      {
        code: first.scheduleCode,
        name: '',
        starts_at: '2026-01-01T00:00:00.000Z',
        ends_at: '2030-12-31T23:59:59.000Z',
        venue: { id: first.venueId, name: expect.any(String) },
        pupil_count: 2,
      },
    ]);

    const demoToken = await staffLogin(api, { orgCode: demoProctor.org_code, loginId: demoProctor.login_id, password: demoProctor.password });
    const demo = v.parse(AdminSchedulesResponseSchema, (await api.call('GET', '/api/admin/schedules', { token: demoToken })).body);
    const codes = demo.schedules.map((s) => s.code);
    expect(codes).toContain('DEMO-2026');
    expect(codes).not.toContain(first.scheduleCode);
    expect(codes).not.toContain('ABROAD-2026');
    // Open schedules come first.
    const open = demo.schedules.findIndex((s) => s.code === 'DEMO-2026');
    const past = demo.schedules.findIndex((s) => s.code === 'DEMO-2025');
    expect(open).toBeLessThan(past);
  });

  test('a room\'s roster: the schedule\'s own room lists its pupils, another room of the school none', async () => {
    const { first, token } = await classWithProctor(api);
    const [otherRoom] = await api.db.insert(venues).values({ organizationId: first.organizationId, name: `Other room ${first.scheduleCode}` }).returning();
    const own = await roster(api, token, first.scheduleCode, `?venue_id=${first.venueId}`);
    expect(own.body.venue).toEqual({ id: first.venueId, name: expect.any(String) });
    expect(own.body.pupils.map((p) => p.schedule_history_id)).toEqual([first.scheduleHistoryId]);
    const other = await roster(api, token, first.scheduleCode, `?venue_id=${otherRoom!.id}`);
    expect(other.body.venue).toEqual({ id: otherRoom!.id, name: otherRoom!.name });
    expect(other.body.pupils).toEqual([]);
  });

  test('another organisation\'s schedule, room, sitting or audit is 404 NOT_FOUND, like one that does not exist', async () => {
    const ours = await classWithProctor(api);
    const theirs = await classWithProctor(api);
    const lab = terminal(api);
    await lab.sit(theirs.first.loginCode);
    const before = await api.db.select().from(scheduleHistories).where(eq(scheduleHistories.id, theirs.first.scheduleHistoryId));

    const refused = [
      ['GET', `/api/admin/schedules/${theirs.first.scheduleCode}/roster`, undefined],
      ['GET', '/api/admin/schedules/NO-SUCH-SCHEDULE/roster', undefined],
      ['GET', `/api/admin/schedules/${ours.first.scheduleCode}/roster?venue_id=${theirs.first.venueId}`, undefined],
      ['GET', `/api/admin/audit?schedule=${theirs.first.scheduleCode}`, undefined],
      ['POST', `/api/admin/sittings/${theirs.first.scheduleHistoryId}/move-terminal`, { reason: 'Not mine' }],
      ['POST', `/api/admin/sittings/${theirs.first.scheduleHistoryId}/retake`, { reason: 'Not mine' }],
      ['POST', `/api/admin/sittings/${theirs.first.scheduleHistoryId}/extend`, { minutes: 5, reason: 'Not mine' }],
      ['POST', '/api/admin/sittings/2147483647/extend', { minutes: 5, reason: 'Nobody' }],
      ['POST', `/api/admin/schedules/${theirs.first.scheduleCode}/extend`, { minutes: 5, reason: 'Not mine' }],
      ['POST', `/api/admin/schedules/${ours.first.scheduleCode}/extend`, { minutes: 5, reason: 'Not mine', venue_id: theirs.first.venueId }],
    ] as const;
    for (const [method, path, body] of refused) {
      const response = await api.call(method, path, { token: ours.token, body });
      expect(response.status, path).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
      expect(JSON.stringify(response.body)).not.toContain(theirs.first.scheduleCode);
    }
    expect(await api.db.select().from(scheduleHistories).where(eq(scheduleHistories.id, theirs.first.scheduleHistoryId))).toEqual(before);
    // Their own proctor sees it.
    expect((await roster(api, theirs.token, theirs.first.scheduleCode)).body.pupils).toHaveLength(1);
  });

  test('bad query or path input is a VALIDATION_ERROR', async () => {
    const { first, token } = await classWithProctor(api);
    for (const path of [
      `/api/admin/schedules/${first.scheduleCode}/roster?venue_id=abc`,
      `/api/admin/schedules/${first.scheduleCode}/roster?venue_id=0`,
      '/api/admin/schedules/bad%20code!/roster',
      '/api/admin/audit',
      '/api/admin/audit?schedule=',
    ]) {
      const response = await api.call('GET', path, { token });
      expect(response.status, path).toBe(422);
      expect(errorOf(response).code).toBe('VALIDATION_ERROR');
    }
  });
});
