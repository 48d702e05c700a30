/**
 * The usual save is one statement (server/domain/answers/statement.ts, saveAnswerAtOnce): counted at the
 * driver, for an answer the rules allow; what another process commits (a revoked token, a
 * proctor's move) is seen by the very next save; a save marks the roster's last contact; a body
 * declared over the size limit is refused without being read; and on
 * PostgreSQL a save that meets a Finish under way waits for it and is then refused, leaving no
 * answer in the finished sitting; it waits as well for a plain UPDATE of the sitting (its lock is
 * an UPDATE's, FOR NO KEY UPDATE), and a Finish waits for a save holding that lock. A save marks
 * contact only when the last is older than CONTACT_GRANULARITY_MS.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { answers, authTokens, scheduleHistories } from '../../server/db/schema.ts';
import { CONTACT_GRANULARITY_MS } from '../../server/domain/answers/rules.ts';
import { hashToken } from '../../server/domain/tokens.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { untilLockWaiters } from '../helpers/lock-waiters.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

/** Counts the statements the app sends to the database while `work` runs. */
async function statementsDuring(api: ApiContext, work: () => Promise<unknown>): Promise<number> {
  const client = (api.db as unknown as { $client: unknown }).$client;
  const spy =
    client instanceof pg.Pool
      ? vi.spyOn(pg.Client.prototype, 'query')
      : vi.spyOn(client as { _runExclusiveQuery: (fn: () => Promise<unknown>) => Promise<unknown> }, '_runExclusiveQuery');
  try {
    await work();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe.each(kinds)('the one-statement save on %s', (kind) => {
  const api = useApi(kind);
  const save = (token: string, body: Record<string, unknown>) => api.call('POST', '/api/exam/answers', { token, body });
  const answerRows = (id: number) => api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id));
  afterEach(() => vi.restoreAllMocks());

  test('an answer the rules allow is checked and stored in one statement; a refused one takes the careful way', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [q1, q2] = await answerKey(api.db, pupil.examId);
    // The first save of a question reads its exam, type and choices once.
    expect((await save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);
    expect((await save(token, api.answer(scheduleHistoryId, q2!.id, String(q2!.correctAnswer)))).status).toBe(201);

    api.clock.advance(1000);
    let status = 0;
    const one = await statementsDuring(api, async () => {
      status = (await save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status;
    });
    expect(status).toBe(201);
    expect(one).toBe(1);

    // A resend is not the one statement's: it goes the careful way and is a duplicate.
    const body = api.answer(scheduleHistoryId, q2!.id, String(q2!.correctAnswer));
    expect((await save(token, body)).status).toBe(201);
    const careful = await statementsDuring(api, async () => {
      expect((await save(token, body)).body).toMatchObject({ outcome: 'duplicate' });
    });
    expect(careful).toBeGreaterThan(1);
    expect(await answerRows(scheduleHistoryId)).toHaveLength(2);
  });

  test('a token revoked or a sitting released by another process is refused by the very next save, which writes nothing', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [q1, q2] = await answerKey(api.db, pupil.examId);
    expect((await save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);

    // Written straight to the database, as another API process would.
    await api.db
      .update(authTokens)
      .set({ revokedAt: api.clock.now(), revokedReason: 'moved' })
      .where(eq(authTokens.tokenHash, hashToken(token)));
    await api.db
      .update(scheduleHistories)
      .set({ deviceToken: null, deviceReleasedAt: api.clock.now() })
      .where(eq(scheduleHistories.id, scheduleHistoryId));
    const refused = await save(token, api.answer(scheduleHistoryId, q2!.id, String(q2!.correctAnswer)));
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('INCORRECT_DEVICE');
    expect(await answerRows(scheduleHistoryId)).toHaveLength(1);
  });

  test("a saved answer is the roster's last contact", async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [q1] = await answerKey(api.db, pupil.examId);
    api.clock.advance(40_000); // long enough for the roster to call the pupil offline
    expect((await historyRow(api.db, scheduleHistoryId)).lastContactAt).not.toEqual(api.clock.now());
    expect((await save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);
    expect((await historyRow(api.db, scheduleHistoryId)).lastContactAt).toEqual(api.clock.now());
  });

  test('the contact a save marks is at most CONTACT_GRANULARITY_MS old: a younger one is left as it is', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [q1, q2] = await answerKey(api.db, pupil.examId);
    api.clock.advance(40_000);
    const first = api.clock.now();
    expect((await save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);
    expect((await historyRow(api.db, scheduleHistoryId)).lastContactAt).toEqual(first);
    // Within the granularity: the answer is stored, the sitting's row is not written again.
    api.clock.advance(CONTACT_GRANULARITY_MS - 1);
    expect((await save(token, api.answer(scheduleHistoryId, q2!.id, String(q2!.correctAnswer)))).status).toBe(201);
    expect((await historyRow(api.db, scheduleHistoryId)).lastContactAt).toEqual(first);
    expect(await answerRows(scheduleHistoryId)).toHaveLength(2);
    // Older than the granularity: marked again.
    api.clock.advance(2);
    expect((await save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);
    expect((await historyRow(api.db, scheduleHistoryId)).lastContactAt).toEqual(api.clock.now());
  });

  test('a body whose Content-Length is over the limit is refused unread (400), one within it is taken', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [q1] = await answerKey(api.db, pupil.examId);
    const big = JSON.stringify({ ...api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)), padding: 'x'.repeat(20_000) });
    const tooLarge = await api.call('POST', '/api/exam/answers', { token, rawBody: big, headers: { 'Content-Length': String(Buffer.byteLength(big)) } });
    expect(tooLarge.status).toBe(400);
    expect(errorOf(tooLarge).code).toBe('VALIDATION_ERROR');
    const body = JSON.stringify(api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)));
    const fits = await api.call('POST', '/api/exam/answers', { token, rawBody: body, headers: { 'Content-Length': String(Buffer.byteLength(body)) } });
    expect(fits.status).toBe(201);
    expect(await answerRows(scheduleHistoryId)).toHaveLength(1);
  });

  test('the database holds what the statement stored: late flag, times and key as sent', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId, deadlineAt } = await api.startAs(pupil.loginCode);
    const [q1] = await answerKey(api.db, pupil.examId);
    const answeredAt = new Date(Date.parse(deadlineAt) - 1000).toISOString();
    api.clock.set(new Date(Date.parse(deadlineAt) + 60_000)); // answered before the deadline, arriving after it
    const body = api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer), { answered_at: answeredAt });
    expect((await save(token, body)).status).toBe(201);
    const [row] = await answerRows(scheduleHistoryId);
    expect(row).toBeDefined();
    expect(row!.late).toBe(true);
    expect(row!.answeredAt.toISOString()).toBe(answeredAt);
    expect(row!.receivedAt).toEqual(api.clock.now());
    expect(row!.idempotencyKey).toBe(body.idempotency_key);
  });
});

// Only PostgreSQL has other connections: PGlite runs one statement at a time.
describe.each(kinds.filter((k) => k === 'postgres'))('the one-statement save against a concurrent Finish on %s', (kind) => {
  const api = useApi(kind);
  const save = (token: string, body: Record<string, unknown>) => api.call('POST', '/api/exam/answers', { token, body });
  const answerRows = (id: number) => api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id));

  test('a save that meets a Finish under way waits for it, then is refused and leaves no answer', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [q1] = await answerKey(api.db, pupil.examId);
    const other = new pg.Client({ connectionString: api.database.url });
    await other.connect();
    try {
      // Another process finishing the exam: the sitting's row locked and COMPLETED, not committed yet.
      await other.query('begin');
      await other.query('select id from schedule_histories where id = $1 for update', [scheduleHistoryId]);
      await other.query('update schedule_histories set status = $1, finished_at = now() where id = $2', [S.COMPLETED, scheduleHistoryId]);
      const saving = save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)));
      // The save is waiting for the sitting's row lock.
      await untilLockWaiters(other);
      await other.query('commit');
      const refused = await saving;
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(errorOf(refused).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
      expect(await answerRows(scheduleHistoryId)).toHaveLength(0);
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.end();
    }
  });

  // The statement's lock is the one an UPDATE of the row takes (FOR NO KEY UPDATE), so even a
  // writer that takes no explicit lock (a time credit, an extension) is waited for and its row
  // checked again: a lighter lock (FOR KEY SHARE) would let this save through on the old deadline.
  test('a save that meets a plain UPDATE of its sitting (the deadline moved before the answer) waits for it and is refused', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [q1, q2] = await answerKey(api.db, pupil.examId);
    expect((await save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)))).status).toBe(201);
    api.clock.advance(60_000);
    const other = new pg.Client({ connectionString: api.database.url });
    await other.connect();
    try {
      await other.query('begin');
      // No FOR UPDATE: the UPDATE's own row lock. The new deadline lies before the answer's time.
      await other.query("update schedule_histories set deadline_at = $1::timestamptz - interval '1 second' where id = $2", [
        api.clock.now().toISOString(),
        scheduleHistoryId,
      ]);
      const saving = save(token, api.answer(scheduleHistoryId, q2!.id, String(q2!.correctAnswer)));
      await untilLockWaiters(other);
      await other.query('commit');
      const refused = await saving;
      expect(refused.status).toBe(403);
      expect(errorOf(refused).code).toBe('TIME_END');
      expect(await answerRows(scheduleHistoryId)).toHaveLength(1);
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.end();
    }
  });

  test('a Finish that meets a save holding the sitting waits for it, and its receipt counts that answer', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [q1] = await answerKey(api.db, pupil.examId);
    const other = new pg.Client({ connectionString: api.database.url });
    await other.connect();
    try {
      // Another process's save, not committed yet: the sitting locked as the statement locks it, the answer stored.
      await other.query('begin');
      await other.query('select id from schedule_histories where id = $1 for no key update', [scheduleHistoryId]);
      await other.query(
        'insert into answers (schedule_history_id, question_id, value, answered_at, received_at, idempotency_key, late) values ($1, $2, $3, $4, $4, $5, false)',
        [scheduleHistoryId, q1!.id, String(q1!.correctAnswer), api.clock.now().toISOString(), randomUUID()],
      );
      const finishing = api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } });
      await untilLockWaiters(other);
      await other.query('commit');
      const finished = await finishing;
      expect(finished.status).toBe(200);
      expect(finished.body).toMatchObject({ answer_count: 1 });
      const after = await save(token, api.answer(scheduleHistoryId, q1!.id, String(q1!.correctAnswer)));
      expect(errorOf(after).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
      expect(await answerRows(scheduleHistoryId)).toHaveLength(1);
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.end();
    }
  });
});
