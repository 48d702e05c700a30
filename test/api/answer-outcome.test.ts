/**
 * What a save tells the terminal: the outcome of POST /api/exam/answers (saved,
 * duplicate, superseded with the value the server holds instead) and the sitting's deadline as it
 * stands, so a window whose answer was replaced by a later one from another window shows the
 * server's value, and a terminal learns of a moved deadline with every save.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { SaveAnswerResponseSchema } from '../../contract/exam.ts';
import { answers, scheduleHistories } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const MINUTE = 60_000;
const at = (minutes: number) => new Date(Date.parse(TEST_START) + minutes * MINUTE).toISOString();

describe.each(kinds)('the outcome of a save on %s', (kind) => {
  const api = useApi(kind);
  const save = (token: string, body: Record<string, unknown>) => api.call('POST', '/api/exam/answers', { token, body });
  const held = (id: number) => api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id));

  test('a new answer is saved (201); the same key again is a duplicate (200); neither carries a current value', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId, deadlineAt } = await api.startAs(pupil.loginCode);
    const [q1] = await answerKey(api.db, pupil.examId);
    api.clock.advance(MINUTE);
    const body = api.answer(scheduleHistoryId, q1!.id, 'b');

    const first = await save(token, body);
    expect(first.status).toBe(201);
    expect(v.parse(SaveAnswerResponseSchema, first.body)).toEqual({
      question_id: q1!.id,
      idempotency_key: body.idempotency_key,
      outcome: 'saved',
      deadline_at: deadlineAt,
      server_time: at(1),
    });

    api.clock.advance(MINUTE);
    const again = await save(token, body);
    expect(again.status).toBe(200);
    const parsed = v.parse(SaveAnswerResponseSchema, again.body);
    expect(parsed).toMatchObject({ outcome: 'duplicate', deadline_at: deadlineAt, server_time: at(2) });
    expect(parsed.current_value).toBeUndefined();
  });

  test('an older answer arriving after a later one from another window is superseded, with the value held', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [, q2] = await answerKey(api.db, pupil.examId);
    api.clock.advance(5 * MINUTE);
    // Window B answers at minute 4; window A's answer from minute 3 (it was offline) arrives after it.
    const fromB = api.answer(scheduleHistoryId, q2!.id, 'cold', { answered_at: at(4) });
    const fromA = api.answer(scheduleHistoryId, q2!.id, 'warm', { answered_at: at(3) });
    expect((await save(token, fromB)).status).toBe(201);

    const late = await save(token, fromA);
    expect(late.status).toBe(200);
    expect(v.parse(SaveAnswerResponseSchema, late.body)).toMatchObject({
      question_id: q2!.id,
      idempotency_key: fromA.idempotency_key,
      outcome: 'superseded',
      current_value: 'cold',
    });
    const rows = await held(scheduleHistoryId);
    expect(rows.map((row) => [row.value, row.idempotencyKey])).toEqual([['cold', fromB.idempotency_key]]);

    // Window A's answer was never stored: sending it again is superseded again, never a duplicate.
    const resent = await save(token, fromA);
    expect(v.parse(SaveAnswerResponseSchema, resent.body)).toMatchObject({ outcome: 'superseded', current_value: 'cold' });
  });

  test('carries the deadline as it stands when it was moved (an extension)', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId, deadlineAt } = await api.startAs(pupil.loginCode);
    const [q1] = await answerKey(api.db, pupil.examId);
    const extended = new Date(Date.parse(deadlineAt) + 5 * MINUTE);
    await api.db.update(scheduleHistories).set({ deadlineAt: extended }).where(eq(scheduleHistories.id, scheduleHistoryId));
    api.clock.advance(MINUTE);

    const response = await save(token, api.answer(scheduleHistoryId, q1!.id, 'a'));
    expect(response.status).toBe(201);
    expect(v.parse(SaveAnswerResponseSchema, response.body).deadline_at).toBe(extended.toISOString());
  });
});
