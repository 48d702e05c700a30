/**
 * The promises of server/domain/answers/rules.ts (its header), stated outright with exact boundaries:
 * `saveAnswerCarefully` (the careful way) called directly with a principal, and the same rules through
 * POST /api/exam/answers (a statement, then the careful way).
 * Idempotency by key (duplicate, ER_DUP_ENTRY, ARCHIVE_KEY), status refusals, the deadline and
 * the upload window (== boundary accepted, 1 ms beyond refused), the clock tolerance, the newest
 * answered_at wins (superseded with the value held), the value encodings per question type, a
 * question of another exam; and nothing written on any refusal (table snapshots).
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { defaultSettings } from '../../server/config.ts';
import { answerArchive, answers, authTokens, questions, scheduleHistories } from '../../server/db/schema.ts';
import { saveAnswerCarefully } from '../../server/domain/answers/careful.ts';
import { CLOCK_TOLERANCE_MS, type SaveAnswerInput } from '../../server/domain/answers/rules.ts';
import { hashToken, type Principal } from '../../server/domain/tokens.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const WINDOW_MS = defaultSettings.uploadWindowMs;
/** How far a terminal's clock may stray (CLOCK_TOLERANCE_MS), as a figure: the constant itself is under test. */
const TWO_MINUTES = 120_000;

describe.each(kinds)('the save rules (saveAnswerCarefully, the careful way) on %s', (kind) => {
  const api = useApi(kind);

  /** A started sitting of a new pupil, its principal, deadline and start, and a question of each type its exam has. */
  async function started(examCode = 'EN-1') {
    const pupil = await addSitting(api.db, { examCode });
    const { scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const history = await historyRow(api.db, scheduleHistoryId);
    const principal: Principal = { tokenId: 0, examineeId: pupil.examineeId, scheduleHistoryId, loginType: 0 };
    const qs = await api.db
      .select({ id: questions.id, type: questions.type, choices: questions.choices, blocks: questions.blocks })
      .from(questions)
      .where(eq(questions.examId, pupil.examId))
      .orderBy(questions.number);
    return { pupil, scheduleHistoryId, principal, qs, startedAt: history.startedAt!, deadlineAt: history.deadlineAt! };
  }

  function input(scheduleHistoryId: number, questionId: number, value: string, answeredAt: Date, key = randomUUID()): SaveAnswerInput {
    return { scheduleHistoryId, questionId, value, idempotencyKey: key, answeredAt };
  }

  const save = (principal: Principal, given: SaveAnswerInput, now = api.clock.now()) =>
    saveAnswerCarefully(api.db, principal, given, { now, uploadWindowMs: WINDOW_MS });

  const heldRows = (id: number) => api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id));

  /** Refused with `code` (and field issue) and nothing written anywhere. */
  async function refusedUnchanged(work: () => Promise<unknown>, code: string, field?: string, message?: string) {
    const before = await snapshotTables(api.db);
    const error = await work().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code });
    if (field) expect(error).toMatchObject({ issues: [{ field, rule: 'invalid' }] });
    if (message) expect(error).toMatchObject({ message });
    expect(await snapshotTables(api.db)).toEqual(before);
  }

  test('the same key with the same answer is a duplicate (with its late flag and the deadline), also after Finish', async () => {
    const s = await started();
    const [q1, q2] = s.qs;
    const first = input(s.scheduleHistoryId, q1!.id, '', api.clock.now());
    expect(await save(s.principal, first)).toEqual({ outcome: 'saved', late: false, deadlineAt: s.deadlineAt });
    expect(await save(s.principal, { ...first })).toEqual({ outcome: 'duplicate', late: false, deadlineAt: s.deadlineAt });

    // Answered before the deadline, arriving after it: late, and its resend says so too.
    const now = new Date(s.deadlineAt.getTime() + 1);
    const late = input(s.scheduleHistoryId, q2!.id, '', s.deadlineAt);
    expect(await save(s.principal, late, now)).toEqual({ outcome: 'saved', late: true, deadlineAt: s.deadlineAt });
    await api.db.update(scheduleHistories).set({ status: S.COMPLETED }).where(eq(scheduleHistories.id, s.scheduleHistoryId));
    expect(await save(s.principal, { ...late }, now)).toEqual({ outcome: 'duplicate', late: true, deadlineAt: s.deadlineAt });
    expect(await save(s.principal, { ...first }, now)).toEqual({ outcome: 'duplicate', late: false, deadlineAt: s.deadlineAt });
  });

  test('the same key with a different value, question, time or sitting is ER_DUP_ENTRY and writes nothing', async () => {
    const s = await started();
    const other = await started();
    const [q1, q2] = s.qs;
    const at = api.clock.now();
    const first = input(s.scheduleHistoryId, q1!.id, '', at);
    await save(s.principal, first);
    const choice = q1!.choices[0]!.id;
    await refusedUnchanged(
      () => save(s.principal, { ...first, value: choice }),
      'ER_DUP_ENTRY',
      undefined,
      'This idempotency key was already used for a different answer.',
    );
    await refusedUnchanged(() => save(s.principal, { ...first, questionId: q2!.id }), 'ER_DUP_ENTRY');
    await refusedUnchanged(() => save(s.principal, { ...first, answeredAt: new Date(at.getTime() + 1) }), 'ER_DUP_ENTRY');
    await refusedUnchanged(() => save(s.principal, { ...first, answeredAt: new Date(at.getTime() - 1) }), 'ER_DUP_ENTRY');
    await refusedUnchanged(
      () => save(other.principal, { ...first, scheduleHistoryId: other.scheduleHistoryId, questionId: other.qs[0]!.id }),
      'ER_DUP_ENTRY',
    );
    expect(await heldRows(s.scheduleHistoryId)).toHaveLength(1);
    expect(await heldRows(other.scheduleHistoryId)).toHaveLength(0);
  });

  test('a key archived by a reset of this sitting is ARCHIVE_KEY; one archived for another sitting is not', async () => {
    const s = await started();
    const other = await started();
    const [q1, q2] = s.qs;
    const at = api.clock.now();
    const archived = randomUUID();
    const elsewhere = randomUUID();
    const row = { questionId: q1!.id, value: '', answeredAt: at, receivedAt: at, late: false, supersededAt: at, resetNumber: 1 };
    await api.db.insert(answerArchive).values([
      { ...row, scheduleHistoryId: s.scheduleHistoryId, idempotencyKey: archived },
      { ...row, scheduleHistoryId: other.scheduleHistoryId, questionId: other.qs[0]!.id, idempotencyKey: elsewhere },
    ]);
    await api.db.update(scheduleHistories).set({ flagRetake: true }).where(eq(scheduleHistories.id, s.scheduleHistoryId));
    await refusedUnchanged(
      () => save(s.principal, input(s.scheduleHistoryId, q1!.id, '', at, archived)),
      'ARCHIVE_KEY',
      undefined,
      'This answer belongs to an attempt an administrator reset.',
    );
    // A reset sitting takes new keys, and keys archived by another sitting.
    expect(await save(s.principal, input(s.scheduleHistoryId, q2!.id, '', at, elsewhere))).toMatchObject({ outcome: 'saved' });
    expect(await save(s.principal, input(s.scheduleHistoryId, q1!.id, '', at))).toMatchObject({ outcome: 'saved' });
  });

  test('a DOING sitting without a start or deadline is a fault, not an answer (nothing written)', async () => {
    const s = await started();
    const [q1, q2] = s.qs;
    const first = input(s.scheduleHistoryId, q1!.id, '', api.clock.now());
    await save(s.principal, first);
    await api.db.update(scheduleHistories).set({ deadlineAt: null }).where(eq(scheduleHistories.id, s.scheduleHistoryId));
    await expect(save(s.principal, { ...first })).rejects.toThrow(/holds answers without a deadline/);
    await expect(save(s.principal, input(s.scheduleHistoryId, q2!.id, '', api.clock.now()))).rejects.toThrow(/is DOING without a deadline/);
    await api.db.update(scheduleHistories).set({ deadlineAt: s.deadlineAt, startedAt: null }).where(eq(scheduleHistories.id, s.scheduleHistoryId));
    await expect(save(s.principal, input(s.scheduleHistoryId, q2!.id, '', api.clock.now()))).rejects.toThrow(/is DOING without a deadline/);
    expect(await heldRows(s.scheduleHistoryId)).toHaveLength(1);
  });

  test('a sitting not DOING refuses answers with its status reason, writing nothing', async () => {
    const s = await started();
    const [q1] = s.qs;
    const set = (status: number) => api.db.update(scheduleHistories).set({ status }).where(eq(scheduleHistories.id, s.scheduleHistoryId));
    await set(S.PENDING);
    await refusedUnchanged(() => save(s.principal, input(s.scheduleHistoryId, q1!.id, '', api.clock.now())), 'EXAM_NOT_STARTED');
    await set(S.COMPLETED);
    await refusedUnchanged(() => save(s.principal, input(s.scheduleHistoryId, q1!.id, '', api.clock.now())), 'ER_SCHEDULE_HISTORY_COMPLETED');
    await set(S.DOING);
    expect(await save(s.principal, input(s.scheduleHistoryId, q1!.id, '', api.clock.now()))).toMatchObject({ outcome: 'saved' });
  });

  test('answered at the deadline is taken; 1 ms after it is TIME_END', async () => {
    const s = await started();
    const [q1, q2] = s.qs;
    const now = s.deadlineAt;
    await refusedUnchanged(
      () => save(s.principal, input(s.scheduleHistoryId, q1!.id, '', new Date(s.deadlineAt.getTime() + 1)), now),
      'TIME_END',
      undefined,
      'The time for this exam is over.',
    );
    expect(await save(s.principal, input(s.scheduleHistoryId, q2!.id, '', s.deadlineAt), now)).toEqual({
      outcome: 'saved',
      late: false,
      deadlineAt: s.deadlineAt,
    });
  });

  test('arriving after the deadline: late within the upload window (to its last ms), TIME_END 1 ms after it', async () => {
    const s = await started();
    const [q1, q2, q3] = s.qs;
    const windowEnd = s.deadlineAt.getTime() + WINDOW_MS;
    const answeredAt = new Date(s.deadlineAt.getTime() - 1000);
    await refusedUnchanged(
      () => save(s.principal, input(s.scheduleHistoryId, q1!.id, '', answeredAt), new Date(windowEnd + 1)),
      'TIME_END',
      undefined,
      'Answers for this exam can no longer be sent.',
    );
    expect(await save(s.principal, input(s.scheduleHistoryId, q2!.id, '', answeredAt), new Date(windowEnd))).toEqual({
      outcome: 'saved',
      late: true,
      deadlineAt: s.deadlineAt,
    });
    expect(await save(s.principal, input(s.scheduleHistoryId, q3!.id, '', answeredAt), new Date(s.deadlineAt.getTime() + 1))).toMatchObject({
      late: true,
    });
    const rows = await heldRows(s.scheduleHistoryId);
    expect(rows.map((r) => r.late)).toEqual([true, true]);
  });

  test('answered_at beyond the clock tolerance (future or before the start) is VALIDATION_ERROR on answered_at', async () => {
    const s = await started();
    const [q1, q2, q3] = s.qs;
    expect(CLOCK_TOLERANCE_MS).toBe(TWO_MINUTES);
    const now = new Date(s.startedAt.getTime() + 60_000);
    const tooLate = new Date(now.getTime() + CLOCK_TOLERANCE_MS + 1);
    const tooEarly = new Date(s.startedAt.getTime() - CLOCK_TOLERANCE_MS - 1);
    await refusedUnchanged(
      () => save(s.principal, input(s.scheduleHistoryId, q1!.id, '', tooLate), now),
      'VALIDATION_ERROR',
      'answered_at',
      'The answer time is outside the exam.',
    );
    await refusedUnchanged(() => save(s.principal, input(s.scheduleHistoryId, q1!.id, '', tooEarly), now), 'VALIDATION_ERROR', 'answered_at');
    const latest = new Date(now.getTime() + CLOCK_TOLERANCE_MS);
    const earliest = new Date(s.startedAt.getTime() - CLOCK_TOLERANCE_MS);
    expect(await save(s.principal, input(s.scheduleHistoryId, q2!.id, '', latest), now)).toMatchObject({ outcome: 'saved' });
    expect(await save(s.principal, input(s.scheduleHistoryId, q3!.id, '', earliest), now)).toMatchObject({ outcome: 'saved' });
  });

  test('the newest answered_at wins: an older answer arriving later is superseded with the value held', async () => {
    const s = await started();
    const q1 = s.qs.find((q) => q.type === 'single_choice')!;
    const [a, b] = q1.choices.map((c) => c.id);
    const t0 = api.clock.now();
    api.clock.advance(5000);
    const t1 = api.clock.now();
    expect(await save(s.principal, input(s.scheduleHistoryId, q1.id, a!, t1))).toMatchObject({ outcome: 'saved' });
    expect(await save(s.principal, input(s.scheduleHistoryId, q1.id, b!, t0))).toEqual({
      outcome: 'superseded',
      late: false,
      deadlineAt: s.deadlineAt,
      currentValue: a,
    });
    // The same time does not overwrite either.
    expect(await save(s.principal, input(s.scheduleHistoryId, q1.id, b!, t1))).toMatchObject({ outcome: 'superseded', currentValue: a });
    let [row] = await heldRows(s.scheduleHistoryId);
    expect(row).toMatchObject({ value: a, answeredAt: t1 });
    const t2 = new Date(t1.getTime() + 1);
    expect(await save(s.principal, input(s.scheduleHistoryId, q1.id, b!, t2))).toMatchObject({ outcome: 'saved' });
    [row] = await heldRows(s.scheduleHistoryId);
    expect(row).toMatchObject({ value: b, answeredAt: t2 });
  });

  test('a value not in its question type encoding is VALIDATION_ERROR on value; an empty one clears', async () => {
    const en = await started('EN-1');
    const single = en.qs.find((q) => q.type === 'single_choice')!;
    await refusedUnchanged(() => save(en.principal, input(en.scheduleHistoryId, single.id, 'nope', api.clock.now())), 'VALIDATION_ERROR', 'value');
    expect(await save(en.principal, input(en.scheduleHistoryId, single.id, single.choices[0]!.id, api.clock.now()))).toMatchObject({ outcome: 'saved' });
    api.clock.advance(1);
    expect(await save(en.principal, input(en.scheduleHistoryId, single.id, '', api.clock.now()))).toMatchObject({ outcome: 'saved' });
    expect((await heldRows(en.scheduleHistoryId))[0]).toMatchObject({ value: '' });
  });

  test('a question of another exam, or an id out of range, is VALIDATION_ERROR on question_id', async () => {
    const s = await started('EN-1');
    const other = await started('EN-2');
    await refusedUnchanged(
      () => save(s.principal, input(s.scheduleHistoryId, other.qs[0]!.id, '', api.clock.now())),
      'VALIDATION_ERROR',
      'question_id',
      'This question is not part of the exam.',
    );
    await refusedUnchanged(() => save(s.principal, input(s.scheduleHistoryId, 2_147_483_648, '', api.clock.now())), 'VALIDATION_ERROR', 'question_id');
  });
});

describe.each(kinds)('the save rules through the API on %s', (kind) => {
  const api = useApi(kind);
  const post = (token: string, body: Record<string, unknown>) => api.call('POST', '/api/exam/answers', { token, body });
  const rows = (id: number) => api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id));

  async function startedWith(examCode: string, type: 'single_choice' | 'number' | 'ordering') {
    const pupil = await addSitting(api.db, { examCode });
    const started = await api.startAs(pupil.loginCode);
    const [question] = await api.db
      .select({ id: questions.id, choices: questions.choices, blocks: questions.blocks })
      .from(questions)
      .where(and(eq(questions.examId, pupil.examId), eq(questions.type, type)))
      .orderBy(questions.number)
      .limit(1);
    if (!question) throw new Error(`no ${type} question in ${examCode}`);
    return { ...started, pupil, question };
  }

  async function refused(token: string, body: Record<string, unknown>, status: number, code: string, field?: string, message?: string) {
    const before = await snapshotTables(api.db);
    const response = await post(token, body);
    expect(response.status).toBe(status);
    const error = errorOf(response);
    expect(error.code).toBe(code);
    if (field) expect(error).toMatchObject({ issues: [{ field, rule: 'invalid' }] });
    if (message) expect(error.message).toBe(message);
    expect(await snapshotTables(api.db)).toEqual(before);
  }

  test('single choice: one of its choices, or empty; anything else is 422 on value', async () => {
    const s = await startedWith('EN-1', 'single_choice');
    await refused(s.token, api.answer(s.scheduleHistoryId, s.question.id, 'zz'), 422, 'VALIDATION_ERROR', 'value', 'Not one of the choices of this question.');
    expect((await post(s.token, api.answer(s.scheduleHistoryId, s.question.id, s.question.choices[0]!.id))).body).toMatchObject({ outcome: 'saved' });
    api.clock.advance(1);
    expect((await post(s.token, api.answer(s.scheduleHistoryId, s.question.id, ''))).body).toMatchObject({ outcome: 'saved' });
    expect(await rows(s.scheduleHistoryId)).toMatchObject([{ value: '' }]);
  });

  test('number: a keypad number is taken, anything else is 422 on value', async () => {
    const s = await startedWith('CALC-1', 'number');
    await refused(s.token, api.answer(s.scheduleHistoryId, s.question.id, 'abc'), 422, 'VALIDATION_ERROR', 'value', 'Not a number as the keypad writes it (like -3, 2.5 or 3/4).');
    expect((await post(s.token, api.answer(s.scheduleHistoryId, s.question.id, '-3'))).status).toBe(201);
    expect(await rows(s.scheduleHistoryId)).toMatchObject([{ value: '-3' }]);
  });

  test('ordering: every block once is taken; a missing or repeated block is 422 on value', async () => {
    const s = await startedWith('VP-1', 'ordering');
    const ids = s.question.blocks.map((b) => b.id);
    await refused(s.token, api.answer(s.scheduleHistoryId, s.question.id, ids.slice(1).join(',')), 422, 'VALIDATION_ERROR', 'value', 'Not an order of exactly the blocks of this question.');
    await refused(s.token, api.answer(s.scheduleHistoryId, s.question.id, [ids[0], ...ids.slice(1, -1), ids[0]].join(',')), 422, 'VALIDATION_ERROR', 'value');
    const order = [...ids].reverse().join(',');
    expect((await post(s.token, api.answer(s.scheduleHistoryId, s.question.id, order))).status).toBe(201);
    expect(await rows(s.scheduleHistoryId)).toMatchObject([{ value: order }]);
  });

  test('the late flag and the deadline at the exact boundaries; after the upload window or answered after the deadline TIME_END', async () => {
    const s = await startedWith('EN-1', 'single_choice');
    const [q1, q2, q3] = await answerKey(api.db, s.pupil.examId);
    const deadline = Date.parse(s.deadlineAt);
    const at = new Date(deadline - 1000).toISOString();
    const lateOf = async (questionId: number) => (await rows(s.scheduleHistoryId)).find((r) => r.questionId === questionId)?.late;
    api.clock.set(new Date(deadline));
    const onTime = await post(s.token, api.answer(s.scheduleHistoryId, q1!.id, '', { answered_at: at }));
    expect(onTime.body).toMatchObject({ outcome: 'saved', deadline_at: s.deadlineAt });
    expect(await lateOf(q1!.id)).toBe(false);
    await refused(s.token, api.answer(s.scheduleHistoryId, q2!.id, '', { answered_at: new Date(deadline + 1).toISOString() }), 403, 'TIME_END');
    api.clock.set(new Date(deadline + 1));
    expect((await post(s.token, api.answer(s.scheduleHistoryId, q2!.id, '', { answered_at: at }))).body).toMatchObject({ outcome: 'saved' });
    expect(await lateOf(q2!.id)).toBe(true);
    // A token that lives past the window (a terminal's one ends sooner), so the window alone decides.
    await api.db.update(authTokens).set({ expiresAt: new Date(deadline + 2 * WINDOW_MS) }).where(eq(authTokens.tokenHash, hashToken(s.token)));
    api.clock.set(new Date(deadline + WINDOW_MS));
    expect((await post(s.token, api.answer(s.scheduleHistoryId, q3!.id, '', { answered_at: at }))).body).toMatchObject({ outcome: 'saved' });
    expect(await lateOf(q3!.id)).toBe(true);
    api.clock.set(new Date(deadline + WINDOW_MS + 1));
    await refused(s.token, api.answer(s.scheduleHistoryId, q3!.id, '', { answered_at: new Date(deadline).toISOString() }), 403, 'TIME_END');
  });

  test('answered_at beyond the tolerance in the future is 422 on answered_at; at the tolerance it is taken', async () => {
    const s = await startedWith('EN-1', 'single_choice');
    const [q1, q2] = await answerKey(api.db, s.pupil.examId);
    const now = api.clock.now().getTime();
    await refused(
      s.token,
      api.answer(s.scheduleHistoryId, q1!.id, '', { answered_at: new Date(now + CLOCK_TOLERANCE_MS + 1).toISOString() }),
      422,
      'VALIDATION_ERROR',
      'answered_at',
    );
    expect((await post(s.token, api.answer(s.scheduleHistoryId, q2!.id, '', { answered_at: new Date(now + CLOCK_TOLERANCE_MS).toISOString() }))).status).toBe(201);
  });

  test('an older answer arriving later is superseded, with the value held; a question of another exam is refused', async () => {
    const s = await startedWith('EN-1', 'single_choice');
    const other = await startedWith('EN-2', 'single_choice');
    const [a, b] = s.question.choices.map((c) => c.id);
    const t0 = api.clock.now().toISOString();
    api.clock.advance(5000);
    expect((await post(s.token, api.answer(s.scheduleHistoryId, s.question.id, a!))).status).toBe(201);
    expect((await post(s.token, api.answer(s.scheduleHistoryId, s.question.id, b!, { answered_at: t0 }))).body).toMatchObject({
      outcome: 'superseded',
      current_value: a,
      deadline_at: s.deadlineAt,
    });
    expect(await rows(s.scheduleHistoryId)).toMatchObject([{ value: a }]);
    await refused(s.token, api.answer(s.scheduleHistoryId, other.question.id, ''), 422, 'VALIDATION_ERROR', 'question_id');
    // A question id no exam has: refused the same way, not a fault.
    await refused(s.token, api.answer(s.scheduleHistoryId, 999_999, ''), 422, 'VALIDATION_ERROR', 'question_id');
  });

  test('a refused token, or a sitting not DOING, is refused by name and writes nothing', async () => {
    const s = await startedWith('EN-1', 'single_choice');
    await refused('not-a-token', api.answer(s.scheduleHistoryId, s.question.id, ''), 401, 'NOT_LOGGED_IN');
    await api.db.update(scheduleHistories).set({ status: S.COMPLETED }).where(eq(scheduleHistories.id, s.scheduleHistoryId));
    await refused(s.token, api.answer(s.scheduleHistoryId, s.question.id, ''), 403, 'ER_SCHEDULE_HISTORY_COMPLETED');
  });

  test('ids beyond the database integer range are refused as not found / not of the exam, never a fault', async () => {
    const s = await startedWith('EN-1', 'single_choice');
    const tooBig = 2_147_483_648;
    const sitting = await post(s.token, api.answer(tooBig, s.question.id, ''));
    expect(sitting.status).toBeGreaterThanOrEqual(400);
    expect(sitting.status).toBeLessThan(500);
    await refused(s.token, api.answer(s.scheduleHistoryId, tooBig, ''), 422, 'VALIDATION_ERROR', 'question_id');
    expect(await rows(s.scheduleHistoryId)).toHaveLength(0);
  });
});
