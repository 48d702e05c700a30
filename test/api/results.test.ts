/**
 * The results of a sitting through the API, on PGlite and PostgreSQL: a pupil finishes, the
 * jobs score and release, and GET /api/get-short-result and GET /api/score-report/results
 * answer inside the window (one week to two years after the exam) and refuse outside it, for
 * other pupils' sittings, without the result sheet, and without a login.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { ScoreReportSchema, ShortResultSchema } from '../../contract/results.ts';
import { RESULT_RELEASE_MS } from '../../machines/schedule-history/schedule-history.machine.ts';
import { results, scheduleHistories } from '../../server/db/schema.ts';
import { ageAt, displayAnswer, ratingOf } from '../../server/domain/results.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey, buyItems, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('results on %s', (kind) => {
  const api = useApi(kind);

  /** A my-page pupil who sat EN-1 with answers right on the listed question numbers, finished and scored. */
  async function finishedPupil(rightNumbers: ReadonlySet<number>) {
    const pupil = await addSitting(api.db, { isMyPageLogin: true });
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const key = await answerKey(api.db, pupil.examId);
    for (const q of key) {
      const value = rightNumbers.has(q.number) ? q.correctAnswer : q.type === 'single_choice' ? (q.correctAnswer === 'a' ? 'b' : 'a') : 'zzz';
      const response = await api.call('POST', '/api/exam/answers', { token, body: api.answer(scheduleHistoryId, q.id, value) });
      expect(response.status).toBe(201);
    }
    expect((await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
    return { pupil, token, scheduleHistoryId, key, finishedAt: (await historyRow(api.db, scheduleHistoryId)).finishedAt! };
  }

  const shortResult = (token: string, id: number) => api.call('GET', `/api/get-short-result?schedule_history_id=${id}`, { token });
  const report = (token: string, id: number) => api.call('GET', `/api/score-report/results?schedule_history_id=${id}`, { token });
  const relogin = async (loginCode: string) => (await api.loginAs(loginCode)).token;

  test('finish -> scored -> released a week later: the short result, then the score report once bought', async () => {
    const right = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    const { pupil, token, scheduleHistoryId, key, finishedAt } = await finishedPupil(right);
    expect((await historyRow(api.db, scheduleHistoryId)).status).toBe(ScheduleHistoryStatus.COMPLETED);

    // Before scoring and before the week: waiting.
    let response = await shortResult(token, scheduleHistoryId);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('RESULT_NOT_RELEASED');

    await runDueJobs(api.db, api.clock);
    expect((await historyRow(api.db, scheduleHistoryId)).status).toBe(ScheduleHistoryStatus.SCORING_COMPLETED);
    const [scored] = await api.db.select().from(results).where(eq(results.scheduleHistoryId, scheduleHistoryId));
    expect(scored).toMatchObject({ score: 15, maxScore: key.length, correctCount: 15, questionCount: key.length, passed: true, rank: null });

    api.clock.set(new Date(finishedAt.getTime() + RESULT_RELEASE_MS - 1));
    const waitingToken = await relogin(pupil.loginCode);
    response = await shortResult(waitingToken, scheduleHistoryId);
    expect(errorOf(response).code).toBe('RESULT_NOT_RELEASED');

    api.clock.set(new Date(finishedAt.getTime() + RESULT_RELEASE_MS));
    await runDueJobs(api.db, api.clock);
    expect((await historyRow(api.db, scheduleHistoryId)).status).toBe(ScheduleHistoryStatus.RESULT_PUBLIC);
    const weekToken = await relogin(pupil.loginCode);
    response = await shortResult(weekToken, scheduleHistoryId);
    expect(response.status).toBe(200);
    const short = v.parse(ShortResultSchema, response.body);
    expect(short).toMatchObject({
      schedule_history_id: scheduleHistoryId,
      subject: { id: 1 },
      level: { order: 1 },
      score: 15,
      max_score: 20,
      passed: true,
      correct_count: 15,
      question_count: 20,
      correct_rate: 75,
      exam_date: finishedAt.toISOString(),
    });

    response = await report(weekToken, scheduleHistoryId);
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('PAYMENT_REQUIRED');

    await buyItems(api.db, scheduleHistoryId, ['result_sheet'], api.clock.now());
    response = await report(weekToken, scheduleHistoryId);
    expect(response.status).toBe(200);
    const sheet = v.parse(ScoreReportSchema, response.body);
    expect(sheet.examinee).toMatchObject({ name: expect.stringContaining('Pupil'), grade_id: 4, age: null, organization_name: 'Gradus Demo Primary School' });
    expect(sheet.result).toMatchObject({ score: 15, max_score: 20, pass_score: 12, passed: true, correct_rate: 75, rating: 'B' });
    // The demo test period runs until 2030: its cohort is open, so the rank is in progress.
    expect(sheet.rank).toEqual({ status: 'in_progress' });
    expect(sheet.units.length).toBeGreaterThan(1);
    expect(sheet.units.reduce((n, u) => n + u.question_count, 0)).toBe(20);
    expect(sheet.units.reduce((n, u) => n + u.correct_count, 0)).toBe(15);
    for (const unit of sheet.units) expect(unit).toMatchObject({ average_all: null, average_organization: null });
    expect(sheet.distribution?.find((d) => d.score === 15)?.count).toBeGreaterThanOrEqual(1);
    expect(sheet.distribution).toHaveLength(21);
    // The first wrong answer (question 16), with the right answer as the pupil would read it.
    expect(sheet.wrong_answer_example).toMatchObject({ question_number: 16 });
    const sixteen = key.find((q) => q.number === 16)!;
    expect(sheet.wrong_answer_example!.correct).not.toBe('');
    if (sixteen.type !== 'single_choice') expect(sheet.wrong_answer_example!.correct).toBe(sixteen.correctAnswer);
    expect(sheet.certificate_available).toBe(false);
    await buyItems(api.db, scheduleHistoryId, ['certificate'], api.clock.now());
    expect(v.parse(ScoreReportSchema, (await report(weekToken, scheduleHistoryId)).body).certificate_available).toBe(true);

    // Two years after the exam, no more.
    api.clock.set(new Date(Date.UTC(finishedAt.getUTCFullYear() + 2, finishedAt.getUTCMonth(), finishedAt.getUTCDate(), finishedAt.getUTCHours(), finishedAt.getUTCMinutes(), finishedAt.getUTCSeconds(), finishedAt.getUTCMilliseconds())));
    const lateToken = await relogin(pupil.loginCode);
    for (const call of [shortResult, report]) {
      response = await call(lateToken, scheduleHistoryId);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('RESULT_VIEW_EXPIRED');
    }
  });

  test('a failed result has rating D and no certificate, even when one was bought', async () => {
    const { pupil, scheduleHistoryId, finishedAt } = await finishedPupil(new Set([1, 2, 3]));
    api.clock.set(new Date(finishedAt.getTime() + RESULT_RELEASE_MS + 1000));
    await runDueJobs(api.db, api.clock);
    await buyItems(api.db, scheduleHistoryId, ['result_sheet', 'certificate'], api.clock.now());
    const token = await relogin(pupil.loginCode);
    const sheet = v.parse(ScoreReportSchema, (await report(token, scheduleHistoryId)).body);
    expect(sheet.result).toMatchObject({ score: 3, passed: false, correct_rate: 15, rating: 'D' });
    expect(sheet.certificate_available).toBe(false);
  });

  test("another pupil's sitting is 404 NOT_FOUND; no login is 401; a bad id is 422", async () => {
    const { scheduleHistoryId, finishedAt } = await finishedPupil(new Set([1]));
    api.clock.set(new Date(finishedAt.getTime() + RESULT_RELEASE_MS + 1000));
    await runDueJobs(api.db, api.clock);
    const other = await addSitting(api.db, { isMyPageLogin: true });
    const { token } = await api.loginAs(other.loginCode);
    for (const call of [shortResult, report]) {
      const response = await call(token, scheduleHistoryId);
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
    }
    const anonymous = await api.call('GET', `/api/get-short-result?schedule_history_id=${scheduleHistoryId}`);
    expect(anonymous.status).toBe(401);
    expect(errorOf(anonymous).code).toBe('NOT_LOGGED_IN');
    const bad = await api.call('GET', '/api/get-short-result?schedule_history_id=abc', { token });
    expect(errorOf(bad).code).toBe('VALIDATION_ERROR');
  });

  test('a sitting not taken yet is EXAM_NOT_STARTED; a cancelled one ER_SCHEDULE_HISTORY_CANCELLED', async () => {
    const pupil = await addSitting(api.db, { isMyPageLogin: true });
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
    expect(errorOf(await shortResult(token, scheduleHistoryId)).code).toBe('EXAM_NOT_STARTED');
    await api.db.update(scheduleHistories).set({ status: ScheduleHistoryStatus.CANCELED_PENDING }).where(eq(scheduleHistories.id, scheduleHistoryId));
    expect(errorOf(await shortResult(token, scheduleHistoryId)).code).toBe('ER_SCHEDULE_HISTORY_CANCELLED');
  });

  test('the testing menu says released only when the shared rule does: scored and a week old', async () => {
    const { pupil, scheduleHistoryId, finishedAt } = await finishedPupil(new Set([1, 2]));
    api.clock.set(new Date(finishedAt.getTime() + RESULT_RELEASE_MS));
    const token = await relogin(pupil.loginCode);
    const menu = async () => (await api.call('GET', '/api/get-status-choose-page', { token })).body as { result: { released: boolean } };
    // A week has passed but nothing has scored it yet.
    expect((await menu()).result.released).toBe(false);
    await runDueJobs(api.db, api.clock);
    expect((await historyRow(api.db, scheduleHistoryId)).status).toBe(ScheduleHistoryStatus.RESULT_PUBLIC);
    expect((await menu()).result.released).toBe(true);
  });
});

describe('result helpers', () => {
  test('age at the exam date counts whole years', () => {
    expect(ageAt('2016-06-02', new Date('2026-06-01T09:00:00Z'))).toBe(9);
    expect(ageAt('2016-06-01', new Date('2026-06-01T09:00:00Z'))).toBe(10);
    expect(ageAt('not a date', new Date())).toBeNull();
  });
  test('rating: A from 90 %, B from 75 %, C passed, D not passed', () => {
    expect(ratingOf(90, true)).toBe('A');
    expect(ratingOf(89.9, true)).toBe('B');
    expect(ratingOf(60, true)).toBe('C');
    expect(ratingOf(95, false)).toBe('D');
  });
  test('answers are displayed with their labels', () => {
    const question = {
      type: 'ordering',
      choices: [],
      blocks: [
        { id: 'x', label: 'when flag clicked', category: 'event' },
        { id: 'y', label: 'move 10 steps', category: 'motion' },
      ],
    } as unknown as Parameters<typeof displayAnswer>[0];
    expect(displayAnswer(question, 'x,y')).toBe('when flag clicked → move 10 steps');
    const choice = { type: 'single_choice', choices: [{ id: 'b', label: 'a cat' }], blocks: [] } as unknown as Parameters<typeof displayAnswer>[0];
    expect(displayAnswer(choice, 'b')).toBe('a cat');
  });
});

describe('POST /api/test/clock (GRADUS_CLOCK_CONTROL=1 only)', () => {
  describe('when enabled', () => {
    const api = useApi('pglite', { clockControl: true });
    test('moves the server clock and runs the due jobs: a finished exam is released a week later', async () => {
      const pupil = await addSitting(api.db, { isMyPageLogin: true });
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } });
      const before = api.clock.now().getTime();
      const response = await api.call('POST', '/api/test/clock', { body: { advance_ms: RESULT_RELEASE_MS } });
      expect(response.status).toBe(200);
      const body = response.body as { server_time: string; jobs_ran: number; jobs_failed: number };
      expect(Date.parse(body.server_time)).toBe(before + RESULT_RELEASE_MS);
      expect(body.jobs_ran).toBeGreaterThan(0);
      expect((await historyRow(api.db, scheduleHistoryId)).status).toBe(ScheduleHistoryStatus.RESULT_PUBLIC);
      const set = await api.call('POST', '/api/test/clock', { body: { set: '2027-01-01T00:00:00.000Z' } });
      expect((set.body as { server_time: string }).server_time).toBe('2027-01-01T00:00:00.000Z');
      expect(errorOf(await api.call('POST', '/api/test/clock', { body: { advance_ms: -5 } })).code).toBe('VALIDATION_ERROR');
    });
  });
  describe('by default', () => {
    const api = useApi('pglite');
    test('is an ordinary 404 and moves nothing', async () => {
      const before = api.clock.now().toISOString();
      const response = await api.call('POST', '/api/test/clock', { body: { advance_ms: 1000 } });
      expect(response.status).toBe(404);
      expect(api.clock.now().toISOString()).toBe(before);
    });
  });
  test('the variable is read from the environment, off unless set to 1', async () => {
    const { configFromEnv } = await import('../../server/config.ts');
    expect(configFromEnv({}).clockControl).toBe(false);
    expect(configFromEnv({ GRADUS_CLOCK_CONTROL: '1' }).clockControl).toBe(true);
    expect(() => configFromEnv({ GRADUS_CLOCK_CONTROL: 'yes' })).toThrow(/GRADUS_CLOCK_CONTROL/);
  });
  test('an offset clock follows real time from where it was moved', async () => {
    const { createOffsetClock } = await import('../../server/clock.ts');
    let real = Date.parse('2026-01-01T00:00:00Z');
    const clock = createOffsetClock({ now: () => new Date(real) });
    clock.advance(RESULT_RELEASE_MS);
    real += 1000;
    expect(clock.now().getTime()).toBe(Date.parse('2026-01-01T00:00:00Z') + RESULT_RELEASE_MS + 1000);
    clock.set('2030-01-01T00:00:00Z');
    real += 5000;
    expect(clock.now().toISOString()).toBe('2030-01-01T00:00:05.000Z');
  });
});
