/**
 * Time running out while the network is down, on the exam machine with its real actors and
 * the real retry machine (SimulatedClock: the 40 minutes and every backoff are steps of the
 * test). At 00:00 the exam finishes by itself: the answers kept on this terminal are sent
 * first, the retry dialog shows while the network is down, and once it is back the finish
 * completes with every answer given before the deadline.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, waitFor, type AnyActorRef } from 'xstate';
import { examImplementations } from '../../machines/exam/exam.actors.ts';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { selectExamRetryDialog } from '../../machines/exam/exam.selectors.ts';
import { RETRY_WINDOW_MS } from '../../machines/retry/retry.machine.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { createMemoryOutbox } from '../../machines/shared/memory-outbox.ts';
import { ApiFailure, type ApiPort } from '../../machines/shared/ports.ts';
import { createFakeApi, demoExaminee } from '../helpers/fake-api.ts';

const MINUTE = 60_000;

function setUp() {
  const server = createFakeApi();
  const network = { up: true, tries: [] as string[] };
  const cut = <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) => (...args: A) => {
    network.tries.push(name);
    return network.up ? call(...args) : Promise.reject(new ApiFailure('NETWORK_ERROR'));
  };
  const port: ApiPort = { ...server, saveAnswer: cut('saveAnswer', server.saveAnswer), finishExam: cut('finishExam', server.finishExam) };
  const outbox = createMemoryOutbox();
  const implementations = examImplementations({ api: port, outbox });
  const machine = examMachine.provide({
    ...implementations,
    actions: { ...implementations.actions, reportProgress: () => {}, reportCompleted: () => {}, requestLogout: () => {}, reportUnauthorized: () => {} },
  });
  const session = sessionFromLogin({ access_token: 'token-1', examinee: demoExaminee, server_time: new Date().toISOString() }, randomUUID());
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { session }, clock } as never);
  return { server, network, outbox, actor, clock };
}

/** Lets promise actors settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Settles until the exam's snapshot (read afresh: a child's move does not emit the parent's
 * snapshot) satisfies the predicate.
 */
async function until<T>(actor: { getSnapshot(): T }, predicate: (snapshot: T) => boolean): Promise<T> {
  for (let round = 0; round < 100; round++) {
    if (predicate(actor.getSnapshot())) return actor.getSnapshot();
    await settle();
  }
  throw new Error('until: the condition never held');
}

describe('time running out while offline', () => {
  it('finishes by itself at 00:00, shows the retry dialog, and completes once the network is back', async () => {
    const { server, network, outbox, actor, clock } = setUp();
    await server.startExam(7);
    actor.start();
    actor.send({ type: 'INIT_TEST' });
    await waitFor(actor, (s) => s.matches('answering'));

    network.up = false;
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    await waitFor(actor, (s) => s.context.answers[101]?.status === 'local' && s.matches({ answering: { sync: 'waiting' } }));
    expect(outbox.entries.size).toBe(1);

    // 00:00: finishing starts by itself; the flush fails on the network, the backoff begins.
    clock.increment(40 * MINUTE);
    await settle();
    await until(actor, (s) => selectExamRetryDialog(s)?.kind === 'connecting');
    expect(actor.getSnapshot().matches({ finishing: 'flushing' })).toBe(true);
    const triedBeforeBackoff = network.tries.length;

    // 1 s, 2 s, 4 s, 8 s, 16 s: the window (60 s) is used up, the dialog asks to retry.
    let waited = 0;
    for (let wait = 1_000; waited + wait <= RETRY_WINDOW_MS; wait *= 2) {
      clock.increment(wait);
      waited += wait;
      await settle();
    }
    await until(actor, (s) => selectExamRetryDialog(s)?.kind === 'retry');
    // The flush ran again after each of the 5 waits, and only then did the dialog ask.
    expect(network.tries.slice(triedBeforeBackoff)).toEqual(Array(5).fill('saveAnswer'));
    expect(server.saved.size).toBe(0);

    // The network is back and the pupil (or the browser's online event) retries.
    network.up = true;
    actor.send({ type: 'retry.requested' });
    const finished = await waitFor(actor, (s) => s.matches('finished'));
    expect(finished.context.outcome).toBe('sent');
    expect(finished.context.receipt?.answer_count).toBe(1);
    expect(server.saved.get(101)?.value).toBe('a');
    expect(selectExamRetryDialog(finished)).toBeNull();
    await settle();
    expect(outbox.entries.size).toBe(0);
    expect((actor.getSnapshot().children as Record<string, AnyActorRef | undefined>).finishExam).toBeUndefined();
  });

  it('completes without a word when the network returns during the backoff', async () => {
    const { server, network, actor, clock } = setUp();
    await server.startExam(7);
    actor.start();
    actor.send({ type: 'INIT_TEST' });
    await waitFor(actor, (s) => s.matches('answering'));
    network.up = false;
    actor.send({ type: 'finish.requested' });
    actor.send({ type: 'finish.confirmed' });
    await until(actor, (s) => selectExamRetryDialog(s)?.kind === 'connecting');
    network.up = true;
    clock.increment(1_000);
    const finished = await waitFor(actor, (s) => s.matches('finished'));
    expect(finished.context.receipt?.answer_count).toBe(0);
    expect(network.tries.filter((c) => c === 'finishExam')).toHaveLength(2);
    expect(server.calls.filter((c) => c === 'finishExam')).toHaveLength(1);
  });
});
