/**
 * The error catalogue of seed section 8: every code is answered with a real
 * message, never the bare code (RESULT_NOT_RELEASED and RESULT_VIEW_EXPIRED among them); HTTP
 * 406 NOT_ACCEPTABLE for an Accept header the call cannot answer, refused before any work; and
 * ARCHIVE_KEY for an answer whose key belongs to an attempt an administrator reset (resent from
 * a terminal's outbox after the new login), which never enters the new attempt.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { resetAccount } from '../../server/admin.ts';
import { answerArchive, answers, results, scheduleHistories } from '../../server/db/schema.ts';
import { errorBody, statusOf } from '../../server/http/errors.ts';
import { accepts, parseAccept } from '../../server/http/negotiation.ts';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { errorCodes } from '../../contract/errors.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const YEAR = 365 * 86_400_000;

describe('every error code has a message of its own', () => {
  test.each(errorCodes)('%s', (code) => {
    const body = errorBody(code, undefined, new Date(TEST_START));
    expect(body.message).not.toBe(code);
    expect(body.message).toMatch(/^[A-Z].*\.$/);
    expect([400, 401, 403, 404, 406, 422, 429, 500]).toContain(statusOf[code]);
  });
});

describe('one status per code', () => {
  test('ER_SCHEDULE_HISTORY_RETAKE is a 401 (seed sections 4 and 8: a reset forces a new login)', () => {
    expect(statusOf.ER_SCHEDULE_HISTORY_RETAKE).toBe(401);
    // The codes that end the pupil's session on the client are all 401s.
    expect([statusOf.NOT_LOGGED_IN, statusOf.DURING_MAINTENANCE]).toEqual([401, 401]);
  });
});

describe('Accept headers (seed section 8: 406)', () => {
  test.each([
    [undefined, 'application/json', true],
    ['', 'application/json', true],
    ['application/json', 'application/json', true],
    ['*/*', 'application/json', true],
    ['application/*', 'application/json', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json', true],
    ['text/html', 'application/json', false],
    ['application/xml, text/csv', 'application/json', false],
    ['application/json;q=0, */*', 'application/json', false],
    ['*/*;q=0', 'application/json', false],
    ['application/pdf', 'application/pdf', true],
    ['application/json', 'application/pdf', false],
    ['APPLICATION/PDF; q=0.5', 'application/pdf', true],
  ] as const)('Accept %j for %s: %s', (header, type, expected) => {
    expect(accepts(header, type)).toBe(expected);
  });

  test('reads ranges and weights, skipping what is not a media range', () => {
    expect(parseAccept('text/html;level=1;q=0.5, nonsense, */*')).toEqual([
      { type: 'text', subtype: 'html', q: 0.5 },
      { type: '*', subtype: '*', q: 1 },
    ]);
  });
});

describe.each(kinds)('the error catalogue through the API on %s', (kind) => {
  const api = useApi(kind);

  describe('406 NOT_ACCEPTABLE', () => {
    test('a JSON call asked for HTML or XML is refused, with the JSON error body', async () => {
      const { token } = await api.loginAs((await addSitting(api.db)).loginCode);
      for (const accept of ['text/html', 'application/xml', 'application/json;q=0']) {
        const response = await api.call('GET', '/api/exams', { token, headers: { Accept: accept } });
        expect(response.status).toBe(406);
        expect(errorOf(response).code).toBe('NOT_ACCEPTABLE');
        expect(errorOf(response).message).toContain('application/json');
      }
      for (const accept of ['application/json', '*/*', 'text/html, */*;q=0.1']) {
        expect((await api.call('GET', '/api/exams', { token, headers: { Accept: accept } })).status).toBe(200);
      }
    });

    test('refused before any work: an answer sent with an Accept the call cannot answer is not saved', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const [question] = await answerKey(api.db, pupil.examId);
      const response = await api.call('POST', '/api/exam/answers', {
        token,
        headers: { Accept: 'text/csv' },
        body: api.answer(scheduleHistoryId, question!.id, String(question!.correctAnswer)),
      });
      expect(response.status).toBe(406);
      expect(await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, scheduleHistoryId))).toEqual([]);
    });

    test('the documents answer a PDF: asked for JSON only, 406; asked for a PDF, the call goes on', async () => {
      const { token, scheduleHistoryId } = await api.loginAs((await addSitting(api.db)).loginCode);
      const path = `/api/get-certificate?schedule_history_id=${scheduleHistoryId}`;
      const json = await api.call('GET', path, { token, headers: { Accept: 'application/json' } });
      expect(json.status).toBe(406);
      expect(errorOf(json).code).toBe('NOT_ACCEPTABLE');
      // Accepted: the certificate's own rules answer (no result yet), not the negotiation.
      const pdf = await api.call('GET', path, { token, headers: { Accept: 'application/pdf' } });
      expect(pdf.status).not.toBe(406);
    });
  });

  describe('ARCHIVE_KEY', () => {
    test('an answer of the attempt an administrator reset, resent after the new login, is refused and kept out', async () => {
      const pupil = await addSitting(api.db);
      const first = await api.startAs(pupil.loginCode);
      const [q1, q2] = await answerKey(api.db, pupil.examId);
      const old = api.answer(first.scheduleHistoryId, q1!.id, String(q1!.correctAnswer));
      expect((await api.call('POST', '/api/exam/answers', { token: first.token, body: old })).status).toBe(201);

      const reset = await resetAccount(api.db, pupil.loginCode, api.clock.now());
      expect(reset).toMatchObject({ ok: true, archivedAnswers: 1 });
      const again = await api.startAs(pupil.loginCode);
      expect(again.scheduleHistoryId).toBe(first.scheduleHistoryId);

      // The terminal's outbox sends the old answer again, with its old key, on the new login.
      const resent = await api.call('POST', '/api/exam/answers', {
        token: again.token,
        body: { ...old, answered_at: new Date(api.clock.now().getTime()).toISOString() },
      });
      expect(resent.status).toBe(403);
      expect(errorOf(resent)).toMatchObject({
        code: 'ARCHIVE_KEY',
        message: 'This answer belongs to an attempt an administrator reset.',
      });
      expect(await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, again.scheduleHistoryId))).toEqual([]);
      expect(await api.db.select().from(answerArchive).where(eq(answerArchive.scheduleHistoryId, again.scheduleHistoryId))).toHaveLength(1);

      // New answers of the new attempt are taken as usual.
      const fresh = await api.call('POST', '/api/exam/answers', {
        token: again.token,
        body: api.answer(again.scheduleHistoryId, q2!.id, String(q2!.correctAnswer)),
      });
      expect(fresh.status).toBe(201);
    });
  });

  describe('ER_SCHEDULE_HISTORY_RETAKE', () => {
    test('the old token of a reset account is answered with the catalogue\'s status and message', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      expect(await resetAccount(api.db, pupil.loginCode, api.clock.now())).toMatchObject({ ok: true });
      for (const [method, path] of [
        ['GET', `/api/exam/questions?schedule_history_id=${scheduleHistoryId}`],
        ['POST', '/api/exam/heartbeat'],
        ['GET', '/api/exams'],
      ] as const) {
        const response = await api.call(method, path, {
          token,
          ...(method === 'POST' ? { body: { schedule_history_id: scheduleHistoryId, question_index: 0, visible: true } } : {}),
        });
        // The middleware's answer and the catalogue's are one: 401, with the catalogue's message.
        expect(response.status).toBe(statusOf.ER_SCHEDULE_HISTORY_RETAKE);
        const { code, message } = errorBody('ER_SCHEDULE_HISTORY_RETAKE', undefined, api.clock.now());
        expect(errorOf(response)).toMatchObject({ code, message });
      }
    });
  });

  describe('the results refusals carry their messages', () => {
    test('RESULT_NOT_RELEASED before the week is over', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } });
      const response = await api.call('GET', `/api/get-short-result?schedule_history_id=${scheduleHistoryId}`, { token });
      expect(response.status).toBe(403);
      expect(errorOf(response)).toEqual(
        expect.objectContaining({
          code: 'RESULT_NOT_RELEASED',
          message: 'The result has not been released yet. Results can be viewed from one week after the exam.',
        }),
      );
    });

    test('RESULT_VIEW_EXPIRED two years after the exam', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      const finishedAt = new Date(new Date(TEST_START).getTime() - 3 * YEAR);
      await api.db
        .update(scheduleHistories)
        .set({ status: ScheduleHistoryStatus.RESULT_PUBLIC, startedAt: finishedAt, finishedAt })
        .where(eq(scheduleHistories.id, scheduleHistoryId));
      await api.db.insert(results).values({ scheduleHistoryId, score: 80, maxScore: 100, correctCount: 16, questionCount: 20, passed: true, scoredAt: finishedAt });
      const response = await api.call('GET', `/api/get-short-result?schedule_history_id=${scheduleHistoryId}`, { token });
      const error = errorOf(response);
      expect(error.code).toBe('RESULT_VIEW_EXPIRED');
      expect(error.message).toBe('Results can be viewed for two years after the exam. This result can no longer be viewed.');
    });
  });
});
