/**
 * A proctor's extension given after the pupil's deadline has passed (the roster's `time_up`: the
 * sitting is still DOING, answers given before the deadline may still arrive within the upload
 * window). A teacher in a hurry who gives "5 more minutes" means five minutes from now:
 * - one pupil: the new deadline is now + the minutes (not the past deadline + the minutes), and
 *   the heartbeat, the answers, Start on another terminal and the roster all follow it;
 * - past the upload window the sitting is over (answers are refused TIME_END, the automatic
 *   finish ends it): the extension is refused TIME_END too, changing nothing; at the very end of
 *   the window both are still accepted (server/domain/answers/ draws the same line);
 * - the room-wide extension gives every pupil in the exam the minutes from the later of their
 *   deadline and now, and leaves out a sitting past its upload window;
 * - extra_seconds counts the time given (the minutes), the audit entry keeps both deadlines.
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { AuditResponseSchema, ExtendScheduleResponseSchema, ExtendSittingResponseSchema, RosterResponseSchema } from '../../contract/admin.ts';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { StartExamResponseSchema } from '../../contract/exam.ts';
import { HeartbeatResponseSchema } from '../../contract/presence.ts';
import { extendedDeadline, extensionRefusal } from '../../server/domain/proctor.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { rowOf } from '../../machines/proctor/proctor.selectors.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow, snapshotTables } from '../helpers/server-fixtures.ts';
import { addClassmate, addStaff, staffLogin, terminal } from '../helpers/admin-api.ts';

const kinds = await testDatabaseKinds();
const MINUTE = 60_000;
const UPLOAD_WINDOW_MS = 30 * MINUTE;
const at = (base: string | Date, ms: number) => new Date(new Date(base).getTime() + ms);

async function classWithProctor(api: ApiContext) {
  const first = await addSitting(api.db, { organization: {} });
  const proctor = await addStaff(api.db, first);
  const token = await staffLogin(api, proctor);
  return { first, proctor, token };
}

describe('the extension rules', () => {
  const deadline = new Date('2026-06-01T10:00:00.000Z');
  test('the minutes run from the later of the deadline and now', () => {
    expect(extendedDeadline(deadline, 300, at(deadline, -MINUTE))).toEqual(at(deadline, 5 * MINUTE));
    expect(extendedDeadline(deadline, 300, deadline)).toEqual(at(deadline, 5 * MINUTE));
    expect(extendedDeadline(deadline, 300, at(deadline, 3 * MINUTE))).toEqual(at(deadline, 8 * MINUTE));
  });
  test('refused (TIME_END) only once now is past deadline + upload window, as answers are', () => {
    expect(extensionRefusal(deadline, at(deadline, 3 * MINUTE), UPLOAD_WINDOW_MS)).toBeNull();
    expect(extensionRefusal(deadline, at(deadline, UPLOAD_WINDOW_MS), UPLOAD_WINDOW_MS)).toBeNull();
    expect(extensionRefusal(deadline, at(deadline, UPLOAD_WINDOW_MS + 1), UPLOAD_WINDOW_MS)).toBe('TIME_END');
  });
});

describe.each(kinds)('an extension after the deadline on %s', (kind) => {
  const api = useApi(kind, { uploadWindowMs: UPLOAD_WINDOW_MS });

  test('gives one pupil the minutes from now, and everything follows the new deadline', async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const lab = terminal(api);
    const sitting = await lab.sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    const [q1, q2] = await answerKey(api.db, pupil.examId);
    // Answered just before the deadline on a terminal that then lost its connection.
    api.clock.set(at(sitting.deadlineAt, -MINUTE));
    const offline = api.answer(id, q1!.id, String(q1!.correctAnswer));

    api.clock.set(at(sitting.deadlineAt, 3 * MINUTE)); // the deadline passed 3 minutes ago
    const roster = async () => v.parse(RosterResponseSchema, (await api.call('GET', `/api/admin/schedules/${pupil.scheduleCode}/roster`, { token })).body);
    expect((await roster()).pupils.find((p) => p.schedule_history_id === id)?.state).toBe('time_up');

    const response = await api.call('POST', `/api/admin/sittings/${id}/extend`, { token, body: { minutes: 5, reason: 'Terminal crashed' } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const extended = v.parse(ExtendSittingResponseSchema, response.body);
    const newDeadline = at(api.clock.now(), 5 * MINUTE).toISOString();
    expect(extended.deadline_at).toBe(newDeadline);
    expect(extended.pupil).toMatchObject({ status: S.DOING, deadline_at: newDeadline, extra_seconds: 300 });
    expect(extended.pupil.state).not.toBe('time_up');

    // The answer given before the old deadline arrives, then the pupil answers again with the new time.
    const late = await lab.call('POST', '/api/exam/answers', sitting.token, offline);
    expect(late.status).toBe(201);
    api.clock.advance(4 * MINUTE);
    const beat = await lab.heartbeat(sitting.token, id, 1);
    expect(beat.status).toBe(200);
    expect(v.parse(HeartbeatResponseSchema, beat.body).deadline_at).toBe(newDeadline);
    expect((await lab.call('POST', '/api/exam/answers', sitting.token, api.answer(id, q2!.id, String(q2!.correctAnswer)))).status).toBe(201);
    // Start again (a reload, or another press) answers the new deadline; nothing restarts.
    const again = await lab.start(sitting.token, id);
    expect(v.parse(StartExamResponseSchema, again.body).deadline_at).toBe(newDeadline);

    // The automatic finish waits for the new deadline and its upload window.
    api.clock.set(at(sitting.deadlineAt, UPLOAD_WINDOW_MS + 4 * MINUTE));
    await runDueJobs(api.db, api.clock, { uploadWindowMs: UPLOAD_WINDOW_MS });
    expect((await historyRow(api.db, id)).status).toBe(S.DOING);

    const audit = v.parse(AuditResponseSchema, (await api.call('GET', `/api/admin/audit?schedule=${pupil.scheduleCode}`, { token })).body);
    expect(audit.entries[0]).toMatchObject({
      action: 'extend',
      schedule_history_id: id,
      detail: { seconds: 300, previous_deadline_at: sitting.deadlineAt, deadline_at: newDeadline },
    });
  });

  test('an extension given a minute before the deadline still adds to the deadline', async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const sitting = await terminal(api).sit(pupil.loginCode);
    api.clock.set(at(sitting.deadlineAt, -MINUTE));
    const response = await api.call('POST', `/api/admin/sittings/${sitting.scheduleHistoryId}/extend`, { token, body: { minutes: 5, reason: 'More time' } });
    expect(v.parse(ExtendSittingResponseSchema, response.body).deadline_at).toBe(at(sitting.deadlineAt, 5 * MINUTE).toISOString());
  });

  test('past the upload window the sitting cannot be extended (TIME_END, as its answers); at the end of the window it can', async () => {
    const { first: a, token } = await classWithProctor(api);
    const b = await addClassmate(api.db, a);
    const [q1] = await answerKey(api.db, a.examId);
    const labA = terminal(api);
    const labB = terminal(api);
    const sa = await labA.sit(a.loginCode);
    const sb = await labB.sit(b.loginCode);
    expect(sb.deadlineAt).toBe(sa.deadlineAt);
    api.clock.set(at(sa.deadlineAt, -MINUTE));
    const answerA = api.answer(sa.scheduleHistoryId, q1!.id, String(q1!.correctAnswer));
    const answerB = api.answer(sb.scheduleHistoryId, q1!.id, String(q1!.correctAnswer));

    // One millisecond past the window: the answer and the extension are both refused.
    api.clock.set(at(sa.deadlineAt, UPLOAD_WINDOW_MS + 1));
    const refusedAnswer = await labB.call('POST', '/api/exam/answers', sb.token, answerB);
    expect(errorOf(refusedAnswer).code).toBe('TIME_END');
    const before = await snapshotTables(api.db);
    const refused = await api.call('POST', `/api/admin/sittings/${sb.scheduleHistoryId}/extend`, { token, body: { minutes: 5, reason: 'Too late' } });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('TIME_END');
    expect(await snapshotTables(api.db)).toEqual(before);

    // At the very end of the window: both accepted.
    api.clock.set(at(sa.deadlineAt, UPLOAD_WINDOW_MS));
    expect((await labA.call('POST', '/api/exam/answers', sa.token, answerA)).status).toBe(201);
    const accepted = await api.call('POST', `/api/admin/sittings/${sa.scheduleHistoryId}/extend`, { token, body: { minutes: 5, reason: 'Just in time' } });
    expect(accepted.status).toBe(200);
    expect(v.parse(ExtendSittingResponseSchema, accepted.body).deadline_at).toBe(at(api.clock.now(), 5 * MINUTE).toISOString());
  });

  test("the roster carries the upload window: the page's rule marks Extend unavailable exactly when the server refuses it", async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const sitting = await terminal(api).sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    /** The pupil's row as the proctor page derives it from the roster answer, on the server's clock. */
    const pageRow = async () => {
      const roster = v.parse(RosterResponseSchema, (await api.call('GET', `/api/admin/schedules/${pupil.scheduleCode}/roster`, { token })).body);
      expect(roster.upload_window_ms).toBe(UPLOAD_WINDOW_MS);
      const serverClock = Date.parse(roster.server_time);
      return rowOf(roster.pupils.find((p) => p.schedule_history_id === id)!, serverClock, serverClock, roster.upload_window_ms);
    };
    const extend = () => api.call('POST', `/api/admin/sittings/${id}/extend`, { token, body: { minutes: 5, reason: 'Terminal crashed' } });

    api.clock.set(at(sitting.deadlineAt, UPLOAD_WINDOW_MS + 1));
    expect(await pageRow()).toMatchObject({ state: 'time_up', actions: ['extend', 'retake'], unavailable: { extend: 'upload_window_closed' } });
    expect(errorOf(await extend()).code).toBe('TIME_END');

    api.clock.set(at(sitting.deadlineAt, UPLOAD_WINDOW_MS));
    expect(await pageRow()).toMatchObject({ state: 'time_up', unavailable: {} });
    expect((await extend()).status).toBe(200);
  });

  test('the room-wide extension gives each pupil the minutes from the later of their deadline and now, and leaves out a sitting past its window', async () => {
    const { first: early, token } = await classWithProctor(api);
    const onTime = await addClassmate(api.db, early);
    const gone = await addClassmate(api.db, early);
    // Now (T): `gone` is past its deadline by the window and a millisecond, `early` 2 minutes past
    // its own, `onTime` has 30 minutes left. Each starts 40 minutes before its deadline.
    const goneSitting = await terminal(api).sit(gone.loginCode); // deadline T - 30 min - 1 ms
    api.clock.advance(28 * MINUTE + 1);
    const earlySitting = await terminal(api).sit(early.loginCode); // deadline T - 2 min
    api.clock.advance(32 * MINUTE);
    const onTimeSitting = await terminal(api).sit(onTime.loginCode); // deadline T + 30 min
    api.clock.advance(10 * MINUTE);
    const now = api.clock.now();
    expect(now).toEqual(at(goneSitting.deadlineAt, UPLOAD_WINDOW_MS + 1));
    expect(now).toEqual(at(earlySitting.deadlineAt, 2 * MINUTE));
    expect(now).toEqual(at(onTimeSitting.deadlineAt, -30 * MINUTE));
    const goneBefore = await historyRow(api.db, gone.scheduleHistoryId);

    const response = await api.call('POST', `/api/admin/schedules/${early.scheduleCode}/extend`, { token, body: { minutes: 5, reason: 'Fire drill' } });
    expect(response.status).toBe(200);
    expect(v.parse(ExtendScheduleResponseSchema, response.body).extended).toBe(2);
    expect(await historyRow(api.db, early.scheduleHistoryId)).toMatchObject({ deadlineAt: at(now, 5 * MINUTE), extraSeconds: 300 });
    expect(await historyRow(api.db, onTime.scheduleHistoryId)).toMatchObject({ deadlineAt: at(onTimeSitting.deadlineAt, 5 * MINUTE), extraSeconds: 300 });
    expect(await historyRow(api.db, gone.scheduleHistoryId)).toEqual(goneBefore);
  });
});
