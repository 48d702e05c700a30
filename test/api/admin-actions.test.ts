/**
 * A proctor's actions through the running server, each with its audit entry:
 * - move to another terminal: the old terminal is refused INCORRECT_DEVICE, the pupil logs in on
 *   a new one and Start resumes the same sitting with the same deadline and answers, while a
 *   classmate notices nothing;
 * - retake: the reset (answers archived, the old terminal told ER_SCHEDULE_HISTORY_RETAKE), and
 *   the same pupil reset three times in a row, through the API and through the command line's
 *   resetAccount (each reset archives under keys of its own);
 * - extend one pupil or a schedule/room: the deadline moves for the heartbeat, the answers and
 *   the automatic finish; a sitting not in the exam is refused with the exam's own code;
 * - bad input is a VALIDATION_ERROR that changes nothing; the audit trail is newest first.
 */
import { asc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import {
  AuditResponseSchema,
  ExtendScheduleResponseSchema,
  ExtendSittingResponseSchema,
  RosterResponseSchema,
  SittingActionResponseSchema,
} from '../../contract/admin.ts';
import { HeartbeatResponseSchema } from '../../contract/presence.ts';
import { resetAccount } from '../../server/admin.ts';
import { answerArchive, auditLog, scheduleHistories, venues } from '../../server/db/schema.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { ExamDetailsSchema, ExamQuestionsSchema, StartExamResponseSchema } from '../../contract/exam.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow, snapshotTables } from '../helpers/server-fixtures.ts';
import { addClassmate, addStaff, examineeName, staffLogin, terminal } from '../helpers/admin-api.ts';

const kinds = await testDatabaseKinds();
const MINUTE = 60_000;
const DAY = 86_400_000;

async function classWithProctor(api: ApiContext) {
  const first = await addSitting(api.db, { organization: {} });
  const proctor = await addStaff(api.db, first);
  const token = await staffLogin(api, proctor);
  return { first, proctor, token };
}

async function auditOf(api: ApiContext, token: string, scheduleCode: string) {
  const response = await api.call('GET', `/api/admin/audit?schedule=${scheduleCode}`, { token });
  expect(response.status).toBe(200);
  return v.parse(AuditResponseSchema, response.body).entries;
}

describe.each(kinds)('proctor actions on %s', (kind) => {
  const api = useApi(kind);

  test('move to another terminal: the pupil goes on with the same answers and time, the old terminal is refused, a classmate notices nothing', async () => {
    const { first: pupil, proctor, token } = await classWithProctor(api);
    const classmate = await addClassmate(api.db, pupil);
    const [q1, q2, q3] = await answerKey(api.db, pupil.examId);

    const oldLab = terminal(api, 'terminal-A-0001');
    const sitting = await oldLab.sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    for (const q of [q1!, q2!]) {
      expect((await oldLab.call('POST', '/api/exam/answers', sitting.token, api.answer(id, q.id, String(q.correctAnswer)))).status).toBe(201);
    }
    const classmateLab = terminal(api, 'terminal-C-0003');
    const other = await classmateLab.sit(classmate.loginCode);

    api.clock.advance(5 * MINUTE);
    const moved = await api.call('POST', `/api/admin/sittings/${id}/move-terminal`, { token, body: { reason: '  Terminal A froze  ' } });
    expect(moved.status).toBe(200);
    expect(v.parse(SittingActionResponseSchema, moved.body).pupil).toMatchObject({
      schedule_history_id: id,
      state: 'moving',
      status: S.DOING,
      device_bound: false,
      answers_saved: 2,
      deadline_at: sitting.deadlineAt,
    });

    // The old terminal stops: every call is INCORRECT_DEVICE (its tokens were revoked for the move).
    for (const response of [
      await oldLab.heartbeat(sitting.token, id),
      await oldLab.call('POST', '/api/exam/answers', sitting.token, api.answer(id, q3!.id, String(q3!.correctAnswer))),
      await oldLab.call('GET', `/api/exam/questions?schedule_history_id=${id}`, sitting.token),
    ]) {
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('INCORRECT_DEVICE');
    }

    // The pupil logs in on another terminal and presses Start: the same sitting resumes.
    api.clock.advance(MINUTE);
    const newLab = terminal(api, 'terminal-B-0002');
    const login = await newLab.login(pupil.loginCode);
    expect(login.scheduleHistoryId).toBe(id);
    const resumed = await newLab.start(login.token, id);
    expect(resumed.status).toBe(200);
    const started = v.parse(StartExamResponseSchema, resumed.body);
    expect(started.deadline_at).toBe(sitting.deadlineAt);
    expect(started.started_at).toBe(new Date(api.clock.now().getTime() - 6 * MINUTE).toISOString());
    const questions = v.parse(ExamQuestionsSchema, (await newLab.call('GET', `/api/exam/questions?schedule_history_id=${id}`, login.token)).body);
    expect(questions.deadline_at).toBe(sitting.deadlineAt);
    expect(questions.answers.map((a) => a.question_id).sort()).toEqual([q1!.id, q2!.id].sort());
    expect((await newLab.call('POST', '/api/exam/answers', login.token, api.answer(id, q3!.id, String(q3!.correctAnswer)))).status).toBe(201);
    const beat = await newLab.heartbeat(login.token, id, 3);
    expect(v.parse(HeartbeatResponseSchema, beat.body).deadline_at).toBe(sitting.deadlineAt);
    expect((await historyRow(api.db, id)).deviceToken).toBe('terminal-B-0002');

    // A third terminal is refused now that the new one holds the sitting; the old one still is.
    const thirdLogin = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode }, headers: { 'X-Device-Token': 'terminal-D-0004' } });
    expect(errorOf(thirdLogin).code).toBe('INCORRECT_DEVICE');
    expect(errorOf(await oldLab.heartbeat(sitting.token, id)).code).toBe('INCORRECT_DEVICE');

    // The classmate went on undisturbed throughout.
    expect((await classmateLab.heartbeat(other.token, other.scheduleHistoryId)).status).toBe(200);
    expect((await historyRow(api.db, other.scheduleHistoryId)).deviceToken).toBe('terminal-C-0003');

    const [entry] = await auditOf(api, token, pupil.scheduleCode);
    expect(entry).toMatchObject({
      actor: 'staff',
      staff_name: proctor.name,
      action: 'move_terminal',
      examinee_name: await examineeName(api.db, pupil),
      schedule_history_id: id,
      reason: 'Terminal A froze',
      detail: { revoked_tokens: 1, deadline_at: sitting.deadlineAt },
    });
    const roster = await api.call('GET', `/api/admin/schedules/${pupil.scheduleCode}/roster`, { token });
    const row = (roster.body as { pupils: { schedule_history_id: number; state: string; answers_saved: number; question_index: number }[] }).pupils.find(
      (p) => p.schedule_history_id === id,
    );
    expect(row).toMatchObject({ state: 'in_exam', answers_saved: 3, question_index: 3 });
  });

  test('a login refused at another terminal shows on the roster until the proctor moves the pupil; a move clears it', async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const sitting = await terminal(api, 'terminal-A-0001').sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    const rosterRow = async () => {
      const roster = await api.call('GET', `/api/admin/schedules/${pupil.scheduleCode}/roster`, { token });
      return v.parse(RosterResponseSchema, roster.body).pupils.find((p) => p.schedule_history_id === id)!;
    };
    expect((await rosterRow()).refused_elsewhere_at).toBeNull();

    // The pupil stands at a second terminal: refused, and the refusal's moment is kept.
    api.clock.advance(MINUTE);
    const refusedAt = api.clock.now().toISOString();
    const second = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode }, headers: { 'X-Device-Token': 'terminal-B-0002' } });
    expect(second.status).toBe(403);
    expect(errorOf(second).code).toBe('INCORRECT_DEVICE');
    expect(await historyRow(api.db, id)).toMatchObject({ deviceToken: 'terminal-A-0001', refusedElsewhereAt: new Date(refusedAt) });
    expect((await rosterRow()).refused_elsewhere_at).toBe(refusedAt);

    // The terminal that holds the sitting logs in as ever, and the record stays for the proctor.
    expect((await terminal(api, 'terminal-A-0001').login(pupil.loginCode)).scheduleHistoryId).toBe(id);
    expect((await rosterRow()).refused_elsewhere_at).toBe(refusedAt);

    // The proctor moves the pupil: cleared, and the second terminal gets in.
    expect((await api.call('POST', `/api/admin/sittings/${id}/move-terminal`, { token, body: { reason: 'Terminal A froze' } })).status).toBe(200);
    expect((await rosterRow()).refused_elsewhere_at).toBeNull();
    expect((await terminal(api, 'terminal-B-0002').login(pupil.loginCode)).scheduleHistoryId).toBe(id);
  });

  test('after a move, a terminal that resumes with a heartbeat (without Start) is bound too', async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const sitting = await terminal(api).sit(pupil.loginCode);
    expect((await api.call('POST', `/api/admin/sittings/${sitting.scheduleHistoryId}/move-terminal`, { token, body: { reason: 'Moved' } })).status).toBe(200);
    const newLab = terminal(api);
    const login = await newLab.login(pupil.loginCode);
    const beat = await newLab.heartbeat(login.token, sitting.scheduleHistoryId, 1);
    expect(beat.status).toBe(200);
    expect(await historyRow(api.db, sitting.scheduleHistoryId)).toMatchObject({ deviceToken: newLab.deviceToken, deviceReleasedAt: null });
  });

  test('after a move, the terminal that loads the questions (as the exam client resumes, without Start) holds the sitting; a third is refused', async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const sitting = await terminal(api).sit(pupil.loginCode);
    expect((await api.call('POST', `/api/admin/sittings/${sitting.scheduleHistoryId}/move-terminal`, { token, body: { reason: 'Moved' } })).status).toBe(200);
    const newLab = terminal(api);
    const other = terminal(api);
    const [onNew, onOther] = [await newLab.login(pupil.loginCode), await other.login(pupil.loginCode)];
    const questionsPath = `/api/exam/questions?schedule_history_id=${sitting.scheduleHistoryId}`;
    const loaded = await newLab.call('GET', questionsPath, onNew.token);
    expect(loaded.status).toBe(200);
    expect(v.parse(ExamQuestionsSchema, loaded.body).deadline_at).toBe(sitting.deadlineAt);
    expect(await historyRow(api.db, sitting.scheduleHistoryId)).toMatchObject({ deviceToken: newLab.deviceToken, deviceReleasedAt: null });
    const refused = await other.call('GET', questionsPath, onOther.token);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('INCORRECT_DEVICE');
  });

  test('after a move, the new terminal is told the question the pupil was on, until it takes the sitting up', async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const oldLab = terminal(api);
    const sitting = await oldLab.sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    const detailsPath = `/api/exam-details?schedule_history_id=${id}`;
    expect((await oldLab.heartbeat(sitting.token, id, 3)).status).toBe(200);
    // Not moved: the terminal resumes at its own stored position, so the server names none.
    expect(v.parse(ExamDetailsSchema, (await oldLab.call('GET', detailsPath, sitting.token)).body).resume_question_index).toBeNull();

    expect((await api.call('POST', `/api/admin/sittings/${id}/move-terminal`, { token, body: { reason: 'Moved' } })).status).toBe(200);
    const newLab = terminal(api);
    const login = await newLab.login(pupil.loginCode);
    const details = await newLab.call('GET', detailsPath, login.token);
    expect(details.status).toBe(200);
    expect(v.parse(ExamDetailsSchema, details.body).resume_question_index).toBe(3);

    // Loading the questions binds the sitting to the new terminal: from then on its own position counts.
    expect((await newLab.call('GET', `/api/exam/questions?schedule_history_id=${id}`, login.token)).status).toBe(200);
    expect(v.parse(ExamDetailsSchema, (await newLab.call('GET', detailsPath, login.token)).body).resume_question_index).toBeNull();
  });

  test('retake: the sitting goes back to PENDING with its answers archived, the old terminal is told ER_SCHEDULE_HISTORY_RETAKE', async () => {
    const { first: pupil, proctor, token } = await classWithProctor(api);
    const lab = terminal(api);
    const sitting = await lab.sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    const [q1] = await answerKey(api.db, pupil.examId);
    expect((await lab.call('POST', '/api/exam/answers', sitting.token, api.answer(id, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);

    const response = await api.call('POST', `/api/admin/sittings/${id}/retake`, { token, body: { reason: 'Fire alarm' } });
    expect(response.status).toBe(200);
    expect(v.parse(SittingActionResponseSchema, response.body).pupil).toMatchObject({
      state: 'not_logged_in',
      status: S.PENDING,
      flag_retake: true,
      answers_saved: 0,
      started_at: null,
      deadline_at: null,
      extra_seconds: 0,
    });
    const next = await lab.heartbeat(sitting.token, id);
    expect(next.status).toBe(401);
    expect(errorOf(next).code).toBe('ER_SCHEDULE_HISTORY_RETAKE');
    expect((await api.db.select().from(answerArchive).where(eq(answerArchive.scheduleHistoryId, id))).map((a) => a.value)).toEqual([
      String(q1!.correctAnswer),
    ]);
    const [entry] = await auditOf(api, token, pupil.scheduleCode);
    expect(entry).toMatchObject({
      action: 'retake',
      staff_name: proctor.name,
      reason: 'Fire alarm',
      schedule_history_id: id,
      detail: { archived_answers: 1, previous_status: S.DOING, revoked_tokens: 1 },
    });
  });

  test('the same pupil can be reset three times in a row, by the proctor and by the command line', async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const [q1, q2] = await answerKey(api.db, pupil.examId);
    const id = pupil.scheduleHistoryId;
    const reset = async (round: number) => {
      if (round % 2 === 0) {
        const response = await api.call('POST', `/api/admin/sittings/${id}/retake`, { token, body: { reason: `Round ${round}` } });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
      } else {
        expect(await resetAccount(api.db, pupil.loginCode, api.clock.now())).toMatchObject({ ok: true, scheduleHistoryId: id, archivedAnswers: 2 });
      }
    };
    for (let round = 0; round < 6; round++) {
      const lab = terminal(api);
      const sitting = await lab.sit(pupil.loginCode);
      expect(sitting.scheduleHistoryId).toBe(id);
      for (const q of [q1!, q2!]) {
        expect((await lab.call('POST', '/api/exam/answers', sitting.token, api.answer(id, q.id, String(q.correctAnswer)))).status).toBe(201);
      }
      await reset(round); // the clock stands still: every reset happens at the same instant
    }
    const archived = await api.db
      .select({ resetNumber: answerArchive.resetNumber, questionId: answerArchive.questionId })
      .from(answerArchive)
      .where(eq(answerArchive.scheduleHistoryId, id))
      .orderBy(asc(answerArchive.resetNumber), asc(answerArchive.questionId));
    expect(archived.map((a) => a.resetNumber)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    const entries = await auditOf(api, token, pupil.scheduleCode);
    expect(entries.filter((e) => e.action === 'retake')).toHaveLength(6);
    // The command line's resets are audited too (no staff member: shown as the system, with why).
    expect(entries.filter((e) => e.action === 'retake' && e.actor === 'system')).toHaveLength(3);
    expect(entries.find((e) => e.actor === 'system')!.reason).toMatch(/command line/);
  });

  test('retake is refused for a sitting never started or whose result is public, and nothing changes', async () => {
    const { first: pending, token } = await classWithProctor(api);
    const published = await addClassmate(api.db, pending, { status: S.RESULT_PUBLIC });
    const cancelled = await addClassmate(api.db, pending, { status: S.CANCELED_PENDING });
    const before = await snapshotTables(api.db);
    for (const [sitting, code] of [
      [pending, 'EXAM_NOT_STARTED'],
      [published, 'ER_SCHEDULE_HISTORY_COMPLETED'],
      [cancelled, 'ER_SCHEDULE_HISTORY_CANCELLED'],
    ] as const) {
      const response = await api.call('POST', `/api/admin/sittings/${sitting.scheduleHistoryId}/retake`, { token, body: { reason: 'Try' } });
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe(code);
    }
    expect(await snapshotTables(api.db)).toEqual(before);
  });

  test('extend one pupil: the heartbeat, the answers and the automatic finish all follow the new deadline', async () => {
    const { first: pupil, proctor, token } = await classWithProctor(api);
    const lab = terminal(api);
    const sitting = await lab.sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    const oldDeadline = new Date(sitting.deadlineAt);

    const response = await api.call('POST', `/api/admin/sittings/${id}/extend`, { token, body: { minutes: 10, reason: 'Late start in room 2' } });
    expect(response.status).toBe(200);
    const extended = v.parse(ExtendSittingResponseSchema, response.body);
    const newDeadline = new Date(oldDeadline.getTime() + 10 * MINUTE);
    expect(extended.deadline_at).toBe(newDeadline.toISOString());
    expect(extended.pupil).toMatchObject({ deadline_at: newDeadline.toISOString(), extra_seconds: 600 });

    api.clock.set(new Date(oldDeadline.getTime() + MINUTE)); // past the old deadline, before the new one
    const beat = await lab.heartbeat(sitting.token, id);
    expect(beat.status).toBe(200);
    expect(v.parse(HeartbeatResponseSchema, beat.body).deadline_at).toBe(newDeadline.toISOString());
    const [q1] = await answerKey(api.db, pupil.examId);
    expect((await lab.call('POST', '/api/exam/answers', sitting.token, api.answer(id, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);

    // The automatic finish waits for the new deadline + upload window, and finishes at the new deadline.
    api.clock.set(new Date(oldDeadline.getTime() + DAY + MINUTE));
    await runDueJobs(api.db, api.clock);
    expect((await historyRow(api.db, id)).status).toBe(S.DOING);
    api.clock.set(new Date(newDeadline.getTime() + DAY + MINUTE));
    await runDueJobs(api.db, api.clock);
    const finished = await historyRow(api.db, id);
    expect(finished.status).not.toBe(S.DOING);
    expect(finished.finishedAt?.toISOString()).toBe(newDeadline.toISOString());

    // A day later the proctor's token has expired (12 hours, like a pupil's): log in again.
    expect(errorOf(await api.call('GET', '/api/admin/me', { token })).code).toBe('NOT_LOGGED_IN');
    const [entry] = await auditOf(api, await staffLogin(api, proctor), pupil.scheduleCode);
    expect(entry).toMatchObject({
      action: 'extend',
      staff_name: proctor.name,
      reason: 'Late start in room 2',
      schedule_history_id: id,
      detail: { seconds: 600, previous_deadline_at: oldDeadline.toISOString(), deadline_at: newDeadline.toISOString() },
    });
  });

  test('a finished or unstarted sitting is never extended: the exam\'s own refusal, and nothing changes', async () => {
    const { first: pending, token } = await classWithProctor(api);
    const done = await addClassmate(api.db, pending);
    const lab = terminal(api);
    const sitting = await lab.sit(done.loginCode);
    expect((await lab.call('POST', '/api/exam/finish', sitting.token, { schedule_history_id: sitting.scheduleHistoryId })).status).toBe(200);
    const expired = await addClassmate(api.db, pending, { status: S.EXPIRED });

    const before = await snapshotTables(api.db);
    for (const [target, code] of [
      [done, 'ER_SCHEDULE_HISTORY_COMPLETED'],
      [pending, 'EXAM_NOT_STARTED'],
      [expired, 'EXPIRED'],
    ] as const) {
      for (const action of ['extend', 'move-terminal'] as const) {
        const response = await api.call('POST', `/api/admin/sittings/${target.scheduleHistoryId}/${action}`, { token, body: { minutes: 5, reason: 'More time' } });
        expect(response.status, `${action} ${code}`).toBe(403);
        expect(errorOf(response).code).toBe(code);
      }
    }
    expect(await snapshotTables(api.db)).toEqual(before);
  });

  test('extend a schedule or one room: every pupil in the exam, nobody else, one audit entry', async () => {
    const { first: a, proctor, token } = await classWithProctor(api);
    const b = await addClassmate(api.db, a);
    const waiting = await addClassmate(api.db, a);
    const done = await addClassmate(api.db, a);
    const sa = await terminal(api).sit(a.loginCode);
    const sb = await terminal(api).sit(b.loginCode);
    const doneLab = terminal(api);
    const sd = await doneLab.sit(done.loginCode);
    await doneLab.call('POST', '/api/exam/finish', sd.token, { schedule_history_id: sd.scheduleHistoryId });
    const doneBefore = await historyRow(api.db, done.scheduleHistoryId);

    const response = await api.call('POST', `/api/admin/schedules/${a.scheduleCode}/extend`, { token, body: { minutes: 5, reason: 'Power cut', venue_id: a.venueId } });
    expect(response.status).toBe(200);
    expect(v.parse(ExtendScheduleResponseSchema, response.body).extended).toBe(2);
    for (const s of [sa, sb]) {
      expect((await historyRow(api.db, s.scheduleHistoryId)).deadlineAt?.toISOString()).toBe(new Date(new Date(s.deadlineAt).getTime() + 5 * MINUTE).toISOString());
    }
    expect(await historyRow(api.db, done.scheduleHistoryId)).toEqual(doneBefore);
    expect(await historyRow(api.db, waiting.scheduleHistoryId)).toMatchObject({ deadlineAt: null, extraSeconds: 0 });

    // Another room of the school has nobody in this schedule: nothing moves, and the request is still audited.
    const [otherRoom] = await api.db.insert(venues).values({ organizationId: a.organizationId, name: `Annex ${a.scheduleCode}` }).returning();
    const none = await api.call('POST', `/api/admin/schedules/${a.scheduleCode}/extend`, { token, body: { minutes: 5, reason: 'Wrong room', venue_id: otherRoom!.id } });
    expect(v.parse(ExtendScheduleResponseSchema, none.body).extended).toBe(0);
    expect((await historyRow(api.db, sa.scheduleHistoryId)).extraSeconds).toBe(300);

    const entries = await auditOf(api, token, a.scheduleCode);
    expect(entries.map((e) => [e.action, e.reason])).toEqual([
      ['extend_room', 'Wrong room'],
      ['extend_room', 'Power cut'],
    ]);
    expect(entries[1]).toMatchObject({
      staff_name: proctor.name,
      examinee_name: null,
      schedule_history_id: null,
      detail: { seconds: 300, sittings: 2, venue_id: a.venueId },
    });
  });

  test('an action sent again with its idempotency key ("Try again" after a lost answer) is done once', async () => {
    const { first: a, proctor, token } = await classWithProctor(api);
    const b = await addClassmate(api.db, a);
    const c = await addClassmate(api.db, a);
    const sa = await terminal(api).sit(a.loginCode);
    const sb = await terminal(api).sit(b.loginCode);
    const sc = await terminal(api).sit(c.loginCode);
    const key = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const post = (path: string, body: object) => api.call('POST', path, { token, body: { ...body, idempotency_key: key } });

    // Extend: the second request answers the row as it is, extended once.
    const first = await post(`/api/admin/sittings/${sa.scheduleHistoryId}/extend`, { minutes: 10, reason: 'Power cut' });
    api.clock.advance(2_000);
    const again = await post(`/api/admin/sittings/${sa.scheduleHistoryId}/extend`, { minutes: 10, reason: 'Power cut' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    const once = new Date(new Date(sa.deadlineAt).getTime() + 10 * MINUTE).toISOString();
    expect(v.parse(ExtendSittingResponseSchema, again.body)).toMatchObject({ deadline_at: once, pupil: { deadline_at: once, extra_seconds: 600 } });
    expect((await historyRow(api.db, sa.scheduleHistoryId)).deadlineAt?.toISOString()).toBe(once);
    // The same key on another pupil is that pupil's own action.
    expect((await post(`/api/admin/sittings/${sb.scheduleHistoryId}/extend`, { minutes: 10, reason: 'Power cut' })).status).toBe(200);
    expect((await historyRow(api.db, sb.scheduleHistoryId)).extraSeconds).toBe(600);
    // A new key is a new extension.
    const other = await api.call('POST', `/api/admin/sittings/${sa.scheduleHistoryId}/extend`, { token, body: { minutes: 1, reason: 'More', idempotency_key: '7f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f' } });
    expect(v.parse(ExtendSittingResponseSchema, other.body).pupil.extra_seconds).toBe(660);

    // Move to another terminal, twice: one audit entry; the second answers the pupil as moved.
    const moveKey = '8a1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const move = () => api.call('POST', `/api/admin/sittings/${sc.scheduleHistoryId}/move-terminal`, { token, body: { reason: 'Froze', idempotency_key: moveKey } });
    expect((await move()).status).toBe(200);
    const movedAgain = await move();
    expect(movedAgain.status).toBe(200);
    expect(v.parse(SittingActionResponseSchema, movedAgain.body).pupil).toMatchObject({ state: 'moving', device_bound: false });

    // Retake, twice: archived once, reset once.
    const retakeKey = '9b1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const retake = () => api.call('POST', `/api/admin/sittings/${sb.scheduleHistoryId}/retake`, { token, body: { reason: 'Wrong paper', idempotency_key: retakeKey } });
    expect((await retake()).status).toBe(200);
    const retakenAgain = await retake();
    expect(retakenAgain.status).toBe(200);
    expect(v.parse(SittingActionResponseSchema, retakenAgain.body).pupil).toMatchObject({ status: S.PENDING, flag_retake: true });

    // The room-wide extension, twice: the first count again, and the deadlines moved once.
    const roomKey = 'ab1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const room = () => api.call('POST', `/api/admin/schedules/${a.scheduleCode}/extend`, { token, body: { minutes: 5, reason: 'Fire drill', idempotency_key: roomKey } });
    const roomFirst = v.parse(ExtendScheduleResponseSchema, (await room()).body).extended;
    const aBefore = (await historyRow(api.db, sa.scheduleHistoryId)).deadlineAt;
    expect(v.parse(ExtendScheduleResponseSchema, (await room()).body).extended).toBe(roomFirst);
    expect((await historyRow(api.db, sa.scheduleHistoryId)).deadlineAt).toEqual(aBefore);

    const entries = await auditOf(api, token, a.scheduleCode);
    expect(entries.map((e) => [e.action, e.schedule_history_id])).toEqual([
      ['extend_room', null],
      ['retake', sb.scheduleHistoryId],
      ['move_terminal', sc.scheduleHistoryId],
      ['extend', sa.scheduleHistoryId],
      ['extend', sb.scheduleHistoryId],
      ['extend', sa.scheduleHistoryId],
    ]);
    expect(entries.every((e) => e.staff_name === proctor.name)).toBe(true);
  });

  test('bad input to any action is a VALIDATION_ERROR naming the field, and changes nothing', async () => {
    const { first: pupil, token } = await classWithProctor(api);
    const sitting = await terminal(api).sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    const before = await snapshotTables(api.db);
    const cases: [string, unknown, string][] = [
      [`/api/admin/sittings/${id}/move-terminal`, {}, 'reason'],
      [`/api/admin/sittings/${id}/move-terminal`, { reason: '   ' }, 'reason'],
      [`/api/admin/sittings/${id}/retake`, { reason: 'x'.repeat(501) }, 'reason'],
      [`/api/admin/sittings/${id}/extend`, { reason: 'ok' }, 'minutes'],
      [`/api/admin/sittings/${id}/extend`, { minutes: 0, reason: 'ok' }, 'minutes'],
      [`/api/admin/sittings/${id}/extend`, { minutes: 61, reason: 'ok' }, 'minutes'],
      [`/api/admin/sittings/${id}/extend`, { minutes: 1.5, reason: 'ok' }, 'minutes'],
      [`/api/admin/sittings/${id}/extend`, { minutes: '5', reason: 'ok' }, 'minutes'],
      ['/api/admin/sittings/abc/extend', { minutes: 5, reason: 'ok' }, 'id'],
      ['/api/admin/sittings/0/retake', { reason: 'ok' }, 'id'],
      [`/api/admin/schedules/${pupil.scheduleCode}/extend`, { minutes: 5, reason: 'ok', venue_id: 0 }, 'venue_id'],
      [`/api/admin/schedules/${pupil.scheduleCode}/extend`, { minutes: 5 }, 'reason'],
      [`/api/admin/sittings/${id}/extend`, { minutes: 5, reason: 'ok', idempotency_key: 'not-a-uuid' }, 'idempotency_key'],
    ];
    for (const [path, body, field] of cases) {
      const response = await api.call('POST', path, { token, body });
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(422);
      const error = errorOf(response);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.issues?.map((i) => i.field)).toContain(field);
    }
    const notJson = await api.call('POST', `/api/admin/sittings/${id}/extend`, { token, rawBody: '{"minutes": 5,', headers: { 'Content-Type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(await snapshotTables(api.db)).toEqual(before);
    expect(await api.db.select().from(auditLog).where(eq(auditLog.scheduleHistoryId, id))).toEqual([]);
  });

  test('the audit trail lists the schedule\'s entries newest first, each with who, when, what and why', async () => {
    const { first: pupil, proctor, token } = await classWithProctor(api);
    const sitting = await terminal(api).sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    await api.call('POST', `/api/admin/sittings/${id}/extend`, { token, body: { minutes: 3, reason: 'First' } });
    api.clock.advance(MINUTE);
    await api.call('POST', `/api/admin/sittings/${id}/move-terminal`, { token, body: { reason: 'Second' } });
    api.clock.advance(MINUTE);
    await api.call('POST', `/api/admin/sittings/${id}/retake`, { token, body: { reason: 'Third' } });
    const entries = await auditOf(api, token, pupil.scheduleCode);
    expect(entries.map((e) => [e.action, e.reason, e.at])).toEqual([
      ['retake', 'Third', api.clock.now().toISOString()],
      ['move_terminal', 'Second', new Date(api.clock.now().getTime() - MINUTE).toISOString()],
      ['extend', 'First', new Date(api.clock.now().getTime() - 2 * MINUTE).toISOString()],
    ]);
    expect(entries.every((e) => e.actor === 'staff' && e.staff_name === proctor.name && e.schedule_history_id === id)).toBe(true);
    // Another schedule's trail does not show them.
    const other = await classWithProctor(api);
    expect(await auditOf(api, other.token, other.first.scheduleCode)).toEqual([]);
  });
});

describe.each(kinds)('a started sitting left unbound on %s', (kind) => {
  const api = useApi(kind);

  test('a sitting started without a device token stays unbound after a repeated Start (only a released one is taken over)', async () => {
    const pupil = await addSitting(api.db, { organization: {} });
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const again = await api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: scheduleHistoryId }, headers: { 'X-Device-Token': 'terminal-late-0001' } });
    expect(again.status).toBe(200);
    expect((await historyRow(api.db, scheduleHistoryId)).deviceToken).toBeNull();
    const rows = await api.db.select({ released: scheduleHistories.deviceReleasedAt }).from(scheduleHistories).where(eq(scheduleHistories.id, scheduleHistoryId));
    expect(rows).toEqual([{ released: null }]);
  });
});
