/**
 * Device binding: Start binds the exam to the terminal's X-Device-Token; afterwards questions,
 * answers, finish and a login into the DOING exam from another token are 403 INCORRECT_DEVICE,
 * while the terminal that pressed Start keeps working.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { answers } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const RIGHT = { 'X-Device-Token': 'terminal-right-0001' };
const OTHER = { 'X-Device-Token': 'terminal-other-0002' };

describe.each(kinds)('device binding on %s', (kind) => {
  const api = useApi(kind);

  async function started() {
    const pupil = await addSitting(api.db);
    const login = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode }, headers: RIGHT });
    expect(login.status).toBe(200);
    const token = (login.body as { access_token: string }).access_token;
    const id = pupil.scheduleHistoryId;
    const start = await api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: id }, headers: RIGHT });
    expect(start.status).toBe(200);
    const [first] = await answerKey(api.db, pupil.examId);
    return { pupil, token, id, questionId: first!.id, value: String(first!.correctAnswer) };
  }

  test('Start records the terminal, which keeps working', async () => {
    const { token, id, questionId, value } = await started();
    expect((await historyRow(api.db, id)).deviceToken).toBe(RIGHT['X-Device-Token']);
    const q = await api.call('GET', `/api/exam/questions?schedule_history_id=${id}`, { token, headers: RIGHT });
    expect(q.status).toBe(200);
    const a = await api.call('POST', '/api/exam/answers', { token, body: api.answer(id, questionId, value), headers: RIGHT });
    expect(a.status).toBe(201);
    const f = await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: id }, headers: RIGHT });
    expect(f.status).toBe(200);
  });

  test('questions, answers, finish and Start again from another terminal are INCORRECT_DEVICE', async () => {
    const { token, id, questionId } = await started();
    const calls = [
      api.call('GET', `/api/exam/questions?schedule_history_id=${id}`, { token, headers: OTHER }),
      api.call('POST', '/api/exam/answers', { token, body: api.answer(id, questionId, 'stolen'), headers: OTHER }),
      api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: id }, headers: OTHER }),
      api.call('POST', '/api/exam/start', { token, body: { schedule_history_id: id }, headers: OTHER }),
      // No device token at all is another terminal too.
      api.call('GET', `/api/exam/questions?schedule_history_id=${id}`, { token }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('INCORRECT_DEVICE');
    }
    expect(await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, id))).toEqual([]);
    expect((await historyRow(api.db, id)).status).toBe(6);
  });

  test('a login into the DOING exam from another terminal is INCORRECT_DEVICE; from the same one it works', async () => {
    const { pupil } = await started();
    const other = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode }, headers: OTHER });
    expect(other.status).toBe(403);
    expect(errorOf(other).code).toBe('INCORRECT_DEVICE');
    const same = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode }, headers: RIGHT });
    expect(same.status).toBe(200);
  });

  test('before Start any terminal may log in and start', async () => {
    const pupil = await addSitting(api.db);
    const first = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode }, headers: RIGHT });
    const second = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode }, headers: OTHER });
    expect([first.status, second.status]).toEqual([200, 200]);
  });
});
