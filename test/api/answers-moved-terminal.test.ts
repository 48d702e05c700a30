/**
 * A terminal a proctor moved the pupil away from delivers what it holds (server/domain/answers/):
 * with its token (revoked by the move) and its X-Device-Token, an answer of that sitting given
 * before the move is taken by the usual rules (newest answered_at wins against the new
 * terminal's, a resend is a duplicate); one given at or after the move, one for another sitting,
 * one from another terminal, and one for a sitting finished since are refused, and nothing it
 * sends moves the deadline or the roster's last contact. The three ways to those rules agree:
 * the one statement and the careful way on both databases, the batched statement on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { answers, authTokens, scheduleHistories } from '../../server/db/schema.ts';
import { saveAnswerCarefully } from '../../server/domain/answers/careful.ts';
import { DomainError } from '../../server/domain/errors.ts';
import { authenticateMovedAway, hashToken } from '../../server/domain/tokens.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addStaff, staffLogin, terminal } from '../helpers/admin-api.ts';
import { batchesDuring } from '../helpers/save-batches.ts';
import { addSitting, answerKey, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const MINUTE = 60_000;

/** A pupil answering on terminal A, a proctor of the school, and the paper's questions. */
async function pupilOnTerminalA(api: ApiContext) {
  const pupil = await addSitting(api.db, { organization: {} });
  const proctor = await staffLogin(api, await addStaff(api.db, pupil));
  const oldLab = terminal(api, `terminal-A-${randomUUID()}`);
  const sitting = await oldLab.sit(pupil.loginCode);
  const questions = await answerKey(api.db, pupil.examId);
  return { pupil, proctor, oldLab, sitting, id: sitting.scheduleHistoryId, questions };
}

async function move(api: ApiContext, proctor: string, id: number) {
  const moved = await api.call('POST', `/api/admin/sittings/${id}/move-terminal`, { token: proctor, body: { reason: 'Terminal A lost the network' } });
  expect(moved.status).toBe(200);
}

/** A value the question takes: its right answer. */
const right = (q: { correctAnswer: unknown }) => String(q.correctAnswer);

const heldBy = async (api: ApiContext, id: number) =>
  Object.fromEntries((await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id))).map((a) => [a.questionId, a.value]));

describe.each(kinds)('answers from a terminal moved away from, on %s', (kind) => {
  const api = useApi(kind);
  afterEach(() => vi.restoreAllMocks());

  test('the old terminal delivers the answers given before the move (newest wins), nothing given after it, and never touches time or contact', async () => {
    const { pupil, proctor, oldLab, sitting, id, questions } = await pupilOnTerminalA(api);
    const [q1, q2, q3, q4, q5] = questions;
    const save = (token: string, lab: typeof oldLab, body: Record<string, unknown>) => lab.call('POST', '/api/exam/answers', token, body);

    expect((await save(sitting.token, oldLab, api.answer(id, q1!.id, right(q1!)))).status).toBe(201);
    // The network drops: these stay in terminal A's outbox, given before the move.
    api.clock.advance(MINUTE);
    const q2Offline = api.answer(id, q2!.id, right(q2!));
    const q3Offline = api.answer(id, q3!.id, right(q3!));
    api.clock.advance(MINUTE);
    await move(api, proctor, id);
    const movedAt = api.clock.now().getTime();
    // Given at the very instant of the move, and after it: not the old terminal's any more.
    const q4AtMove = api.answer(id, q4!.id, right(q4!));

    // The pupil goes on at terminal B and answers q3 again, later (clears it).
    api.clock.advance(MINUTE);
    const newLab = terminal(api, `terminal-B-${randomUUID()}`);
    const login = await newLab.login(pupil.loginCode);
    expect((await newLab.start(login.token, id)).status).toBe(200);
    expect((await save(login.token, newLab, api.answer(id, q3!.id, ''))).status).toBe(201);
    const contactOfB = (await historyRow(api.db, id)).lastContactAt;

    // Terminal A's network comes back.
    api.clock.advance(MINUTE);
    const q2Sent = await save(sitting.token, oldLab, q2Offline);
    expect(q2Sent.status).toBe(201);
    expect(q2Sent.body).toMatchObject({ outcome: 'saved', deadline_at: sitting.deadlineAt });
    // Older than terminal B's answer to q3: acknowledged, B's stays.
    expect((await save(sitting.token, oldLab, q3Offline)).body).toMatchObject({ outcome: 'superseded', current_value: '' });
    // A resend (its acknowledgement lost) is a duplicate, by the careful way.
    expect((await save(sitting.token, oldLab, q2Offline)).body).toMatchObject({ outcome: 'duplicate' });
    for (const late of [q4AtMove, api.answer(id, q5!.id, right(q5!))]) {
      const refused = await save(sitting.token, oldLab, late);
      expect(refused.status).toBe(403);
      expect(errorOf(refused).code).toBe('INCORRECT_DEVICE');
    }
    // The same token from another terminal (a copied token) delivers nothing.
    const copied = await save(sitting.token, terminal(api), api.answer(id, q5!.id, right(q5!), { answered_at: new Date(movedAt - MINUTE).toISOString() }));
    expect(errorOf(copied).code).toBe('INCORRECT_DEVICE');
    // Its heartbeat is still refused: the old terminal learns it was moved away.
    expect(errorOf(await oldLab.heartbeat(sitting.token, id)).code).toBe('INCORRECT_DEVICE');

    expect(await heldBy(api, id)).toEqual({ [q1!.id]: right(q1!), [q2!.id]: right(q2!), [q3!.id]: '' });
    const row = await historyRow(api.db, id);
    expect(row.deadlineAt?.toISOString()).toBe(sitting.deadlineAt);
    expect(row.lastContactAt).toEqual(contactOfB);
    expect(row.deviceToken).toBe(newLab.deviceToken);
  });

  test("the roster shows the answers a terminal says it still holds, from its last heartbeat, and none once it is moved", async () => {
    const { pupil, proctor, oldLab, sitting, id } = await pupilOnTerminalA(api);
    const rowOf = async () => {
      const roster = await api.call('GET', `/api/admin/schedules/${pupil.scheduleCode}/roster`, { token: proctor });
      return (roster.body as { pupils: { schedule_history_id: number; waiting_answers: number }[] }).pupils.find((p) => p.schedule_history_id === id);
    };
    expect(await rowOf()).toMatchObject({ waiting_answers: 0 });
    const beat = await oldLab.call('POST', '/api/exam/heartbeat', sitting.token, { schedule_history_id: id, question_index: 4, visible: true, waiting_answers: 3 });
    expect(beat.status).toBe(200);
    expect(await rowOf()).toMatchObject({ waiting_answers: 3 });
    const bad = await oldLab.call('POST', '/api/exam/heartbeat', sitting.token, { schedule_history_id: id, question_index: 4, visible: true, waiting_answers: -1 });
    expect(errorOf(bad).code).toBe('VALIDATION_ERROR');
    expect(await rowOf()).toMatchObject({ waiting_answers: 3 });
    await move(api, proctor, id);
    expect(await rowOf()).toMatchObject({ waiting_answers: 0 });
  });

  test('nothing reaches a sitting finished since, nor one reset for a retake', async () => {
    const { pupil, proctor, oldLab, sitting, id, questions } = await pupilOnTerminalA(api);
    const [q1, q2] = questions;
    const offline = [api.answer(id, q1!.id, right(q1!)), api.answer(id, q2!.id, right(q2!))];
    api.clock.advance(MINUTE);
    await move(api, proctor, id);
    const newLab = terminal(api);
    const login = await newLab.login(pupil.loginCode);
    expect((await newLab.start(login.token, id)).status).toBe(200);
    expect((await newLab.call('POST', '/api/exam/finish', login.token, { schedule_history_id: id })).status).toBe(200);

    const refused = await oldLab.call('POST', '/api/exam/answers', sitting.token, offline[0]);
    expect(errorOf(refused).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
    expect(await heldBy(api, id)).toEqual({});

    // Reset for a retake and started again: the old attempt's terminal delivers nothing into it.
    expect((await api.call('POST', `/api/admin/sittings/${id}/retake`, { token: proctor, body: { reason: 'Retake' } })).status).toBe(200);
    const again = await terminal(api).sit(pupil.loginCode);
    expect(again.scheduleHistoryId).toBe(id);
    const afterReset = await oldLab.call('POST', '/api/exam/answers', sitting.token, offline[1]);
    expect(afterReset.status).toBeGreaterThanOrEqual(400);
    expect(await heldBy(api, id)).toEqual({});
  });

  test('another sitting of the same pupil takes nothing from the terminal moved away from, by the statement or the careful way', async () => {
    const { proctor, oldLab, sitting, id, questions } = await pupilOnTerminalA(api);
    const [q1, q2] = questions;
    // A second sitting of the same pupil, running on terminal A too, and a login that covers both.
    const first = await historyRow(api.db, id);
    const [second] = await api.db
      .insert(scheduleHistories)
      .values({
        examineeId: first.examineeId,
        scheduleId: first.scheduleId,
        examId: first.examId,
        status: S.DOING,
        userKey: randomUUID(),
        testKey: randomUUID(),
        startedAt: first.startedAt,
        deadlineAt: first.deadlineAt,
        deviceToken: oldLab.deviceToken,
      })
      .returning({ id: scheduleHistories.id });
    const otherId = second!.id;
    await api.db.update(authTokens).set({ scheduleHistoryId: null }).where(eq(authTokens.tokenHash, hashToken(sitting.token)));
    // The second sitting is held elsewhere by now (its own terminal binding, not moved).
    await api.db.update(scheduleHistories).set({ deviceToken: 'terminal-elsewhere' }).where(eq(scheduleHistories.id, otherId));

    const before = api.clock.now();
    api.clock.advance(MINUTE);
    await move(api, proctor, id);
    api.clock.advance(MINUTE);

    const toOther = await oldLab.call('POST', '/api/exam/answers', sitting.token, api.answer(otherId, q1!.id, right(q1!), { answered_at: before.toISOString() }));
    expect(errorOf(toOther).code).toBe('INCORRECT_DEVICE');
    const toMoved = await oldLab.call('POST', '/api/exam/answers', sitting.token, api.answer(id, q1!.id, right(q1!), { answered_at: before.toISOString() }));
    expect(toMoved.status).toBe(201);

    // The careful way on its own: the same rule, by answer time, sitting and terminal.
    const principal = await authenticateMovedAway(api.db, sitting.token, api.clock.now());
    expect(principal).toBeDefined();
    const context = (deviceToken: string) => ({ now: api.clock.now(), uploadWindowMs: 3_600_000, movedAwayDevice: { deviceToken } });
    const input = (scheduleHistoryId: number, answeredAt: Date) => ({
      scheduleHistoryId,
      questionId: q2!.id,
      value: right(q2!),
      idempotencyKey: randomUUID(),
      answeredAt,
    });
    const code = (work: Promise<unknown>) => work.then(() => 'taken', (error: unknown) => (error instanceof DomainError ? error.code : String(error)));
    expect(await code(saveAnswerCarefully(api.db, principal!, input(otherId, before), context(oldLab.deviceToken)))).toBe('INCORRECT_DEVICE');
    expect(await code(saveAnswerCarefully(api.db, principal!, input(id, api.clock.now()), context(oldLab.deviceToken)))).toBe('INCORRECT_DEVICE');
    expect(await code(saveAnswerCarefully(api.db, principal!, input(id, before), context('terminal-other')))).toBe('INCORRECT_DEVICE');
    expect(await code(saveAnswerCarefully(api.db, principal!, input(id, before), context(oldLab.deviceToken)))).toBe('taken');
    expect(await heldBy(api, otherId)).toEqual({});
    expect(await heldBy(api, id)).toEqual({ [q1!.id]: right(q1!), [q2!.id]: right(q2!) });
  });
});

describe.each(kinds.filter((k) => k === 'postgres'))('answers from a terminal moved away from, batched on %s', (kind) => {
  const api = useApi(kind);
  afterEach(() => vi.restoreAllMocks());

  test('saves arriving together go as one batch, which takes those given before the move and refuses the rest', async () => {
    const { proctor, oldLab, sitting, id, questions } = await pupilOnTerminalA(api);
    // Read each question's facts once, so the saves below reach the database together.
    for (const q of questions.slice(0, 6)) {
      expect((await oldLab.call('POST', '/api/exam/answers', sitting.token, api.answer(id, q.id, ''))).status).toBe(201);
    }
    api.clock.advance(MINUTE);
    const offline = questions.slice(0, 3).map((q) => api.answer(id, q.id, right(q)));
    api.clock.advance(MINUTE);
    await move(api, proctor, id);
    const afterMove = questions.slice(3, 6).map((q) => api.answer(id, q.id, right(q), { answered_at: new Date(api.clock.now().getTime() + 1000).toISOString() }));
    api.clock.advance(2000);

    const { result: responses, sizes } = await batchesDuring(() =>
      Promise.all([...offline, ...afterMove].map((body) => oldLab.call('POST', '/api/exam/answers', sitting.token, body))),
    );
    expect(Math.max(...sizes)).toBeGreaterThan(1);
    expect(responses.slice(0, 3).map((r) => r.status)).toEqual([201, 201, 201]);
    expect(responses.slice(3).map((r) => errorOf(r).code)).toEqual(['INCORRECT_DEVICE', 'INCORRECT_DEVICE', 'INCORRECT_DEVICE']);
    const held = await heldBy(api, id);
    expect(questions.slice(0, 6).map((q) => held[q.id])).toEqual([...offline.map((b) => b['value']), '', '', '']);
  });
});
