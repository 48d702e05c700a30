/**
 * POST /api/exam/heartbeat (contract/presence.ts): a terminal in the exam records its last
 * contact and the question on screen, and learns the current deadline; it is refused exactly
 * like the other exam calls (no login, another terminal, not started, past the deadline,
 * finished, reset, maintenance, someone else's sitting); bad input changes nothing.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { HeartbeatResponseSchema } from '../../contract/presence.ts';
import { scheduleHistories } from '../../server/db/schema.ts';
import { issueToken } from '../../server/domain/tokens.ts';
import { resetAccount } from '../../server/admin.ts';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiResponse } from '../helpers/server-api.ts';
import { addSitting, historyRow, snapshotTables } from '../helpers/server-fixtures.ts';
import { terminal } from '../helpers/admin-api.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('heartbeat on %s', (kind) => {
  const api = useApi(kind);

  test('records the last contact and the question on screen, and answers the current deadline', async () => {
    const pupil = await addSitting(api.db);
    const lab = terminal(api);
    const sitting = await lab.sit(pupil.loginCode);
    api.clock.advance(12_000);
    const response = await lab.heartbeat(sitting.token, sitting.scheduleHistoryId, 7);
    expect(response.status).toBe(200);
    expect(v.parse(HeartbeatResponseSchema, response.body)).toEqual({
      status: S.DOING,
      deadline_at: sitting.deadlineAt,
      server_time: api.clock.now().toISOString(),
    });
    expect(await historyRow(api.db, sitting.scheduleHistoryId)).toMatchObject({ lastContactAt: api.clock.now(), questionIndex: 7 });
  });

  test('is refused like the other exam calls', async () => {
    const lab = terminal(api);
    const pending = await addSitting(api.db);
    const pendingLogin = await lab.login(pending.loginCode);
    expect(errorOf(await lab.heartbeat(pendingLogin.token, pendingLogin.scheduleHistoryId)).code).toBe('EXAM_NOT_STARTED');

    const pupil = await addSitting(api.db, { password: 'secret-pass-1' });
    const sitting = await lab.sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    const cases: [Promise<ApiResponse>, number, string][] = [
      [api.call('POST', '/api/exam/heartbeat', { body: { schedule_history_id: id, question_index: 0, visible: true } }), 401, 'NOT_LOGGED_IN'],
      [terminal(api, 'another-terminal-1').heartbeat(sitting.token, id), 403, 'INCORRECT_DEVICE'],
      [api.call('POST', '/api/exam/heartbeat', { token: sitting.token, body: { schedule_history_id: id, question_index: 0, visible: true } }), 403, 'INCORRECT_DEVICE'],
      [lab.heartbeat(sitting.token, pending.scheduleHistoryId), 404, 'NOT_FOUND'],
    ];
    for (const [call, status, code] of cases) {
      const response = await call;
      expect(response.status, code).toBe(status);
      expect(errorOf(response).code).toBe(code);
    }

    api.clock.set(new Date(new Date(sitting.deadlineAt).getTime() + 1000));
    const late = await lab.heartbeat(sitting.token, id);
    expect(late.status).toBe(403);
    expect(errorOf(late).code).toBe('TIME_END');

    api.clock.set(new Date(new Date(sitting.deadlineAt).getTime() - 1000));
    expect((await lab.call('POST', '/api/exam/finish', sitting.token, { schedule_history_id: id })).status).toBe(200);
    expect(errorOf(await lab.heartbeat(sitting.token, id)).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');

    expect(await resetAccount(api.db, pupil.loginCode, api.clock.now())).toMatchObject({ ok: true });
    const reset = await lab.heartbeat(sitting.token, id);
    expect(reset.status).toBe(401);
    expect(errorOf(reset).code).toBe('ER_SCHEDULE_HISTORY_RETAKE');
  });

  test('bad input is a VALIDATION_ERROR naming the field, and writes nothing', async () => {
    const pupil = await addSitting(api.db);
    const lab = terminal(api);
    const sitting = await lab.sit(pupil.loginCode);
    const id = sitting.scheduleHistoryId;
    const before = await snapshotTables(api.db);
    const cases: [unknown, string][] = [
      [{ question_index: 0, visible: true }, 'schedule_history_id'],
      [{ schedule_history_id: 0, question_index: 0, visible: true }, 'schedule_history_id'],
      [{ schedule_history_id: id, question_index: -1, visible: true }, 'question_index'],
      [{ schedule_history_id: id, question_index: 1000, visible: true }, 'question_index'],
      [{ schedule_history_id: id, question_index: 1.5, visible: true }, 'question_index'],
      [{ schedule_history_id: id, question_index: 0 }, 'visible'],
      [{ schedule_history_id: id, question_index: 0, visible: 'yes' }, 'visible'],
    ];
    for (const [body, field] of cases) {
      const response = await lab.call('POST', '/api/exam/heartbeat', sitting.token, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(errorOf(response).issues?.map((i) => i.field)).toEqual([field]);
    }
    expect(await snapshotTables(api.db)).toEqual(before);
  });
});

describe.each(kinds)('heartbeat during maintenance on %s', (kind) => {
  const api = useApi(kind, { maintenance: true });

  test('is refused 401 DURING_MAINTENANCE', async () => {
    const pupil = await addSitting(api.db);
    const now = api.clock.now();
    await api.db
      .update(scheduleHistories)
      .set({ status: S.DOING, startedAt: now, deadlineAt: new Date(now.getTime() + 2_400_000) })
      .where(eq(scheduleHistories.id, pupil.scheduleHistoryId));
    const token = await issueToken(api.db, { examineeId: pupil.examineeId, scheduleHistoryId: pupil.scheduleHistoryId, now, ttlMs: 3_600_000 });
    const response = await terminal(api).heartbeat(token, pupil.scheduleHistoryId);
    expect(response.status).toBe(401);
    expect(errorOf(response).code).toBe('DURING_MAINTENANCE');
  });
});
