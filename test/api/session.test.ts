/**
 * Basic information (POST /api/save-examinee-info: required fields and a valid email, registered
 * once and never changed) and the testing menu (GET /api/get-status-choose-page: exam fee, exam,
 * result release one week after the exam, result payments).
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { ChoosePageStatusSchema } from '../../contract/results.ts';
import { SaveExamineeInfoResponseSchema } from '../../contract/session.ts';
import { examinees, paymentItems, payments, purchases, scheduleHistories, type PaymentKind } from '../../server/db/schema.ts';
import { issueToken } from '../../server/domain/tokens.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const WEEK = 604_800_000;

describe.each(kinds)('basic information and the testing menu on %s', (kind) => {
  const api = useApi(kind);
  const save = (token: string, body: unknown) => api.call('POST', '/api/save-examinee-info', { token, body });
  const menu = async (token: string, query = '') => {
    const response = await api.call('GET', `/api/get-status-choose-page${query}`, { token });
    expect(response.status).toBe(200);
    return v.parse(ChoosePageStatusSchema, response.body);
  };
  const info = { examinee_name: 'Aiko Tanaka', grade_id: 99, email: 'aiko@example.org' };

  /** A checkout of the given items in the given status (what server/domain/payments writes). */
  let checkouts = 0;
  const checkout = async (scheduleHistoryId: number, kinds: PaymentKind[], status: 0 | 1 | 2) => {
    const [row] = await api.db
      .insert(payments)
      .values({
        reference: `TEST-${scheduleHistoryId}-${++checkouts}`,
        scheduleHistoryId,
        purpose: kinds.includes('exam_fee') ? 'exam_fee' : 'result_fee',
        status,
        outcome: status === 0 ? 'open' : 'authorised',
        amountMinor: 500 * kinds.length,
        provider: 'demo',
        expiresAt: new Date(api.clock.now().getTime() + 3_600_000),
      })
      .returning({ id: payments.id });
    for (const kind of kinds) await api.db.insert(paymentItems).values({ paymentId: row!.id, kind, unitPriceMinor: 500, totalMinor: 500 });
    return row!.id;
  };

  describe('POST /api/save-examinee-info', () => {
    test('registers name, grade and email, and answers with the session info', async () => {
      const pupil = await addSitting(api.db, { isMyPageLogin: true });
      const { token } = await api.loginAs(pupil.loginCode);
      const response = await save(token, { ...info, examinee_name: '  Aiko Tanaka ', email: ' aiko@example.org' });
      expect(response.status).toBe(200);
      const body = v.parse(SaveExamineeInfoResponseSchema, response.body);
      expect(body.examinee).toMatchObject({ examinee_name: 'Aiko Tanaka', grade_id: 99, email: 'aiko@example.org', is_my_page_login: true });
      const [row] = await api.db.select().from(examinees).where(eq(examinees.id, pupil.examineeId));
      expect(row?.basicInfoRegisteredAt?.toISOString()).toBe(TEST_START);
    });

    test('cannot be changed afterwards: a second save is 422 ER_DUP_ENTRY and changes nothing', async () => {
      const pupil = await addSitting(api.db);
      const { token } = await api.loginAs(pupil.loginCode);
      expect((await save(token, info)).status).toBe(200);
      const before = await snapshotTables(api.db);
      const again = await save(token, { examinee_name: 'Someone Else', grade_id: 3, email: 'else@example.org' });
      expect(again.status).toBe(422);
      expect(errorOf(again).code).toBe('ER_DUP_ENTRY');
      expect(await snapshotTables(api.db)).toEqual(before);
      // A new login does not reopen it.
      const second = await api.loginAs(pupil.loginCode);
      expect(errorOf(await save(second.token, info)).code).toBe('ER_DUP_ENTRY');
    });

    test('two saves at once: exactly one registers', async () => {
      const pupil = await addSitting(api.db);
      const { token } = await api.loginAs(pupil.loginCode);
      const responses = await Promise.all([save(token, info), save(token, { ...info, examinee_name: 'Other Name' })]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 422]);
    });

    test.each([
      ['no fields', {}, [
        { field: 'examinee_name', rule: 'required' },
        { field: 'grade_id', rule: 'required' },
        { field: 'email', rule: 'required' },
      ]],
      ['a blank name', { ...info, examinee_name: '   ' }, [{ field: 'examinee_name', rule: 'required' }]],
      ['an email without @', { ...info, email: 'aiko.example.org' }, [{ field: 'email', rule: 'invalid' }]],
      ['an email with spaces inside', { ...info, email: 'ai ko@example.org' }, [{ field: 'email', rule: 'invalid' }]],
      ['grade 13', { ...info, grade_id: 13 }, [{ field: 'grade_id', rule: 'invalid' }]],
      ['grade as a string', { ...info, grade_id: '4' }, [{ field: 'grade_id', rule: 'invalid' }]],
      ['a name of 101 characters', { ...info, examinee_name: 'x'.repeat(101) }, [{ field: 'examinee_name', rule: 'invalid' }]],
    ])('%s is 422 VALIDATION_ERROR naming the fields, and changes nothing', async (_, body, issues) => {
      const pupil = await addSitting(api.db);
      const { token } = await api.loginAs(pupil.loginCode);
      const before = await snapshotTables(api.db);
      const response = await save(token, body);
      expect(response.status).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'VALIDATION_ERROR', issues });
      expect(await snapshotTables(api.db)).toEqual(before);
    });
  });

  describe('GET /api/get-status-choose-page', () => {
    test('a school pupil: no fee to pay, the exam can be taken, no result yet', async () => {
      const pupil = await addSitting(api.db);
      const { token } = await api.loginAs(pupil.loginCode);
      expect(await menu(token)).toEqual({
        exam_fee: { required: false, status: 0, application_mode: 1 },
        exam: { schedule_history_id: pupil.scheduleHistoryId, status: 0, can_take: true },
        result: { released: false, expired: false, payment_status: 0, release_at: null },
        server_time: TEST_START,
      });
    });

    test('a foreign-payment pupil: the exam can be taken once the fee is paid', async () => {
      const pupil = await addSitting(api.db, { organization: { foreignPaymentMethod: true, category: 'FOREIGN' } });
      const { token } = await api.loginAs(pupil.loginCode);
      expect((await menu(token)).exam_fee).toEqual({ required: true, status: 0, application_mode: 1 });
      expect((await menu(token)).exam.can_take).toBe(false);
      const paymentId = await checkout(pupil.scheduleHistoryId, ['exam_fee'], 1);
      expect(await menu(token)).toMatchObject({ exam_fee: { required: true, status: 1 }, exam: { can_take: false } });
      await api.db.insert(purchases).values({ scheduleHistoryId: pupil.scheduleHistoryId, kind: 'exam_fee', paymentId, paidAt: api.clock.now() });
      expect(await menu(token)).toMatchObject({ exam_fee: { required: true, status: 2 }, exam: { can_take: true } });
    });

    test('results are released one week after the exam; result payments: none, part, all', async () => {
      const pupil = await addSitting(api.db, { isMyPageLogin: true });
      const started = await api.startAs(pupil.loginCode);
      const { scheduleHistoryId } = started;
      expect((await api.call('POST', '/api/exam/finish', { token: started.token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
      const [row] = await api.db.select().from(scheduleHistories).where(eq(scheduleHistories.id, scheduleHistoryId));
      const finishedAt = row!.finishedAt!.getTime();
      // A token that lives long enough to look a week later (logging in again to see results is a later issue).
      const token = await issueToken(api.db, { examineeId: pupil.examineeId, scheduleHistoryId, now: api.clock.now(), ttlMs: 2 * WEEK });

      expect(await menu(token)).toMatchObject({
        exam: { status: ScheduleHistoryStatus.COMPLETED, can_take: false },
        // The menu says when: one week after the exam.
        result: { released: false, payment_status: 0, release_at: new Date(finishedAt + WEEK).toISOString() },
      });
      api.clock.set(new Date(finishedAt + WEEK - 1));
      expect((await menu(token)).result.released).toBe(false);
      api.clock.set(new Date(finishedAt + WEEK));
      // Released when scored too (the shared rule, machines/schedule-history): the jobs score it.
      expect((await menu(token)).result.released).toBe(false);
      await runDueJobs(api.db, api.clock);
      expect((await menu(token)).result.released).toBe(true);

      const pay = async (kind: 'result_sheet' | 'certificate') => {
        const paymentId = await checkout(scheduleHistoryId, [kind], 2);
        await api.db.insert(purchases).values({ scheduleHistoryId, kind, paymentId, paidAt: api.clock.now() });
      };
      await pay('result_sheet');
      expect((await menu(token)).result.payment_status).toBe(2);
      await pay('certificate');
      expect((await menu(token)).result.payment_status).toBe(1);
    });

    test('another pupil\'s sitting is 404 NOT_FOUND', async () => {
      const pupil = await addSitting(api.db);
      const stranger = await addSitting(api.db);
      const { token } = await api.loginAs(pupil.loginCode);
      const response = await api.call('GET', `/api/get-status-choose-page?schedule_history_id=${stranger.scheduleHistoryId}`, { token });
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
      expect((await menu(token, `?schedule_history_id=${pupil.scheduleHistoryId}`)).exam.schedule_history_id).toBe(pupil.scheduleHistoryId);
    });
  });
});
