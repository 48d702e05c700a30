/**
 * Exam day's faults on the exam machine with its real actors (test/helpers/exam-terminal.ts): the
 * deadline holds on wake, the heartbeat (its deadline replaces the stored one, its refusals
 * end the exam flow like any exam call's, its failures are silent; INCORRECT_DEVICE after a move:
 * what the terminal holds is sent first), and an answer another window
 * replaced shows as replaced with the server's value.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { selectExamRetryDialog, selectSaveState, selectTimeLimitSeconds } from '../../machines/exam/exam.selectors.ts';
import { afterDeadline, settle, setUp, startedExam, until } from '../helpers/exam-terminal.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';

const MINUTE = 60_000;
const HEARTBEAT_MS = 10_000;

describe('the deadline on wake', () => {
  it('a terminal that slept past the deadline finishes as soon as the page shows again, with every answer given', async () => {
    const terminal = setUp();
    const { server } = terminal;
    const { actor, signal } = await startedExam(terminal);
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    actor.send({ type: 'answer.given', questionId: 103, value: 'b' });
    await waitFor(actor, (s) => s.context.answers[103]?.status === 'saved');

    // The lid opens ten minutes after the deadline: no timer has run, the page shows again.
    signal({ type: 'page.changed', now: afterDeadline(server, 10 * MINUTE), visible: true, cause: 'visibilitychange' });
    const finished = await waitFor(actor, (s) => s.matches('finished'));
    expect(finished.context.outcome).toBe('sent');
    expect(finished.context.receipt?.answer_count).toBe(2);
    expect([...server.saved].map(([id, a]) => [id, a.value])).toEqual([
      [101, 'a'],
      [103, 'b'],
    ]);
  });

  it('a TIME_END refusal of a save finishes the exam (the terminal clock lagged the server)', async () => {
    const terminal = setUp();
    const { server } = terminal;
    const { actor } = await startedExam(terminal);
    server.failNext('saveAnswer', 'TIME_END', 403);
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    const finished = await waitFor(actor, (s) => s.matches('finished'));
    expect(finished.context.outcome).toBe('sent');
    // Refused for good: not on the server, not in the outbox, not shown as saved.
    expect(finished.context.answers[101]?.status).toBe('rejected');
    expect(server.saved.size).toBe(0);
    await settle();
    expect(terminal.outbox.entries.size).toBe(0);
  });
});

describe('the heartbeat', () => {
  it('goes every 10 s and at once when the page changes, with the question on screen and whether it is visible', async () => {
    const terminal = setUp();
    const { server } = terminal;
    const { actor, clock, signal } = await startedExam(terminal);
    positionOf(actor).send({ type: 'question.next' });
    clock.increment(HEARTBEAT_MS);
    await until(actor, () => server.heartbeats.length === 1);
    expect(server.heartbeats[0]).toEqual({ schedule_history_id: 7, question_index: 1, visible: true, waiting_answers: 0 });

    signal({ type: 'page.changed', now: Date.now(), visible: false, cause: 'visibilitychange' });
    await until(actor, () => server.heartbeats.length === 2);
    expect(server.heartbeats[1]).toEqual({ schedule_history_id: 7, question_index: 1, visible: false, waiting_answers: 0 });
    await waitFor(actor, (s) => s.matches({ answering: { presence: 'waiting' } }));
    clock.increment(HEARTBEAT_MS);
    await until(actor, () => server.heartbeats.length === 3);
    expect(server.heartbeats[2]?.visible).toBe(false);
  });

  it("brings a proctor's extension: the old deadline passes without finishing, the new one finishes", async () => {
    const terminal = setUp();
    const { server } = terminal;
    const { actor, clock, signal } = await startedExam(terminal);
    const fixed = Date.parse(server.deadlineAt());
    server.setDeadline(fixed + 5 * MINUTE);
    clock.increment(HEARTBEAT_MS);
    const extended = await waitFor(actor, (s) => s.context.deadlineAt === fixed + 5 * MINUTE);
    // The timer counts down from 45 minutes now.
    expect(selectTimeLimitSeconds(extended.context)).toBe(45 * 60);

    signal({ type: 'clock.ticked', now: fixed + MINUTE });
    expect(actor.getSnapshot().matches('answering')).toBe(true);
    signal({ type: 'clock.ticked', now: fixed + 5 * MINUTE + 1_000 });
    await waitFor(actor, (s) => s.matches('finished'));
  });

  it('fails silently on the network: no dialog, the pupil goes on, the next beat goes later', async () => {
    const terminal = setUp();
    const { network } = terminal;
    const { actor, clock } = await startedExam(terminal);
    network.up = false;
    clock.increment(HEARTBEAT_MS);
    await until(actor, () => network.tries.includes('heartbeat'));
    const after = await waitFor(actor, (s) => s.matches({ answering: { presence: 'waiting' } }));
    expect(selectExamRetryDialog(after)).toBeNull();
    expect(after.matches({ answering: { view: 'working' } })).toBe(true);
    network.up = true;
    clock.increment(HEARTBEAT_MS);
    await until(actor, () => terminal.server.heartbeats.length === 1);
  });

  it.each([
    ['INCORRECT_DEVICE', 403, 'movedAway'],
    ['ER_SCHEDULE_HISTORY_RETAKE', 401, 'retake'],
    ['NOT_LOGGED_IN', 401, 'unauthorized'],
    ['TIME_END', 403, 'finished'],
  ] as const)('refused with %s (%i): the exam flow goes to %s', async (code, status, state) => {
    const terminal = setUp();
    const { actor, clock } = await startedExam(terminal);
    terminal.server.failNext('heartbeat', code, status);
    clock.increment(HEARTBEAT_MS);
    const ended = await waitFor(actor, (s) => s.matches(state));
    // Moved to another terminal, with nothing left to send here: it says so, and offers Log out.
    if (code === 'INCORRECT_DEVICE') await waitFor(actor, (s) => s.matches({ movedAway: 'sent' }) && s.can({ type: 'logout.requested' }));
    // Time is up: finished the normal way, with the server's receipt.
    if (code === 'TIME_END') expect(ended.context).toMatchObject({ outcome: 'sent', receipt: { answer_count: 0 } });
  });
});

describe('moved to another terminal', () => {
  it('answers kept while the network was down are sent once it is back, before the terminal says it was moved away; none is taken after', async () => {
    const terminal = setUp();
    const { network, server } = terminal;
    const { actor, clock } = await startedExam(terminal);
    network.up = false;
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    actor.send({ type: 'answer.given', questionId: 103, value: 'b' });
    await waitFor(actor, (s) => s.context.answers[103]?.status === 'local');
    network.up = true;
    server.failNext('heartbeat', 'INCORRECT_DEVICE', 403);
    clock.increment(HEARTBEAT_MS);
    await waitFor(actor, (s) => s.matches('movedAway'));
    actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    actor.send({ type: 'connection.restored' });
    const sent = await waitFor(actor, (s) => s.matches({ movedAway: 'sent' }));
    expect([...server.saved].map(([id, a]) => [id, a.value])).toEqual([
      [101, 'a'],
      [103, 'b'],
    ]);
    expect(sent.context.answers[102]).toBeUndefined();
    await settle();
    expect(terminal.outbox.entries.size).toBe(0);
  });
});

describe('an answer another window replaced', () => {
  it('a save the server superseded shows the server value as replaced, and is not sent again', async () => {
    const terminal = setUp();
    const { server } = terminal;
    const { actor } = await startedExam(terminal);
    // Another window of this exam answered question 1 later than this one will have.
    server.saved.set(101, { value: 'b', key: 'other-window', answeredAt: new Date(Date.now() + MINUTE).toISOString() });
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    const replaced = await waitFor(actor, (s) => s.context.answers[101]?.status === 'replaced');
    expect(replaced.context.answers[101]?.value).toBe('b');
    expect(selectSaveState(replaced.context.answers[101]!)).toBe('replaced');
    await settle();
    expect(terminal.outbox.entries.size).toBe(0);
    expect(server.calls.filter((c) => c === 'saveAnswer')).toHaveLength(1);
    expect(server.saved.get(101)?.value).toBe('b');
  });

  it("coming back to this window reads the server's answers again: a different one shows as replaced, one on its way is kept", async () => {
    const terminal = setUp();
    const { server, network } = terminal;
    const { actor, signal } = await startedExam(terminal);
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    await waitFor(actor, (s) => s.context.answers[101]?.status === 'saved');
    network.up = false;
    actor.send({ type: 'answer.given', questionId: 103, value: 'a' });
    await waitFor(actor, (s) => s.context.answers[103]?.status === 'local');

    // Meanwhile another window answered 101 and 103 differently, and 102 which this one never saw.
    server.saved.set(101, { value: 'b', key: 'other-1', answeredAt: new Date().toISOString() });
    server.saved.set(102, { value: 'warm', key: 'other-2', answeredAt: new Date().toISOString() });
    server.saved.set(103, { value: 'b', key: 'other-3', answeredAt: new Date(Date.now() - MINUTE).toISOString() });
    network.up = true;
    signal({ type: 'page.changed', now: Date.now(), visible: true, cause: 'focus' });
    const reread = await waitFor(actor, (s) => s.context.answers[101]?.status === 'replaced');
    expect(reread.context.answers[101]).toMatchObject({ value: 'b', status: 'replaced' });
    expect(reread.context.answers[102]).toMatchObject({ value: 'warm', status: 'saved' });
    // This window's newer answer to 103 is still on its way: the server's older one does not replace it.
    expect(reread.context.answers[103]).toMatchObject({ value: 'a', status: 'local' });
  });
});
