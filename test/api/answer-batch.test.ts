/**
 * Saves that reach PostgreSQL together go as one statement (server/domain/answers/batch.ts
 * SAVE_ANSWERS, server/db/batching.ts), and each keeps the outcome it would have had alone:
 * saved, superseded by a later answer to the same question, a resend acknowledged as a
 * duplicate, a caller not logged in refused, a finished sitting refused. A batch skips a
 * sitting another transaction holds: that save waits for it the careful way and is decided on
 * the row as that transaction left it, while the rest of its batch is stored without waiting.
 * (PGlite runs one statement at a time: its saves are not batched.) The batch's array
 * parameters keep any text intact.
 */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { prepare } from '../../server/db/prepared.ts';
import { answers } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { untilLockWaiters } from '../helpers/lock-waiters.ts';
import { batchesDuring } from '../helpers/save-batches.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds.filter((k) => k === 'postgres'))('answer saves batched on %s', (kind) => {
  const api = useApi(kind);
  const save = (token: string, body: Record<string, unknown>) => api.call('POST', '/api/exam/answers', { token, body });
  const rowsOf = (id: number) => api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id));
  afterEach(() => vi.restoreAllMocks());

  async function startedPupils(count: number) {
    const pupils = [];
    for (let i = 0; i < count; i++) {
      const sitting = await addSitting(api.db);
      const started = await api.startAs(sitting.loginCode);
      pupils.push({ ...started, questions: await answerKey(api.db, sitting.examId) });
    }
    // Each question's exam, type and choices are read once per process: read them now, so the
    // saves below reach the database together.
    const first = pupils[0]!;
    for (const q of first.questions.slice(0, 5)) expect((await save(first.token, api.answer(first.scheduleHistoryId, q.id, ''))).status).toBe(201);
    return pupils;
  }

  test('saves arriving together go as batches, and each gets the outcome it would have had alone', async () => {
    const pupils = await startedPupils(6);
    const [p0, p1, , , , finished] = pupils;
    expect((await api.call('POST', '/api/exam/finish', { token: finished!.token, body: { schedule_history_id: finished!.scheduleHistoryId } })).status).toBe(200);
    api.clock.advance(5_000);
    const at = (ms: number) => new Date(api.clock.now().getTime() - 5_000 + ms).toISOString();

    const plain = pupils.slice(0, 5).flatMap((p) =>
      p.questions.slice(1, 5).map((q) => ({ token: p.token, body: api.answer(p.scheduleHistoryId, q.id, String(q.correctAnswer), { answered_at: at(100) }) })),
    );
    const q0 = p0!.questions[0]!;
    const earlier = api.answer(p0!.scheduleHistoryId, q0.id, '', { answered_at: at(200) });
    const later = api.answer(p0!.scheduleHistoryId, q0.id, String(q0.correctAnswer), { answered_at: at(300) });
    const q1 = p1!.questions[0]!;
    const resent = api.answer(p1!.scheduleHistoryId, q1.id, String(q1.correctAnswer), { answered_at: at(400) });
    const stranger = api.answer(p1!.scheduleHistoryId, q1.id, String(q1.correctAnswer), { answered_at: at(500) });
    const tooLate = api.answer(finished!.scheduleHistoryId, finished!.questions[1]!.id, String(finished!.questions[1]!.correctAnswer), { answered_at: at(600) });

    const { result, sizes } = await batchesDuring(() =>
      Promise.all([
        ...plain.map(({ token, body }) => save(token, body)),
        save(p0!.token, earlier),
        save(p0!.token, later),
        save(p1!.token, resent),
        save(p1!.token, resent),
        save('not-a-token-of-anyone-at-all-0000000000000', stranger),
        save(finished!.token, tooLate),
      ]),
    );
    // More than one save went in one statement.
    expect(Math.max(...sizes)).toBeGreaterThan(1);

    const plainAnswers = result.slice(0, plain.length);
    for (const answered of plainAnswers) {
      expect(answered.status).toBe(201);
      expect(answered.body).toMatchObject({ outcome: 'saved' });
    }
    const [fromEarlier, fromLater, resend1, resend2, fromStranger, fromFinished] = result.slice(plain.length);
    // The later answer is the question's whatever order they were stored in.
    expect(fromLater!.status).toBe(201);
    expect([201, 200]).toContain(fromEarlier!.status);
    expect(['saved', 'superseded']).toContain((fromEarlier!.body as { outcome: string }).outcome);
    // A resend racing its original: one stored it, the other is acknowledged as the same answer.
    expect([resend1!.status, resend2!.status].sort()).toEqual([200, 201]);
    expect([resend1!.body, resend2!.body].map((b) => (b as { outcome: string }).outcome).sort()).toEqual(['duplicate', 'saved']);
    expect(fromStranger!.status).toBe(401);
    expect(errorOf(fromStranger!).code).toBe('NOT_LOGGED_IN');
    expect(fromFinished!.status).toBeGreaterThanOrEqual(400);
    expect(errorOf(fromFinished!).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');

    // What the database holds: every acknowledged answer, the later one for q0, nothing for the finished sitting.
    const held0 = await rowsOf(p0!.scheduleHistoryId);
    expect(held0.find((row) => row.questionId === q0.id)?.value).toBe(String(q0.correctAnswer));
    const held1 = await rowsOf(p1!.scheduleHistoryId);
    expect(held1.filter((row) => row.questionId === q1.id).map((row) => row.idempotencyKey)).toEqual([resent.idempotency_key]);
    for (const p of pupils.slice(0, 5)) {
      const held = await rowsOf(p.scheduleHistoryId);
      for (const q of p.questions.slice(1, 5)) expect(held.find((row) => row.questionId === q.id)?.value).toBe(String(q.correctAnswer));
    }
    expect(await rowsOf(finished!.scheduleHistoryId)).toHaveLength(0);
  });

  test('a batch skips a sitting a Finish holds: that save waits for the Finish and is refused, the rest of its batch is stored at once', async () => {
    const pupils = await startedPupils(5);
    const held = pupils[4]!;
    api.clock.advance(5_000);
    const other = new pg.Client({ connectionString: api.database.url });
    await other.connect();
    try {
      // Another process finishing one pupil's exam: the row locked and COMPLETED, not committed yet.
      await other.query('begin');
      await other.query('select id from schedule_histories where id = $1 for update', [held.scheduleHistoryId]);
      await other.query('update schedule_histories set status = $1, finished_at = now() where id = $2', [S.COMPLETED, held.scheduleHistoryId]);

      const { result: stored, sizes } = await batchesDuring(async () => {
        const waiting = save(held.token, api.answer(held.scheduleHistoryId, held.questions[1]!.id, String(held.questions[1]!.correctAnswer)));
        const others = await Promise.all(
          pupils.slice(0, 4).flatMap((p) => p.questions.slice(1, 4).map((q) => save(p.token, api.answer(p.scheduleHistoryId, q.id, String(q.correctAnswer))))),
        );
        return { waiting, others };
      });
      expect(Math.max(...sizes)).toBeGreaterThan(1);
      // Everyone else's answers were stored while the Finish still held its sitting.
      for (const answered of stored.others) expect(answered.status).toBe(201);
      // The held pupil's save waits for the Finish's row lock.
      await untilLockWaiters(other);

      await other.query('commit');
      const refused = await stored.waiting;
      expect(errorOf(refused).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
      expect(await rowsOf(held.scheduleHistoryId)).toHaveLength(0);
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.end();
    }
  });
});

describe.each(kinds.filter((k) => k === 'postgres'))('array parameters on %s', (kind) => {
  const api = useApi(kind);

  test('any text, numbers and nulls come back as they were sent, element by element', async () => {
    const texts = ['', 'plain', 'a,b', '{braces}', '"quoted"', 'back\\slash', '\\"', 'NULL', ' spaced ', 'ключ 漢字 🙂', "it's"];
    const statement = prepare<{ text: string | null; n: number | null; ord: number }>(api.db, {
      name: 'gradus_test_arrays_1',
      text: 'select t as text, n, ord::int as ord from unnest($1::text[], $2::int[]) with ordinality as u(t, n, ord)',
    });
    const rows = await statement!.run([[...texts, null], [...texts.map((_, i) => i), null]]);
    expect(rows.map((row) => row.text)).toEqual([...texts, null]);
    expect(rows.map((row) => row.n)).toEqual([...texts.map((_, i) => i), null]);
  });
});
