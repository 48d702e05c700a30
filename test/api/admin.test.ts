/**
 * The administrator's reset (retake), through server/admin.ts's resetAccount and runAdmin:
 * the schedule history goes back to PENDING with flag_retake, its answers move to the archive,
 * every token is revoked, and the pupil's next call is 401 ER_SCHEDULE_HISTORY_RETAKE; after a
 * new login the exam starts afresh. Unknown accounts are refused.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { resetAccount, runAdmin } from '../../server/admin.ts';
import { ApplicationMode, DisplayFlag, ScheduleHistoryStatus } from '../../contract/enums.ts';
import { answerArchive, answers, organizations, resultUnits, results, schedules } from '../../server/db/schema.ts';
import { applicationModeWords, rankDisplayWords, setApplicationMode, setRankDisplay } from '../../server/domain/school-settings.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('administrator reset on %s', (kind) => {
  const api = useApi(kind);

  test('puts a DOING exam back to PENDING with flag_retake, archives its answers and logs the pupil out', async () => {
    const pupil = await addSitting(api.db, { password: 'secret-pass-1' });
    const { token, scheduleHistoryId: id } = await api.startAs(pupil.loginCode);
    const [q1] = await answerKey(api.db, pupil.examId);
    const saved = await api.call('POST', '/api/exam/answers', { token, body: api.answer(id, q1!.id, String(q1!.correctAnswer)) });
    expect(saved.status).toBe(201);

    const result = await resetAccount(api.db, pupil.loginId!, api.clock.now());
    expect(result).toMatchObject({ ok: true, scheduleHistoryId: id, previousStatus: 6, archivedAnswers: 1 });
    expect(result.ok && result.revokedTokens).toBeGreaterThanOrEqual(1);

    const row = await historyRow(api.db, id);
    expect(row).toMatchObject({ status: 0, flagRetake: true, startedAt: null, deadlineAt: null, deviceToken: null });
    expect(await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id))).toEqual([]);
    const archived = await api.db.select().from(answerArchive).where(eq(answerArchive.scheduleHistoryId, id));
    expect(archived.map((a) => a.value)).toEqual([String(q1!.correctAnswer)]);

    const next = await api.call('GET', `/api/exam/questions?schedule_history_id=${id}`, { token });
    expect(next.status).toBe(401);
    expect(errorOf(next).code).toBe('ER_SCHEDULE_HISTORY_RETAKE');

    // Logging in again starts the exam afresh, with a new deadline and no answers.
    const again = await api.startAs(pupil.loginCode);
    const questions = await api.call('GET', `/api/exam/questions?schedule_history_id=${id}`, { token: again.token });
    expect(questions.status).toBe(200);
    expect((questions.body as { answers: unknown[] }).answers).toEqual([]);
  });

  test('a token revoked by logout stays NOT_LOGGED_IN', async () => {
    const pupil = await addSitting(api.db);
    const { token } = await api.loginAs(pupil.loginCode);
    expect((await api.call('POST', '/api/logout', { token })).status).toBe(200);
    const after = await api.call('GET', '/api/me', { token });
    expect(errorOf(after).code).toBe('NOT_LOGGED_IN');
  });

  test('resets a scored exam (the result goes with it) but never a result already public', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId: id } = await api.startAs(pupil.loginCode);
    await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: id } });
    await runDueJobs(api.db, api.clock);
    expect((await historyRow(api.db, id)).status).toBe(ScheduleHistoryStatus.SCORING_COMPLETED);
    expect(await api.db.select().from(results).where(eq(results.scheduleHistoryId, id))).toHaveLength(1);

    const reset = await resetAccount(api.db, pupil.loginCode, api.clock.now());
    expect(reset).toMatchObject({ ok: true, scheduleHistoryId: id, previousStatus: ScheduleHistoryStatus.SCORING_COMPLETED });
    expect(await historyRow(api.db, id)).toMatchObject({ status: ScheduleHistoryStatus.PENDING, flagRetake: true, finishedAt: null });
    expect(await api.db.select().from(results).where(eq(results.scheduleHistoryId, id))).toEqual([]);
    expect(await api.db.select().from(resultUnits).where(eq(resultUnits.scheduleHistoryId, id))).toEqual([]);
    // The scoring job left over from before finds nothing to score.
    await runDueJobs(api.db, api.clock);
    expect((await historyRow(api.db, id)).status).toBe(ScheduleHistoryStatus.PENDING);

    const published = await addSitting(api.db, { status: ScheduleHistoryStatus.RESULT_PUBLIC });
    expect(await resetAccount(api.db, published.loginCode, api.clock.now())).toMatchObject({ ok: false, reason: 'nothing-to-reset' });
    expect((await historyRow(api.db, published.scheduleHistoryId)).status).toBe(ScheduleHistoryStatus.RESULT_PUBLIC);
  });

  test('refuses an unknown account and one with nothing started', async () => {
    expect(await resetAccount(api.db, 'no-such-account-xyz', api.clock.now())).toMatchObject({ ok: false, reason: 'unknown-account' });
    const pupil = await addSitting(api.db);
    expect(await resetAccount(api.db, pupil.loginCode, api.clock.now())).toMatchObject({ ok: false, reason: 'nothing-to-reset' });
    expect((await historyRow(api.db, pupil.scheduleHistoryId)).flagRetake).toBe(false);
  });
});

describe('the admin command line', () => {
  test('prints its usage and exits 2 without a command', async () => {
    const err: string[] = [];
    expect(await runAdmin([], { out: () => {}, err: (l) => err.push(l) })).toBe(2);
    expect(err.join('\n')).toMatch(/npm run admin -- reset/);
    expect(err.join('\n')).toMatch(/npm run admin -- rank-display <organisation code> show\|hide/);
  });

  test.each([
    ['rank-display', 'GRADUS-DEMO', 'maybe'],
    ['rank-display', 'GRADUS-DEMO'],
    ['application-mode', 'ABROAD-GROUP', 'solo'],
    ['application-mode', 'ABROAD-GROUP', 'group', 'extra'],
    ['reset', 'ABCD-EFGH-JKLM', 'extra'],
  ])('refuses %j with the usage and exit code 2, opening no database', async (...args) => {
    const err: string[] = [];
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    expect(await runAdmin(args, { out: () => {}, err: (l) => err.push(l), env })).toBe(2);
    expect(err.join('\n')).toMatch(/^Usage: npm run admin/);
  });
});

describe.each(kinds)('school settings (seed section 3) on %s', (kind) => {
  const api = useApi(kind);

  test('rank-display hide / show sets the organisation\'s flag to 3 / 1 and says what it was', async () => {
    const pupil = await addSitting(api.db, { organization: {} });
    const [org] = await api.db.select().from(organizations).where(eq(organizations.id, pupil.organizationId));
    expect(await setRankDisplay(api.db, org!.code, rankDisplayWords.hide)).toEqual({ ok: true, id: org!.id, previous: DisplayFlag.DISPLAY });
    const flag = async () => (await api.db.select().from(organizations).where(eq(organizations.id, org!.id)))[0]?.rankDisplayFlag;
    expect(await flag()).toBe(DisplayFlag.HIDE);
    expect(await setRankDisplay(api.db, org!.code, rankDisplayWords.show)).toEqual({ ok: true, id: org!.id, previous: DisplayFlag.HIDE });
    expect(await flag()).toBe(DisplayFlag.DISPLAY);
  });

  test('application-mode group / personal sets the test period\'s mode to 2 / 1; the menu follows at once', async () => {
    const pupil = await addSitting(api.db, { isMyPageLogin: true, organization: {} });
    const [schedule] = await api.db.select().from(schedules).where(eq(schedules.organizationId, pupil.organizationId));
    expect(await setApplicationMode(api.db, schedule!.scheduleCode, applicationModeWords.group)).toEqual({
      ok: true,
      id: schedule!.id,
      previous: ApplicationMode.PERSONAL,
    });
    const { token } = await api.loginAs(pupil.loginCode);
    const menu = async () => (await api.call('GET', '/api/get-status-choose-page', { token })).body as { exam_fee: { application_mode?: number } };
    expect((await menu()).exam_fee.application_mode).toBe(ApplicationMode.GROUP);
    expect(await setApplicationMode(api.db, schedule!.scheduleCode, applicationModeWords.personal)).toMatchObject({ ok: true, previous: ApplicationMode.GROUP });
    expect((await menu()).exam_fee.application_mode).toBe(ApplicationMode.PERSONAL);
  });

  test('an unknown code changes nothing and says so', async () => {
    expect(await setRankDisplay(api.db, 'NO-SUCH-SCHOOL', rankDisplayWords.hide)).toEqual({ ok: false, message: 'No organisation with the code "NO-SUCH-SCHOOL".' });
    expect(await setApplicationMode(api.db, 'NO-SUCH-PERIOD', applicationModeWords.group)).toEqual({
      ok: false,
      message: 'No test period with the schedule code "NO-SUCH-PERIOD".',
    });
  });
});
