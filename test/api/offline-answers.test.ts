/**
 * Answers that were kept on a terminal while the network was down, through the client path:
 * the browser's API client (src/api/client.ts) over real HTTP to the API, the exam machine
 * with its real actors, and an outbox. The server's rules (server/domain/answers/) seen from
 * the pupil's side: an answer given before the deadline that arrives after it (within the
 * upload window) is accepted and flagged late; one given after the deadline is refused with
 * TIME_END, and Finish still completes without it.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SimulatedClock, createActor, waitFor } from 'xstate';
import { examImplementations } from '../../machines/exam/exam.actors.ts';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { createMemoryOutbox } from '../../machines/shared/memory-outbox.ts';
import { ApiFailure, type ApiPort } from '../../machines/shared/ports.ts';
import { answers } from '../../server/db/schema.ts';
import { createApiClient } from '../../src/api/client.ts';
import { useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const HOUR = 3_600_000;

describe('answers kept on a terminal while offline, sent through the client', () => {
  const api = useApi('pglite');
  let server: ReturnType<typeof serve> | undefined;
  let baseURL = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        baseURL = `http://127.0.0.1:${info.port}/api`;
        resolve();
      });
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  /** The browser's client, and a switch that cuts its answer calls like a dead network. */
  function terminal() {
    let token: string | null = null;
    const client = createApiClient({ baseURL, getToken: () => token, getLanguage: () => 'en', getDeviceToken: () => 'terminal-1' });
    const network = { up: true };
    const port: ApiPort = {
      ...client,
      saveAnswer: (body) => (network.up ? client.saveAnswer(body) : Promise.reject(new ApiFailure('NETWORK_ERROR'))),
    };
    return { client, port, network, setToken: (t: string) => void (token = t) };
  }

  function runExam(port: ApiPort, outbox: ReturnType<typeof createMemoryOutbox>, session: ReturnType<typeof sessionFromLogin>) {
    const clock = new SimulatedClock();
    const machine = examMachine.provide({
      ...examImplementations({ api: port, outbox }),
      actions: {
        ...examImplementations({ api: port, outbox }).actions,
        reportProgress: () => {},
        reportCompleted: () => {},
        reportFinishing: () => {}, reportMovedAway: () => {},
        requestLogout: () => {},
        reportUnauthorized: () => {},
      },
    });
    const actor = createActor(machine, { input: { session }, clock } as never).start();
    actor.send({ type: 'INIT_TEST' });
    return { actor, clock };
  }

  test('an answer given before the deadline arrives late and counts; one given after it is refused', async () => {
    const pupil = await addSitting(api.db);
    const { client, port, network, setToken } = terminal();
    const login = await client.login({ login_type: 0, login_code: pupil.loginCode });
    setToken(login.access_token);
    const session = sessionFromLogin(login, randomUUID());
    const started = await client.startExam(session.schedule_history_id!);
    const deadline = Date.parse(started.deadline_at);

    // First page: the network is down; the answer is kept on this terminal only.
    const outbox = createMemoryOutbox();
    network.up = false;
    const first = runExam(port, outbox, session);
    const answering = await waitFor(first.actor, (s) => s.matches('answering'));
    const choice = answering.context.questions.find((q) => q.type === 'single_choice')!;
    const other = answering.context.questions.find((q) => q.id !== choice.id)!;
    first.actor.send({ type: 'answer.given', questionId: choice.id, value: choice.choices[0]!.id });
    const kept = await waitFor(first.actor, (s) => s.context.answers[choice.id]?.status === 'local' && s.matches({ answering: { sync: 'waiting' } }));
    expect(kept.context.answers[choice.id]?.status).toBe('local');
    expect([...outbox.entries.values()].map((e) => e.questionId)).toEqual([choice.id]);
    first.actor.stop();

    // The terminal also holds an answer stamped after the deadline (a clock gone wrong).
    const tooLate = { scheduleHistoryId: session.schedule_history_id!, questionId: other.id, value: 'x', key: randomUUID(), answeredAt: new Date(deadline + 60_000).toISOString() };
    await outbox.put(tooLate);
    await expect(
      client.saveAnswer({ schedule_history_id: tooLate.scheduleHistoryId, question_id: other.id, value: 'x', idempotency_key: randomUUID(), answered_at: tooLate.answeredAt }),
    ).rejects.toMatchObject({ code: 'TIME_END', status: 403 });

    // Three hours after the deadline the network is back and the pupil logs in again.
    api.clock.set(new Date(deadline + 3 * HOUR));
    network.up = true;
    const second = runExam(port, outbox, session);
    await waitFor(second.actor, (s) => s.matches('answering') || s.matches('finishing') || s.matches('finished'));
    // The deadline has passed: the exam finishes by itself, sending what the outbox holds.
    second.clock.increment(1);
    const finished = await waitFor(second.actor, (s) => s.matches('finished'), { timeout: 10_000 });

    expect(finished.context.outcome).toBe('sent');
    expect(finished.context.receipt?.answer_count).toBe(1);
    expect(finished.context.answers[choice.id]?.status).toBe('saved');
    expect(finished.context.answers[other.id]?.status).toBe('rejected');
    const rows = await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, session.schedule_history_id!));
    expect(rows.map((r) => ({ question: r.questionId, late: r.late }))).toEqual([{ question: choice.id, late: true }]);
    // Acknowledged and refused answers both leave the outbox: nothing is sent again.
    await expect.poll(() => outbox.entries.size).toBe(0);
  });
});
