/**
 * POST /api/exam/focus-loss: the terminal's count of focus losses, stored for audit; bad input
 * is a VALIDATION_ERROR; another terminal is INCORRECT_DEVICE; another pupil's id is NOT_FOUND.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { focusLosses } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const DEVICE = { 'X-Device-Token': 'terminal-focus-0001' };

describe.each(kinds)('focus loss on %s', (kind) => {
  const api = useApi(kind);
  const report = (token: string, body: unknown, headers: Record<string, string> = DEVICE) =>
    api.call('POST', '/api/exam/focus-loss', { token, body, headers });

  async function started() {
    const pupil = await addSitting(api.db);
    const login = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode }, headers: DEVICE });
    const token = (login.body as { access_token: string }).access_token;
    const start = await api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: pupil.scheduleHistoryId }, headers: DEVICE });
    expect(start.status).toBe(200);
    return { token, id: pupil.scheduleHistoryId };
  }

  test('is stored with its count, time and terminal', async () => {
    const { token, id } = await started();
    const at = '2026-06-01T09:01:02.000Z';
    const response = await report(token, { schedule_history_id: id, count: 3, at });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true });
    const rows = await api.db.select().from(focusLosses).where(eq(focusLosses.scheduleHistoryId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ count: 3, deviceToken: DEVICE['X-Device-Token'] });
    expect(rows[0]!.at.toISOString()).toBe(at);
  });

  test.each([
    ['no body', undefined],
    ['a count of 0', { count: 0, at: '2026-06-01T09:00:00.000Z' }],
    ['a fractional count', { count: 1.5, at: '2026-06-01T09:00:00.000Z' }],
    ['a string count', { count: '2', at: '2026-06-01T09:00:00.000Z' }],
    ['no time', { count: 1 }],
    ['a time that is not ISO', { count: 1, at: 'yesterday' }],
  ])('%s is a VALIDATION_ERROR and stores nothing', async (_name, extra) => {
    const { token, id } = await started();
    const body = extra === undefined ? undefined : { schedule_history_id: id, ...extra };
    const response = await report(token, body);
    expect(response.status).toBe(422);
    expect(errorOf(response).code).toBe('VALIDATION_ERROR');
    expect(await api.db.select().from(focusLosses).where(eq(focusLosses.scheduleHistoryId, id))).toEqual([]);
  });

  test('without a login is NOT_LOGGED_IN; another terminal is INCORRECT_DEVICE; another pupil is NOT_FOUND', async () => {
    const { token, id } = await started();
    const other = await started();
    const body = { schedule_history_id: id, count: 1, at: '2026-06-01T09:00:00.000Z' };
    expect(errorOf(await api.call('POST', '/api/exam/focus-loss', { body })).code).toBe('NOT_LOGGED_IN');
    const wrongDevice = await report(token, body, { 'X-Device-Token': 'terminal-else-0009' });
    expect([wrongDevice.status, errorOf(wrongDevice).code]).toEqual([403, 'INCORRECT_DEVICE']);
    const foreign = await report(other.token, body);
    expect([foreign.status, errorOf(foreign).code]).toEqual([404, 'NOT_FOUND']);
  });
});
