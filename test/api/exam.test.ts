/**
 * The exam of one pupil through the API: details, Start (the deadline fixed on the server's
 * clock, never restarted), questions without their answers, answers (idempotent, latest wins,
 * resumed after a reload, refused after the deadline, accepted late within the upload window),
 * Finish (a receipt that can be recomputed, the same when asked again), and access to other
 * pupils' sittings.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import {
  answersDigestText,
  ExamDetailsSchema,
  ExamQuestionsSchema,
  FinishExamResponseSchema,
  SaveAnswerResponseSchema,
  StartExamResponseSchema,
} from '../../contract/exam.ts';
import { answers, jobs } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const MINUTE = 60_000;

describe.each(kinds)('the exam on %s', (kind) => {
  const api = useApi(kind);
  const details = (token: string, id: number) => api.call('GET', `/api/exam-details?schedule_history_id=${id}`, { token });
  const start = (token: string, id: number, headers: Record<string, string> = {}) =>
    api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: id }, headers });
  const questionsOf = (token: string, id: number) => api.call('GET', `/api/exam/questions?schedule_history_id=${id}`, { token });
  const save = (token: string, body: Record<string, unknown>) => api.call('POST', '/api/exam/answers', { token, body });
  const finish = (token: string, id: number) => api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: id } });
  const savedAnswers = (id: number) => api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id));

  describe('details', () => {
    test('name what the pupil is about to sit, before Start', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      const response = await details(token, scheduleHistoryId);
      expect(response.status).toBe(200);
      expect(v.parse(ExamDetailsSchema, response.body)).toEqual({
        schedule_history_id: scheduleHistoryId,
        examinee_name: expect.stringMatching(/^Pupil /),
        subject: { id: 1, name: 'English (vocabulary)' },
        // The level's place in its subject: the screens name it in the pupil's language.
        level: { id: expect.any(Number), name: 'Level 1', order: 1 },
        exam: { id: pupil.examId, title: 'English vocabulary, level 1', question_count: 20, time_limit_seconds: 2400 },
        status: ScheduleHistoryStatus.PENDING,
        started_at: null,
        deadline_at: null,
        resume_question_index: null,
        server_time: TEST_START,
      });
    });
  });

  describe('start', () => {
    test('fixes the deadline at 40 minutes from now on the server clock', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      api.clock.set('2026-06-01T10:15:30.000Z');
      const response = await start(token, scheduleHistoryId, { 'X-Device-Token': 'terminal-0042-abcdef', 'X-Locale': 'en-gb' });
      expect(response.status).toBe(200);
      expect(v.parse(StartExamResponseSchema, response.body)).toEqual({
        status: ScheduleHistoryStatus.DOING,
        started_at: '2026-06-01T10:15:30.000Z',
        deadline_at: '2026-06-01T10:55:30.000Z',
        server_time: '2026-06-01T10:15:30.000Z',
      });
      const row = await historyRow(api.db, scheduleHistoryId);
      expect(row).toMatchObject({ status: 6, deviceToken: 'terminal-0042-abcdef', locale: 'en-gb' });
      expect(row.deadlineAt?.toISOString()).toBe('2026-06-01T10:55:30.000Z');
    });

    test('pressed again, returns the same deadline and never restarts the time', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId, deadlineAt } = await api.startAs(pupil.loginCode);
      api.clock.advance(25 * MINUTE);
      const again = v.parse(StartExamResponseSchema, (await start(token, scheduleHistoryId, { 'X-Device-Token': 'another-terminal-77' })).body);
      expect(again).toMatchObject({ started_at: TEST_START, deadline_at: deadlineAt, status: 6 });
      expect(again.server_time).toBe('2026-06-01T09:25:00.000Z');
      expect((await historyRow(api.db, scheduleHistoryId)).deviceToken).toBeNull();
      const shown = v.parse(ExamDetailsSchema, (await details(token, scheduleHistoryId)).body);
      expect(shown).toMatchObject({ status: 6, started_at: TEST_START, deadline_at: deadlineAt });
    });

    test('after Finish is refused with ER_SCHEDULE_HISTORY_COMPLETED', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      expect((await finish(token, scheduleHistoryId)).status).toBe(200);
      const response = await start(token, scheduleHistoryId);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
    });

    test('outside the test period is refused with TIME_END', async () => {
      const pupil = await addSitting(api.db, { schedule: { startsAt: '2026-06-01T08:00:00Z', endsAt: '2026-06-01T10:00:00Z' } });
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      api.clock.set('2026-06-01T10:00:01Z');
      const response = await start(token, scheduleHistoryId);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('TIME_END');
      expect((await historyRow(api.db, scheduleHistoryId)).status).toBe(0);
    });
  });

  describe('questions', () => {
    test('before Start are refused with EXAM_NOT_STARTED', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      const response = await questionsOf(token, scheduleHistoryId);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('EXAM_NOT_STARTED');
    });

    test('come in order, of both types, and never carry a correct answer', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId, deadlineAt } = await api.startAs(pupil.loginCode);
      const response = await questionsOf(token, scheduleHistoryId);
      expect(response.status).toBe(200);
      const body = v.parse(ExamQuestionsSchema, response.body);
      expect(body.deadline_at).toBe(deadlineAt);
      expect(body.answers).toEqual([]);
      expect(body.questions.map((q) => q.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(new Set(body.questions.map((q) => q.type))).toEqual(new Set(['single_choice', 'text']));

      const key = await answerKey(api.db, pupil.examId);
      const raw = response.body as { questions: Record<string, unknown>[] };
      for (const [i, question] of raw.questions.entries()) {
        expect(Object.keys(question).sort()).toEqual(['blocks', 'choices', 'id', 'input', 'math', 'number', 'prompt', 'type', 'unit']);
        const text = JSON.stringify(question).toLowerCase();
        if (key[i]!.type === 'text') expect(text, question.prompt as string).not.toContain(key[i]!.correctAnswer.toLowerCase());
      }
      expect(JSON.stringify(response.body)).not.toMatch(/correct|answer_key|solution/i);
    });
  });

  describe('answers', () => {
    test('are saved, resumed after a reload, and a repeated key is one answer', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const [q1, q2] = await answerKey(api.db, pupil.examId);
      api.clock.advance(MINUTE);
      const first = api.answer(scheduleHistoryId, q1!.id, 'b');
      const response = await save(token, first);
      expect(response.status).toBe(201);
      expect(v.parse(SaveAnswerResponseSchema, response.body)).toEqual({
        question_id: q1!.id,
        idempotency_key: first.idempotency_key,
        outcome: 'saved',
        deadline_at: '2026-06-01T09:40:00.000Z',
        server_time: '2026-06-01T09:01:00.000Z',
      });
      expect((await save(token, api.answer(scheduleHistoryId, q2!.id, 'cold'))).status).toBe(201);

      api.clock.advance(MINUTE);
      const replay = await save(token, first);
      expect(replay.status).toBe(200);
      expect(await savedAnswers(scheduleHistoryId)).toHaveLength(2);

      const reloaded = v.parse(ExamQuestionsSchema, (await questionsOf(token, scheduleHistoryId)).body);
      expect(reloaded.answers).toEqual([
        { question_id: q1!.id, value: 'b', answered_at: '2026-06-01T09:01:00.000Z' },
        { question_id: q2!.id, value: 'cold', answered_at: '2026-06-01T09:01:00.000Z' },
      ]);
    });

    test('the same key for a different answer is refused with ER_DUP_ENTRY', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const [q1] = await answerKey(api.db, pupil.examId);
      const body = api.answer(scheduleHistoryId, q1!.id, 'a');
      expect((await save(token, body)).status).toBe(201);
      const response = await save(token, { ...body, value: 'c' });
      expect(response.status).toBe(422);
      expect(errorOf(response).code).toBe('ER_DUP_ENTRY');
      expect((await savedAnswers(scheduleHistoryId)).map((a) => a.value)).toEqual(['a']);
    });

    test('the latest answered_at wins, whatever order they arrive in', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const [, q2] = await answerKey(api.db, pupil.examId);
      api.clock.advance(5 * MINUTE);
      const at = (m: number) => new Date(Date.parse(TEST_START) + m * MINUTE).toISOString();
      expect((await save(token, api.answer(scheduleHistoryId, q2!.id, 'cool', { answered_at: at(2) }))).status).toBe(201);
      expect((await save(token, api.answer(scheduleHistoryId, q2!.id, 'cold', { answered_at: at(4) }))).status).toBe(201);
      // An older answer arriving late (an outbox resending) is acknowledged but does not replace it.
      expect((await save(token, api.answer(scheduleHistoryId, q2!.id, 'warm', { answered_at: at(3) }))).status).toBe(200);
      const rows = await savedAnswers(scheduleHistoryId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ value: 'cold', late: false });
      expect(rows[0]!.answeredAt.toISOString()).toBe(at(4));
    });

    test('before Start are refused with EXAM_NOT_STARTED', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      const [q1] = await answerKey(api.db, pupil.examId);
      const response = await save(token, api.answer(scheduleHistoryId, q1!.id, 'b'));
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('EXAM_NOT_STARTED');
      expect(await savedAnswers(scheduleHistoryId)).toEqual([]);
    });

    test('given after the deadline are refused with TIME_END', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId, deadlineAt } = await api.startAs(pupil.loginCode);
      const [q1] = await answerKey(api.db, pupil.examId);
      api.clock.set(deadlineAt);
      expect((await save(token, api.answer(scheduleHistoryId, q1!.id, 'a'))).status).toBe(201);
      api.clock.advance(1000);
      const response = await save(token, api.answer(scheduleHistoryId, q1!.id, 'b'));
      expect(response.status).toBe(403);
      expect(errorOf(response)).toMatchObject({ code: 'TIME_END', server_time: '2026-06-01T09:40:01.000Z' });
      expect((await savedAnswers(scheduleHistoryId)).map((a) => a.value)).toEqual(['a']);
    });

    test('given before the deadline but arriving after it are accepted within the upload window, flagged late', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId, deadlineAt } = await api.startAs(pupil.loginCode);
      const [q1, q2] = await answerKey(api.db, pupil.examId);
      const answeredAt = new Date(Date.parse(deadlineAt) - MINUTE).toISOString();

      api.clock.set(new Date(Date.parse(deadlineAt) + 3 * 3_600_000));
      const late = await save(token, api.answer(scheduleHistoryId, q1!.id, 'b', { answered_at: answeredAt }));
      expect(late.status).toBe(201);
      const [row] = await savedAnswers(scheduleHistoryId);
      expect(row).toMatchObject({ late: true, value: 'b' });
      expect(row!.receivedAt.toISOString()).toBe('2026-06-01T12:40:00.000Z');

      // After the 24-hour window, even an answer given in time is refused (after a new login:
      // the old token has expired by then).
      api.clock.set(new Date(Date.parse(deadlineAt) + 24 * 3_600_000 + 1000));
      const again = await api.loginAs(pupil.loginCode);
      const tooLate = await save(again.token, api.answer(scheduleHistoryId, q2!.id, 'cold', { answered_at: answeredAt }));
      expect(tooLate.status).toBe(403);
      expect(errorOf(tooLate).code).toBe('TIME_END');
      expect(await savedAnswers(scheduleHistoryId)).toHaveLength(1);
    });

    test('a choice that is not one of the question\'s, or a question of another exam, is a 422', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const [q1] = await answerKey(api.db, pupil.examId);
      const otherExam = await addSitting(api.db, { examCode: 'CALC-1' });
      const [foreign] = await answerKey(api.db, otherExam.examId);

      const badChoice = await save(token, api.answer(scheduleHistoryId, q1!.id, 'z'));
      expect(badChoice.status).toBe(422);
      expect(errorOf(badChoice)).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: 'value', rule: 'invalid' }] });
      const badQuestion = await save(token, api.answer(scheduleHistoryId, foreign!.id, '12'));
      expect(badQuestion.status).toBe(422);
      expect(errorOf(badQuestion)).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: 'question_id', rule: 'invalid' }] });
      expect(await savedAnswers(scheduleHistoryId)).toEqual([]);
    });
  });

  describe('finish', () => {
    test('completes the exam with a receipt over the saved answers in question order', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const key = await answerKey(api.db, pupil.examId);
      api.clock.advance(MINUTE);
      // Saved out of order, and one cleared again: the receipt covers the non-empty ones in question order.
      await save(token, api.answer(scheduleHistoryId, key[3]!.id, 'three'));
      await save(token, api.answer(scheduleHistoryId, key[0]!.id, 'b'));
      await save(token, api.answer(scheduleHistoryId, key[5]!.id, 'down'));
      api.clock.advance(MINUTE);
      await save(token, api.answer(scheduleHistoryId, key[5]!.id, ''));

      api.clock.advance(20 * MINUTE);
      const response = await finish(token, scheduleHistoryId);
      expect(response.status).toBe(200);
      const receipt = v.parse(FinishExamResponseSchema, response.body);
      const expected = createHash('sha256')
        .update(answersDigestText([{ question_id: key[0]!.id, value: 'b' }, { question_id: key[3]!.id, value: 'three' }]))
        .digest('hex');
      expect(receipt).toEqual({
        status: ScheduleHistoryStatus.COMPLETED,
        answer_count: 2,
        digest: expected,
        finished_at: '2026-06-01T09:22:00.000Z',
        server_time: '2026-06-01T09:22:00.000Z',
      });
      expect(await historyRow(api.db, scheduleHistoryId)).toMatchObject({ status: 1, answerCount: 2, answersDigest: expected });
      // Scoring is asked for in the same transaction, once.
      const scoring = await api.db.select().from(jobs).where(eq(jobs.key, `score:${scheduleHistoryId}`));
      expect(scoring).toMatchObject([{ kind: 'score', payload: { scheduleHistoryId }, doneAt: null }]);
      expect(scoring[0]!.runAt.toISOString()).toBe('2026-06-01T09:22:00.000Z');
    });

    test('asked again, returns the same receipt', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const [q1] = await answerKey(api.db, pupil.examId);
      await save(token, api.answer(scheduleHistoryId, q1!.id, 'b'));
      const first = v.parse(FinishExamResponseSchema, (await finish(token, scheduleHistoryId)).body);
      api.clock.advance(5 * MINUTE);
      const second = await finish(token, scheduleHistoryId);
      expect(second.status).toBe(200);
      expect(v.parse(FinishExamResponseSchema, second.body)).toEqual({ ...first, server_time: '2026-06-01T09:05:00.000Z' });
    });

    test('after Finish, answers and questions are refused with ER_SCHEDULE_HISTORY_COMPLETED; a resent answer is still acknowledged', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const [q1, q2] = await answerKey(api.db, pupil.examId);
      const sent = api.answer(scheduleHistoryId, q1!.id, 'b');
      await save(token, sent);
      expect((await finish(token, scheduleHistoryId)).status).toBe(200);

      for (const response of [await save(token, api.answer(scheduleHistoryId, q2!.id, 'cold')), await questionsOf(token, scheduleHistoryId)]) {
        expect(response.status).toBe(403);
        expect(errorOf(response).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
      }
      expect((await save(token, sent)).status).toBe(200);
      expect(await savedAnswers(scheduleHistoryId)).toHaveLength(1);
    });

    test('before Start is refused with EXAM_NOT_STARTED', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      const response = await finish(token, scheduleHistoryId);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('EXAM_NOT_STARTED');
      expect((await historyRow(api.db, scheduleHistoryId)).status).toBe(0);
    });
  });

  describe("another pupil's sitting", () => {
    test('is NOT_FOUND on every endpoint, and nothing of it changes', async () => {
      const mine = await addSitting(api.db);
      const theirs = await addSitting(api.db);
      const { token } = await api.loginAs(mine.loginCode);
      const other = await api.startAs(theirs.loginCode);
      const [q1] = await answerKey(api.db, theirs.examId);
      const id = theirs.scheduleHistoryId;

      for (const response of [
        await details(token, id),
        await start(token, id),
        await questionsOf(token, id),
        await save(token, api.answer(id, q1!.id, 'b')),
        await finish(token, id),
      ]) {
        expect(response.status).toBe(404);
        expect(errorOf(response).code).toBe('NOT_FOUND');
      }
      expect(await historyRow(api.db, id)).toMatchObject({ status: 6, deadlineAt: new Date(other.deadlineAt) });
      expect(await savedAnswers(id)).toEqual([]);
    });

    test('an id that does not exist is NOT_FOUND too (the same answer: nothing leaks)', async () => {
      const mine = await addSitting(api.db);
      const { token } = await api.loginAs(mine.loginCode);
      for (const id of [999_999, 2_147_483_647, 9_999_999_999]) {
        const response = await details(token, id);
        expect(response.status, String(id)).toBe(404);
        expect(errorOf(response).code).toBe('NOT_FOUND');
      }
    });
  });

  test('concurrent saves of one pupil keep one answer per question', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const key = await answerKey(api.db, pupil.examId);
    api.clock.advance(MINUTE);
    const bodies = key.flatMap((q, i) =>
      ['a', 'b', 'c'].map((value, j) =>
        api.answer(scheduleHistoryId, q.id, q.type === 'text' ? `word ${value}` : value, {
          answered_at: new Date(Date.parse(TEST_START) + (i + j) * 1000).toISOString(),
        }),
      ),
    );
    const responses = await Promise.all(bodies.map((body) => save(token, body)));
    expect(responses.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    const rows = await savedAnswers(scheduleHistoryId);
    expect(rows).toHaveLength(key.length);
    expect(rows.every((r) => r.value.endsWith('c'))).toBe(true);
    expect(new Set(rows.map((r) => r.idempotencyKey)).size).toBe(key.length);
  });
});
