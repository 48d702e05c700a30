/**
 * The question swap keeps the question on screen without writing the exam cache near the swap
 * during the question swap: the move is an event of the exam's `position` child
 * (machines/position), reported once the pupil pauses (the kiosk writes it to the stored session,
 * where a reload resumes from; test/machines/exam-position.test.ts), and the cache takes the new
 * question then, when the page is next idle, one write for a burst of moves; at once when the page
 * is hidden first. A reload right after a move, before the page was ever idle, resumes at that
 * question (the page's pagehide makes the exam take it from the child: the helper's
 * `actor.stop()`); so does one without the network.
 */
import { describe, expect, it } from 'vitest';
import { waitFor, type SimulatedClock } from 'xstate';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import type { CachedExam } from '../../machines/exam/exam.types.ts';
import { settle, setUp, startedExam } from '../helpers/exam-terminal.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';

/** Lets `ms` pass a millisecond at a time (a timer started by what fires counts from then, as in a browser). */
function pass(clock: SimulatedClock, ms: number) {
  for (let passed = 0; passed < ms; passed++) clock.increment(1);
}

/** The terminal, with every cache write counted. */
async function answeringTerminal() {
  const terminal = setUp();
  const written: number[] = [];
  const put = terminal.examCache.put.bind(terminal.examCache);
  terminal.examCache.put = (exam: CachedExam) => {
    written.push(exam.questionIndex);
    return put(exam);
  };
  const first = await startedExam(terminal);
  await settle();
  written.length = 0;
  return { terminal, first, written };
}

describe('a question swap', () => {
  it('reports the question once the pupil pauses, and writes the cache then, when the page is idle: once for a burst of moves', async () => {
    const { terminal, first, written } = await answeringTerminal();
    const position = positionOf(first.actor);
    position.send({ type: 'question.next' });
    position.send({ type: 'question.next' });
    position.send({ type: 'question.previous' });
    // Not on the swap's frame nor in the idle time after it: neither the stored session nor the cache.
    expect(terminal.session().question_index).toBe(0);
    await settle();
    expect(written).toEqual([]);
    expect(terminal.examCache.records.get(7)?.questionIndex).toBe(0);
    // The first pause's end: moves came during it, so it begins again; still nothing written.
    pass(first.clock, POSITION_PAUSE_MS);
    expect(terminal.session().question_index).toBe(0);
    await settle();
    expect(written).toEqual([]);
    // A pause with no move: reported, and cached once, when the page is idle.
    pass(first.clock, POSITION_PAUSE_MS);
    expect(terminal.session().question_index).toBe(1);
    expect(written).toEqual([]);
    await settle();
    expect(written).toEqual([1]);
    expect(terminal.examCache.records.get(7)?.questionIndex).toBe(1);
  });

  it('writes the cache at once when the page is hidden within the pause', async () => {
    const { terminal, first, written } = await answeringTerminal();
    positionOf(first.actor).send({ type: 'question.next' });
    first.actor.send({ type: 'page.changed', now: first.clock.now(), visible: false, cause: 'pagehide' });
    expect(written).toEqual([1]);
    expect(terminal.session().question_index).toBe(1);
    // Taken from the child, which has nothing left to report (test/machines/exam-position.test.ts).
    expect(positionOf(first.actor).getSnapshot().value).toBe('reported');
  });

  it('leaves the waiting write to a write of the whole exam (an acknowledged answer carries the reported question too)', async () => {
    const { terminal, first, written } = await answeringTerminal();
    positionOf(first.actor).send({ type: 'question.next' });
    pass(first.clock, POSITION_PAUSE_MS);
    // Reported: its cache write waits for the page to be idle, and the answer's write comes first.
    expect(terminal.session().question_index).toBe(1);
    expect(written).toEqual([]);
    first.actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    await waitFor(first.actor, (s) => s.context.answers[102]?.status === 'saved');
    await settle();
    expect(written).toEqual([1]);
    expect(terminal.examCache.records.get(7)?.answers.some((answer) => answer.question_id === 102)).toBe(true);
  });

  it('a move still waiting for the pause is not in a write of the whole exam: the cache takes it when it is reported', async () => {
    const { terminal, first, written } = await answeringTerminal();
    positionOf(first.actor).send({ type: 'question.next' });
    first.actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    await waitFor(first.actor, (s) => s.context.answers[102]?.status === 'saved');
    await settle();
    // The exam holds the position as last reported (the stored session's too).
    expect(written).toEqual([0]);
    expect(terminal.session().question_index).toBe(0);
    pass(first.clock, POSITION_PAUSE_MS);
    await settle();
    expect(written).toEqual([0, 1]);
  });

  it('forgets a waiting write when the exam flow ends (nothing of it reappears after a logout)', async () => {
    const { terminal, first, written } = await answeringTerminal();
    positionOf(first.actor).send({ type: 'question.next' });
    first.actor.send({ type: 'finish.requested' });
    first.actor.send({ type: 'finish.confirmed' });
    // Leaving answering took the move from the child: reported, its cache write waiting.
    expect(terminal.session().question_index).toBe(1);
    await waitFor(first.actor, (s) => s.matches('finished'));
    await settle();
    expect(written).toEqual([]);
    expect(terminal.examCache.records.size).toBe(0);
  });

  it('resumes at the question moved to by a reload right after the move, before the page was idle', async () => {
    const { terminal, first } = await answeringTerminal();
    positionOf(first.actor).send({ type: 'question.next' });
    positionOf(first.actor).send({ type: 'question.next' });
    // F5 at once: a new machine on the same terminal, with the stored session as it is now.
    first.actor.stop();
    const second = terminal.boot();
    second.actor.start();
    second.actor.send({ type: 'INIT_TEST' });
    const resumed = await waitFor(second.actor, (s) => s.matches('answering'));
    expect(resumed.context.questionIndex).toBe(2);
    expect(positionOf(second.actor).getSnapshot().context.questionIndex).toBe(2);
  });

  it('resumes at the question moved to by a reload right after the move with no network', async () => {
    const { terminal, first } = await answeringTerminal();
    terminal.network.up = false;
    positionOf(first.actor).send({ type: 'question.next' });
    first.actor.stop();
    const second = terminal.boot();
    second.actor.start();
    second.actor.send({ type: 'INIT_TEST' });
    const resumed = await waitFor(second.actor, (s) => s.matches('answering'));
    expect(terminal.network.tries).toContain('examQuestions');
    expect(resumed.context.questionIndex).toBe(1);
    expect(positionOf(second.actor).getSnapshot().context.questionIndex).toBe(1);
  });
});
