/**
 * The answer-save path, measured (`npm run bench`), never asserted on time in tests.
 * - server: POST /api/exam/answers through the Hono app on an in-memory PGlite, each call a
 *   new answer revision (insert-or-replace, idempotency check, deadline check);
 * - client: the exam machine taking `answer.given` and the server's acknowledgement (the
 *   work the browser does per answer besides the network).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createActor } from 'xstate';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { createApp } from '../../server/app.ts';
import { createFakeClock } from '../../server/clock.ts';
import { ExamQuestionsSchema, StartExamResponseSchema } from '../../contract/exam.ts';
import { LoginResponseSchema } from '../../contract/session.ts';
import * as v from 'valibot';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { demoExaminee, demoQuestions } from '../helpers/fake-api.ts';
import { never } from '../helpers/never.ts';
import demoAccounts from '../../server/seed/demo-accounts.json' with { type: 'json' };

describe('server: save one answer', () => {
  let database: TestDatabase;
  let request: (body: unknown) => Promise<Response>;
  let body: () => unknown;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const clock = createFakeClock('2026-06-01T09:00:00.000Z');
    const app = createApp({ db: database.db, clock, logger: { info: () => {}, error: () => {} } });
    const account = (demoAccounts as Array<{ login_code: string; purpose?: string; scenario?: string }>)[0]!;
    const json = { 'content-type': 'application/json' };
    const login = v.parse(LoginResponseSchema, await (await app.request('/api/login', {
      method: 'POST', headers: json, body: JSON.stringify({ login_type: 0, login_code: account.login_code }),
    })).json());
    const auth = { ...json, authorization: `Bearer ${login.access_token}` };
    const id = login.examinee.schedule_history_id;
    v.parse(StartExamResponseSchema, await (await app.request('/api/exam/start', {
      method: 'POST', headers: auth, body: JSON.stringify({ schedule_history_id: id }),
    })).json());
    const questions = v.parse(ExamQuestionsSchema, await (await app.request(`/api/exam/questions?schedule_history_id=${id}`, { headers: auth })).json());
    const text = questions.questions.find((q) => q.type === 'text')!;
    body = () => ({
      schedule_history_id: id,
      question_id: text.id,
      value: 'cold',
      idempotency_key: randomUUID(),
      answered_at: clock.now().toISOString(),
    });
    request = (payload) => app.request('/api/exam/answers', { method: 'POST', headers: auth, body: JSON.stringify(payload) }) as Promise<Response>;
  });
  afterAll(async () => {
    await database.close();
  });

  test('POST /api/exam/answers', async ({ bench }) => {
    await bench('POST /api/exam/answers (new revision)', async () => {
      const response = await request(body());
      if (response.status >= 300) throw new Error(`save failed: ${response.status} ${await response.text()}`);
    }).run();
  });

  // The floor, in the same run and on the same PGlite: a bare Hono route that parses the same
  // body and stores it with one upsert, no rules. Compare the two rows' hz, not the absolute figures.
  test('floor: a bare Hono route with one upsert', async ({ bench }) => {
    await database.db.execute(sql`create table if not exists bench_floor (key text primary key, question_id int not null, value text not null, answered_at timestamptz not null)`);
    const bare = new Hono().post('/answers', async (c) => {
      const b = (await c.req.json()) as { question_id: number; value: string; idempotency_key: string; answered_at: string };
      await database.db.execute(
        sql`insert into bench_floor values (${b.idempotency_key}, ${b.question_id}, ${b.value}, ${b.answered_at}) on conflict (key) do update set value = excluded.value returning key`,
      );
      return c.json({ ok: true }, 201);
    });
    await bench('floor: bare Hono + one PGlite upsert', async () => {
      const response = await bare.request('/answers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body()) });
      if (response.status !== 201) throw new Error(`floor failed: ${response.status}`);
    }).run();
  });
});

describe('client: the exam machine takes an answer and its acknowledgement', () => {
  const machine = examMachine.provide({
    actors: { loadExamDetails: never(), startExam: never(), loadQuestions: never(), storeAnswer: never(), saveAnswer: never(), flushAnswers: never(), finishExam: never() },
    actions: { reportProgress: () => {}, reportCompleted: () => {}, requestLogout: () => {}, reportUnauthorized: () => {} },
  });
  const session = sessionFromLogin({ access_token: 't', examinee: demoExaminee, server_time: '2026-06-01T09:00:00.000Z' }, randomUUID());
  const actor = createActor(machine, { input: { session } }).start();
  const now = new Date().toISOString();
  actor.send({ type: 'INIT_TEST' });
  // Loading runs in the retry machine: its output wraps the details.
  actor.send({ type: 'xstate.done.actor.loadExamDetails', output: { ok: true, value: {
    schedule_history_id: 7, examinee_name: 'A', subject: { id: 1, name: 'E' }, level: { id: 1, name: 'L' },
    exam: { id: 1, title: 'E', question_count: 3, time_limit_seconds: 2400 }, status: 6, started_at: now,
    deadline_at: new Date(Date.now() + 2_400_000).toISOString(), server_time: now,
  } } } as never);
  actor.send({ type: 'xstate.done.actor.loadQuestions', output: { ok: true, value: {
    questions: demoQuestions, answers: [], unsent: [], deadline_at: new Date(Date.now() + 2_400_000).toISOString(), server_time: now,
  } } } as never);

  test('answer.given, written to the outbox, and its acknowledgement', async ({ bench }) => {
    await bench('answer.given then xstate.done.actor.storeAnswer then xstate.done.actor.saveAnswer', () => {
      actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
      const key = actor.getSnapshot().context.answers[102]!.key;
      actor.send({ type: 'xstate.done.actor.storeAnswer', output: key } as never);
      if (actor.getSnapshot().context.answers[102]!.status !== 'local') throw new Error('answer not in the outbox');
      actor.send({ type: 'xstate.done.actor.saveAnswer', output: { key, serverTime: now } } as never);
      if (actor.getSnapshot().context.answers[102]!.status !== 'saved') throw new Error('answer not marked saved');
    }).run();
  });
});
