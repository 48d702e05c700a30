/**
 * A pupil a proctor moved to another terminal: the new terminal has no stored position of its own
 * (a fresh login), and resumes at the question the server names (GET /exam-details'
 * `resume_question_index`), not at the first one. A terminal that resumes its own sitting keeps
 * its stored position whatever the server last heard.
 *
 * The terminal moved away from (the server refuses its calls with INCORRECT_DEVICE and takes only
 * the answers given there before the move): reloaded, it reads its outbox and sends it before it
 * says the test goes on elsewhere; Finish pressed there ends the same way, never as cancelled;
 * the end counts the answers the server refused. Log out waits until nothing is left to send, an
 * answer still being written to the outbox when the move is heard included. Once it knows of the
 * move, the stored session says so: a reload, even without the network, comes back to the same
 * end with the same count, never to answering from the exam's cache.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor, type SnapshotFrom } from 'xstate';
import { PRESENCE_INTERVAL_MS } from '../../contract/presence.ts';
import { connect } from '../../machines/exam/exam.connect.ts';
import type { examMachine } from '../../machines/exam/exam.machine.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { demoExaminee } from '../helpers/fake-api.ts';
import { settle, setUp, startedExam } from '../helpers/exam-terminal.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';

describe('an exam resumed on another terminal', () => {
  it('opens at the question the server names for a moved sitting', async () => {
    const terminal = setUp();
    const first = await startedExam(terminal);
    first.actor.stop();
    terminal.server.resumeQuestionIndex = 2;

    const fresh = sessionFromLogin({ access_token: 'token-2', examinee: demoExaminee, server_time: new Date().toISOString() }, 'uuid-2');
    expect(fresh.question_index).toBe(0);
    const moved = terminal.boot(fresh);
    moved.actor.start();
    moved.actor.send({ type: 'INIT_TEST' });
    await waitFor(moved.actor, (s) => s.matches('answering'));
    expect(moved.actor.getSnapshot().context.questionIndex).toBe(2);
    expect(positionOf(moved.actor).getSnapshot().context.questionIndex).toBe(2);
  });

  it('keeps its own stored position when the server names none', async () => {
    const terminal = setUp();
    await terminal.server.startExam(7);
    const own = terminal.boot({ ...terminal.session(), question_index: 1 });
    own.actor.start();
    own.actor.send({ type: 'INIT_TEST' });
    await waitFor(own.actor, (s) => s.matches('answering'));
    expect(positionOf(own.actor).getSnapshot().context.questionIndex).toBe(1);
  });
});

type ExamSnapshot = SnapshotFrom<typeof examMachine>;

/** What the end screen is given. */
const endOf = (snapshot: ExamSnapshot) => connect(snapshot, () => {}).examEnd;

/** The states a run went through, by their top state (`finished` would be the cancelled end). */
function topStates(actor: { subscribe(next: (s: ExamSnapshot) => void): unknown }): string[] {
  const seen: string[] = [];
  actor.subscribe((s) => seen.push(typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]!));
  return seen;
}

describe('the terminal a proctor moved the pupil away from', () => {
  // The terminal's clock (Date) moves by whole minutes between answers and the move, as the
  // server compares them (given before the move or not); timers stay real for the promises.
  const START = Date.parse('2026-11-22T09:00:00.000Z');
  const MINUTE = 60_000;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const later = (minutes: number) => vi.setSystemTime(START + minutes * MINUTE);

  it('reloaded after the move: sends what its outbox holds, then says the test goes on elsewhere; never the cancelled end', async () => {
    const terminal = setUp();
    const { network, server, outbox } = terminal;
    const first = await startedExam(terminal);
    network.up = false;
    first.actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    first.actor.send({ type: 'answer.given', questionId: 103, value: 'b' });
    await waitFor(first.actor, (s) => s.context.answers[103]?.status === 'local');
    later(1);
    terminal.moveAway();
    first.actor.stop();

    // F5 once the network is back: the server refuses the details (the move revoked the token).
    later(2);
    network.up = true;
    const reloaded = terminal.boot();
    const states = topStates(reloaded.actor);
    reloaded.actor.start();
    reloaded.actor.send({ type: 'INIT_TEST' });
    const sent = await waitFor(reloaded.actor, (s) => s.matches({ movedAway: 'sent' }));
    expect(states).not.toContain('finished');
    expect([...server.saved].map(([id, a]) => [id, a.value])).toEqual([
      [101, 'a'],
      [103, 'b'],
    ]);
    expect(endOf(sent)).toMatchObject({ movedAway: { waiting: 0, refused: 0 }, canLogout: true });
    await settle();
    expect(outbox.entries.size).toBe(0);
  });

  it('reloaded while the server cannot be reached after its refusal: keeps the answers, offers no Log out, comes back to the same end when reloaded without the network (never answering from its cache), and sends them once the network is back', async () => {
    const terminal = setUp();
    const { network, server, outbox } = terminal;
    const first = await startedExam(terminal);
    network.up = false;
    first.actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    await waitFor(first.actor, (s) => s.context.answers[102]?.status === 'local');
    later(1);
    terminal.moveAway();
    first.actor.stop();

    later(2);
    network.up = true;
    // The details reach the server (refused), the save that follows does not.
    server.failNext('saveAnswer', 'NETWORK_ERROR');
    const reloaded = terminal.boot();
    reloaded.actor.start();
    reloaded.actor.send({ type: 'INIT_TEST' });
    const waiting = await waitFor(reloaded.actor, (s) => s.matches({ movedAway: 'waiting' }));
    expect(endOf(waiting)).toMatchObject({ movedAway: { waiting: 1, refused: 0 }, canLogout: false });
    // Log out is not taken while an answer waits: the outbox keeps it.
    reloaded.actor.send({ type: 'logout.requested' });
    expect(reloaded.actor.getSnapshot().matches({ movedAway: 'waiting' })).toBe(true);
    expect(outbox.entries.size).toBe(1);
    reloaded.actor.stop();

    // Reloaded again with the network down: the exam's cache would resume answering, but the
    // stored session says the pupil goes on elsewhere.
    network.up = false;
    const again = terminal.boot();
    const states = topStates(again.actor);
    again.actor.start();
    again.actor.send({ type: 'INIT_TEST' });
    const stillWaiting = await waitFor(again.actor, (s) => s.matches({ movedAway: 'waiting' }));
    expect(states).not.toContain('answering');
    expect(endOf(stillWaiting)).toMatchObject({ movedAway: { waiting: 1, refused: 0 }, canLogout: false });
    expect(outbox.entries.size).toBe(1);

    network.up = true;
    again.actor.send({ type: 'connection.restored' });
    const sent = await waitFor(again.actor, (s) => s.matches({ movedAway: 'sent' }));
    expect(server.saved.get(102)?.value).toBe('cold');
    expect(endOf(sent)).toMatchObject({ movedAway: { waiting: 0, refused: 0 }, canLogout: true });
    again.actor.send({ type: 'logout.requested' });
    expect(again.actor.getSnapshot().matches('leaving')).toBe(true);
  });

  it('Finish pressed after the move: the answers go first, then the moved-away end, counting the one given after the move; never the cancelled end', async () => {
    const terminal = setUp();
    const { network, server, outbox } = terminal;
    const { actor } = await startedExam(terminal);
    const states = topStates(actor);
    network.up = false;
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    await waitFor(actor, (s) => s.context.answers[101]?.status === 'local');
    later(1);
    terminal.moveAway();
    // Given after the move, on a terminal that has not heard of it: the server will not take it.
    later(2);
    actor.send({ type: 'answer.given', questionId: 103, value: 'b' });
    await waitFor(actor, (s) => s.context.answers[103]?.status === 'local');

    network.up = true;
    actor.send({ type: 'finish.requested' });
    actor.send({ type: 'finish.confirmed' });
    const sent = await waitFor(actor, (s) => s.matches({ movedAway: 'sent' }));
    expect(states).not.toContain('finished');
    expect([...server.saved].map(([id, a]) => [id, a.value])).toEqual([[101, 'a']]);
    expect(sent.context.answers[103]?.status).toBe('rejected');
    expect(endOf(sent)).toMatchObject({ movedAway: { waiting: 0, refused: 1 }, canLogout: true });
    await settle();
    expect(outbox.entries.size).toBe(0);
  });

  it('Finish pressed after the move with every answer on the server: the moved-away end at once, not cancelled', async () => {
    const terminal = setUp();
    const { actor } = await startedExam(terminal);
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    await waitFor(actor, (s) => s.context.answers[101]?.status === 'saved');
    later(1);
    terminal.moveAway();
    actor.send({ type: 'finish.requested' });
    actor.send({ type: 'finish.confirmed' });
    const sent = await waitFor(actor, (s) => s.matches({ movedAway: 'sent' }));
    expect(sent.context.outcome).toBeNull();
    expect(endOf(sent)).toMatchObject({ movedAway: { waiting: 0, refused: 0 }, canLogout: true });
  });

  it('answers refused while it sends them are counted on the end, never said to be sent', async () => {
    const terminal = setUp();
    const { network, server } = terminal;
    const { actor, clock } = await startedExam(terminal);
    later(1);
    terminal.moveAway();
    later(2);
    network.up = false;
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    await waitFor(actor, (s) => s.context.answers[102]?.status === 'local');
    network.up = true;
    // The next try of the background save: the server refuses it (given after the move).
    clock.increment(1_000);
    const sent = await waitFor(actor, (s) => s.matches({ movedAway: 'sent' }));
    expect(server.saved.size).toBe(0);
    expect(endOf(sent)).toMatchObject({ movedAway: { waiting: 0, refused: 2 }, canLogout: true });
    expect(terminal.session().moved_away_refused).toBe(2);

    // Reloaded, without the network: the same end, with the same count (the outbox forgot them).
    actor.stop();
    network.up = false;
    const reloaded = terminal.boot();
    const states = topStates(reloaded.actor);
    reloaded.actor.start();
    reloaded.actor.send({ type: 'INIT_TEST' });
    const again = await waitFor(reloaded.actor, (s) => s.matches({ movedAway: 'sent' }));
    expect(endOf(again)).toMatchObject({ movedAway: { waiting: 0, refused: 2 }, canLogout: true });
    expect(states).not.toContain('answering');
  });


  it('an answer still being written to the outbox when the move is heard is sent too: never "not sent yet" beside Log out', async () => {
    const terminal = setUp();
    const { server, outbox } = terminal;
    const { actor, clock } = await startedExam(terminal);
    // The outbox's write takes its time (a busy IndexedDB): the answer is still being written.
    const put = outbox.put;
    outbox.put = () => new Promise<void>(() => {});
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    expect(actor.getSnapshot().context.answers[101]?.status).toBe('writing');
    server.failNext('heartbeat', 'INCORRECT_DEVICE', 403);
    clock.increment(PRESENCE_INTERVAL_MS);
    const sent = await waitFor(actor, (s) => s.matches({ movedAway: 'sent' }));
    outbox.put = put;
    // Given before the move (the server refused only the heartbeat): taken.
    expect(server.saved.get(101)?.value).toBe('a');
    expect(endOf(sent)).toMatchObject({ movedAway: { waiting: 0, refused: 0 }, canLogout: true });
  });
});
