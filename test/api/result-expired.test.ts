/**
 * The testing menu's status and the result calls agree about a result past its two years (seed
 * section 9), on PGlite and PostgreSQL: GET /api/get-status-choose-page says `released: true,
 * expired: true` exactly when GET /api/get-short-result answers RESULT_VIEW_EXPIRED, and
 * `released: true, expired: false` while the result can be viewed.
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ChoosePageStatusSchema } from '../../contract/results.ts';
import { RESULT_RELEASE_MS } from '../../machines/schedule-history/schedule-history.machine.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('a released result past its two years on %s', (kind) => {
  const api = useApi(kind);

  test('the menu says expired (not "waiting") where the result calls say RESULT_VIEW_EXPIRED', { timeout: 60_000 }, async () => {
    const pupil = await addSitting(api.db, { isMyPageLogin: true });
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    for (const q of await answerKey(api.db, pupil.examId)) {
      expect((await api.call('POST', '/api/exam/answers', { token, body: api.answer(scheduleHistoryId, q.id, q.correctAnswer) })).status).toBe(201);
    }
    expect((await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
    const finishedAt = (await historyRow(api.db, scheduleHistoryId)).finishedAt!;

    const at = async (instant: Date) => {
      api.clock.set(instant);
      await runDueJobs(api.db, api.clock);
      const { token: now } = await api.loginAs(pupil.loginCode);
      const menu = await api.call('GET', `/api/get-status-choose-page?schedule_history_id=${scheduleHistoryId}`, { token: now });
      expect(menu.status).toBe(200);
      const short = await api.call('GET', `/api/get-short-result?schedule_history_id=${scheduleHistoryId}`, { token: now });
      return { result: v.parse(ChoosePageStatusSchema, menu.body).result, short };
    };

    const week = await at(new Date(finishedAt.getTime() + RESULT_RELEASE_MS));
    expect(week.result).toMatchObject({ released: true, expired: false });
    expect(week.short.status).toBe(200);

    const twoYears = new Date(finishedAt);
    twoYears.setUTCFullYear(twoYears.getUTCFullYear() + 2);
    const late = await at(new Date(twoYears.getTime() + 24 * 3600_000));
    expect(late.short.status).toBe(403);
    expect(errorOf(late.short).code).toBe('RESULT_VIEW_EXPIRED');
    expect(late.result).toMatchObject({ released: true, expired: true });
  });
});
