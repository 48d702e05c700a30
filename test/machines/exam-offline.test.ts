/**
 * The exam machine with its real actors, the real retry machine and a fake server whose network
 * can be cut (SimulatedClock: every backoff is a step of the test; the page's ticks and wake-up
 * signals are sent by the test, as src/platform/terminal.ts sends them in the browser).
 *
 * Time running out while the network is down: at 00:00 (the first tick past the deadline) the
 * exam finishes by itself: the answers kept on this terminal are sent first, the retry dialog
 * shows while the network is down, and once it is back the finish completes with every answer
 * given before the deadline.
 *
 * A reload without the network: the exam resumes from what this terminal kept
 * when it was loaded (questions, the server's deadline and clock offset, the question on
 * screen, the answers the server held) and from the outbox; once the network is back, every
 * answer reaches the server. What one login kept is never shown to another login, and a logout
 * wipes it with the rest of the pupil's data.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import { waitFor, type AnyActorRef } from 'xstate';
import { selectExamRetryDialog, selectSaveState } from '../../machines/exam/exam.selectors.ts';
import { RETRY_WINDOW_MS } from '../../machines/retry/retry.machine.ts';
import { sessionImplementations } from '../../machines/session/session.actors.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { readSession, writeSession } from '../../machines/shared/storage.ts';
import { afterDeadline, settle, setUp, startedExam, until } from '../helpers/exam-terminal.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';
import { demoExaminee } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

describe('time running out while offline', () => {
  it('finishes by itself at 00:00, shows the retry dialog, and completes once the network is back', async () => {
    const terminal = setUp();
    const { server, network, outbox } = terminal;
    const { actor, clock, signal } = await startedExam(terminal);

    network.up = false;
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    await waitFor(actor, (s) => s.context.answers[101]?.status === 'local' && s.matches({ answering: { sync: 'waiting' } }));
    expect(outbox.entries.size).toBe(1);

    // A tick before 00:00 changes nothing; the first one past it finishes the exam.
    signal({ type: 'clock.ticked', now: afterDeadline(server, -1_000) });
    expect(actor.getSnapshot().matches('answering')).toBe(true);
    signal({ type: 'clock.ticked', now: afterDeadline(server, 1_000) });
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
    const terminal = setUp();
    const { server, network } = terminal;
    const { actor, clock } = await startedExam(terminal);
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

describe('a reload without the network', () => {
  it('resumes the same question, the time from the kept deadline and every answer; once online, all reach the server', async () => {
    const terminal = setUp();
    const { server, network, outbox, examCache } = terminal;
    const first = await startedExam(terminal);

    // Online: question 1, saved on the server. Then the network goes; question 2 is kept on this terminal.
    first.actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    await waitFor(first.actor, (s) => s.context.answers[101]?.status === 'saved');
    network.up = false;
    positionOf(first.actor).send({ type: 'question.next' });
    first.actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    await waitFor(first.actor, (s) => s.context.answers[102]?.status === 'local' && s.matches({ answering: { sync: 'waiting' } }));
    const before = first.actor.getSnapshot().context;
    // The pupil stays on question 2 (the pause after a move): its position is cached too.
    first.clock.increment(POSITION_PAUSE_MS);
    await settle();
    expect(examCache.records.get(7)).toMatchObject({ questionIndex: 1, answers: [{ question_id: 101, value: 'a' }] });

    // F5 with no network: a new machine on the same terminal.
    first.actor.stop();
    const tries = network.tries.length;
    const second = terminal.boot();
    second.actor.start();
    second.actor.send({ type: 'INIT_TEST' });
    const resumed = await waitFor(second.actor, (s) => s.matches('answering'));
    // It asked the server first (and found no network), then resumed from what it kept: no dialog.
    expect(network.tries.slice(tries, tries + 2)).toEqual(['examDetails', 'examQuestions']);
    expect(selectExamRetryDialog(resumed)).toBeNull();
    expect(resumed.context.questionIndex).toBe(1);
    expect(resumed.context.questions).toEqual(before.questions);
    expect(resumed.context.deadlineAt).toBe(before.deadlineAt);
    expect(resumed.context.clockOffsetMs).toBe(before.clockOffsetMs);
    expect(resumed.context.details?.examinee_name).toBe('Aiko Tanaka');
    expect(selectSaveState(resumed.context.answers[101]!)).toBe('server');
    expect(resumed.context.answers[101]?.value).toBe('a');
    expect(selectSaveState(resumed.context.answers[102]!)).toBe('terminal');
    expect(resumed.context.answers[102]?.value).toBe('cold');
    expect(outbox.entries.size).toBe(1);

    // Offline, the pupil goes on: question 3, kept on this terminal.
    positionOf(second.actor).send({ type: 'question.next' });
    second.actor.send({ type: 'answer.given', questionId: 103, value: 'b' });
    await waitFor(second.actor, (s) => s.context.answers[103]?.status === 'local');
    expect(outbox.entries.size).toBe(2);
    expect(server.saved.size).toBe(1);

    // The network is back (the browser's online event): everything reaches the server.
    network.up = true;
    second.actor.send({ type: 'connection.restored' });
    const synced = await waitFor(second.actor, (s) => [101, 102, 103].every((id) => s.context.answers[id]?.status === 'saved'));
    expect([...server.saved].map(([id, a]) => [id, a.value])).toEqual([
      [101, 'a'],
      [102, 'cold'],
      [103, 'b'],
    ]);
    expect(synced.context.answers[103]?.value).toBe('b');
    await settle();
    expect(outbox.entries.size).toBe(0);
  });

  it('past the kept deadline, finishes through the retry dialog and completes once online', async () => {
    const terminal = setUp();
    const { server, network } = terminal;
    const first = await startedExam(terminal);
    network.up = false;
    first.actor.send({ type: 'answer.given', questionId: 101, value: 'b' });
    await waitFor(first.actor, (s) => s.context.answers[101]?.status === 'local');
    await settle();
    first.actor.stop();

    const second = terminal.boot();
    second.actor.start();
    second.actor.send({ type: 'INIT_TEST' });
    await waitFor(second.actor, (s) => s.matches('answering'));
    second.signal({ type: 'clock.ticked', now: afterDeadline(server, 5_000) });
    await until(second.actor, (s) => s.matches({ finishing: 'flushing' }) && selectExamRetryDialog(s)?.kind === 'connecting');

    network.up = true;
    second.actor.send({ type: 'connection.restored' });
    const finished = await waitFor(second.actor, (s) => s.matches('finished'));
    expect(finished.context.receipt?.answer_count).toBe(1);
    expect(server.saved.get(101)?.value).toBe('b');
    // The exam is over: what this terminal kept of it is forgotten.
    await settle();
    expect(terminal.examCache.records.size).toBe(0);
  });

  it("never resumes another login's exam: without the server, the retry dialog as before", async () => {
    const terminal = setUp();
    const { network, examCache } = terminal;
    const first = await startedExam(terminal);
    await settle();
    expect(examCache.records.size).toBe(1);
    first.actor.stop();

    // Another login on this terminal (a new session uuid), for the same sitting, while offline.
    network.up = false;
    const other = sessionFromLogin({ access_token: 'token-2', examinee: demoExaminee, server_time: new Date().toISOString() }, randomUUID());
    const second = terminal.boot(other);
    second.actor.start();
    second.actor.send({ type: 'INIT_TEST' });
    await until(second.actor, (s) => selectExamRetryDialog(s)?.kind === 'connecting');
    expect(second.actor.getSnapshot().matches('loadingDetails')).toBe(true);
    expect(second.actor.getSnapshot().context.questions).toEqual([]);
  });
});

describe('logout', () => {
  it('wipes what the exam kept for an offline reload, with the rest of the pupil data', async () => {
    const terminal = setUp();
    const { examCache } = terminal;
    const running = await startedExam(terminal);
    await settle();
    expect(examCache.records.size).toBe(1);
    running.actor.stop();

    const storage = memoryStorage();
    writeSession(storage, terminal.session());
    sessionImplementations({ api: terminal.server, storage, examCache }).actions.wipeSession();
    await settle();
    expect(examCache.records.size).toBe(0);
    expect(readSession(storage)).toBeNull();
  });
});
