/**
 * A Finish confirmed survives a reload: Finish pressed offline, then F5, never puts the pupil back
 * on the question with the clock running and the Finish button. The exam machine
 * with its real actors, the real retry machine and a fake server whose network the test cuts
 * (test/helpers/exam-terminal.ts): entering `finishing` is kept in the stored session
 * (finish_pending), and a new page on the same terminal (its outbox, exam cache and stored
 * session) goes straight back to finishing, never to answering: the outbox is flushed, the finish
 * is asked with the retry dialog while the network is down, and it completes once the network is
 * back, with every answer in the receipt. The same after time ran out, and on a reload online.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { selectExamRetryDialog } from '../../machines/exam/exam.selectors.ts';
import { afterDeadline, settle, setUp, startedExam, until } from '../helpers/exam-terminal.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';

/** Q1 saved on the server, then the network goes and Q2 is kept on this terminal only. */
async function answeredThenOffline(terminal: ReturnType<typeof setUp>) {
  const running = await startedExam(terminal);
  running.actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
  await waitFor(running.actor, (s) => s.context.answers[101]?.status === 'saved');
  terminal.network.up = false;
  positionOf(running.actor).send({ type: 'question.next' });
  running.actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
  await waitFor(running.actor, (s) => s.context.answers[102]?.status === 'local' && s.matches({ answering: { sync: 'waiting' } }));
  return running;
}

/** F5: the page goes away and a new one loads on the same terminal, from the stored session. */
function reload(terminal: ReturnType<typeof setUp>, page: { actor: { stop(): unknown } }) {
  page.actor.stop();
  const next = terminal.boot();
  next.actor.start();
  next.actor.send({ type: 'INIT_TEST' });
  return next;
}

describe('Finish confirmed, then a reload', () => {
  it('offline: resumes finishing (not answering) with the retry dialog, and finishes once the network returns with every answer', async () => {
    const terminal = setUp();
    const { server, network, outbox } = terminal;
    const first = await answeredThenOffline(terminal);
    expect(terminal.session().finish_pending).toBeUndefined();

    first.actor.send({ type: 'finish.requested' });
    first.actor.send({ type: 'finish.confirmed' });
    await until(first.actor, (s) => s.matches({ finishing: 'flushing' }) && selectExamRetryDialog(s)?.kind === 'connecting');
    // The pupil's Finish is in the stored session the moment finishing is entered.
    expect(terminal.session().finish_pending).toBe(true);
    await settle();

    // F5 while still offline.
    const second = reload(terminal, first);
    const resumed = await until(second.actor, (s) => s.matches({ finishing: 'flushing' }) && selectExamRetryDialog(s)?.kind === 'connecting');
    expect(resumed.matches('answering')).toBe(false);
    expect(resumed.hasTag('busy')).toBe(true);
    // The answer kept on this terminal came back from the outbox, still to be sent.
    expect(resumed.context.answers[102]).toMatchObject({ value: 'cold', status: 'local' });
    expect(resumed.context.answers[101]).toMatchObject({ value: 'a', status: 'saved' });
    // No answer is accepted any more: finishing is not answering.
    second.actor.send({ type: 'answer.given', questionId: 103, value: 'b' });
    expect(second.actor.getSnapshot().context.answers[103]).toBeUndefined();
    expect(server.calls.filter((c) => c === 'finishExam')).toHaveLength(0);

    // Back online (the browser's online event): the finish completes by itself.
    network.up = true;
    second.actor.send({ type: 'connection.restored' });
    const finished = await waitFor(second.actor, (s) => s.matches('finished'));
    expect(finished.context.outcome).toBe('sent');
    expect(finished.context.receipt?.answer_count).toBe(2);
    expect([...server.saved].map(([id, a]) => [id, a.value])).toEqual([
      [101, 'a'],
      [102, 'cold'],
    ]);
    expect(server.calls.filter((c) => c === 'finishExam')).toHaveLength(1);
    // The exam flow ended: the intent, the exam cache and the outbox are cleared.
    expect(terminal.session().finish_pending).toBe(false);
    await settle();
    expect(outbox.entries.size).toBe(0);
    expect(terminal.examCache.records.size).toBe(0);
  });

  it('online again before the reload: the reloaded page finishes by itself, no Finish pressed again', async () => {
    const terminal = setUp();
    const { server, network } = terminal;
    const first = await answeredThenOffline(terminal);
    first.actor.send({ type: 'finish.requested' });
    first.actor.send({ type: 'finish.confirmed' });
    await until(first.actor, (s) => selectExamRetryDialog(s)?.kind === 'connecting');

    network.up = true;
    const second = reload(terminal, first);
    const finished = await waitFor(second.actor, (s) => s.matches('finished'));
    expect(finished.context.receipt?.answer_count).toBe(2);
    expect(server.saved.get(102)?.value).toBe('cold');
    expect(terminal.session().finish_pending).toBe(false);
  });

  it('time up offline, then a reload: finishing again, not a second of answering', async () => {
    const terminal = setUp();
    const { server, network } = terminal;
    const first = await answeredThenOffline(terminal);
    first.signal({ type: 'clock.ticked', now: afterDeadline(server, 1_000) });
    await until(first.actor, (s) => s.matches({ finishing: 'flushing' }) && selectExamRetryDialog(s)?.kind === 'connecting');
    expect(terminal.session().finish_pending).toBe(true);

    const second = reload(terminal, first);
    await until(second.actor, (s) => s.matches({ finishing: 'flushing' }) && selectExamRetryDialog(s)?.kind === 'connecting');
    network.up = true;
    second.actor.send({ type: 'connection.restored' });
    const finished = await waitFor(second.actor, (s) => s.matches('finished'));
    expect(finished.context.receipt?.answer_count).toBe(2);
  });

  it('without a Finish, a reload still resumes answering (the intent is only what the pupil confirmed)', async () => {
    const terminal = setUp();
    const first = await answeredThenOffline(terminal);
    first.actor.send({ type: 'finish.requested' });
    first.actor.send({ type: 'finish.cancelled' });
    const second = reload(terminal, first);
    const resumed = await waitFor(second.actor, (s) => s.matches('answering'));
    expect(resumed.context.questionIndex).toBe(1);
    expect(terminal.session().finish_pending).toBeUndefined();
  });
});
