/**
 * What a question swap costs the exam machine (issue 12, item 5: the swap within 1.2x of plain
 * React): one event, one microstep whose transitions target no state (nothing is left or entered,
 * nothing raised); the position's pause is a timer started again on every move
 * (test/machines/exam-position.test.ts says when the position is reported). Seen through XState's
 * inspection events of the exam actor alone.
 */
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import { settle, setUp, startedExam } from '../helpers/exam-terminal.ts';

/** The exam answering question 1, and what its actor reports from now on. */
async function answering() {
  const terminal = setUp();
  const exam = await startedExam(terminal);
  await settle();
  const seen: InspectionEvent[] = [];
  exam.actor.system.inspect((event) => {
    if (event.actorRef === exam.actor) seen.push(event);
  });
  return { terminal, exam, seen };
}

const steps = (seen: InspectionEvent[]) =>
  seen.flatMap((event) => {
    if (event.type === '@xstate.event') return [`event ${event.event.type}`];
    if (event.type === '@xstate.microstep') return [`microstep to ${event._transitions.filter((t) => t.target?.length).length} targets`];
    return [];
  });

describe('a question swap in the exam machine', () => {
  it('is one event and one microstep that targets no state, for Next and for Previous', async () => {
    const { exam, seen } = await answering();
    const before = exam.actor.getSnapshot().value;
    exam.actor.send({ type: 'question.next' });
    exam.actor.send({ type: 'question.previous' });
    expect(steps(seen)).toEqual(['event question.next', 'microstep to 0 targets', 'event question.previous', 'microstep to 0 targets']);
    expect(exam.actor.getSnapshot().value).toEqual(before);
    expect(exam.actor.getSnapshot().context.view.unreported).toBe(true);
  });

  it('is the same for a move right after the position was reported (the first move of a burst)', async () => {
    const { terminal, exam, seen } = await answering();
    exam.actor.send({ type: 'question.next' });
    exam.clock.increment(POSITION_PAUSE_MS);
    expect(terminal.session().question_index).toBe(1);
    seen.length = 0;
    exam.actor.send({ type: 'question.next' });
    expect(steps(seen)).toEqual(['event question.next', 'microstep to 0 targets']);
  });

  it('copies a context of 18 keys at most: one V8 keeps in fast mode (a swap assigns, and XState copies it whole)', async () => {
    const { exam } = await answering();
    exam.actor.send({ type: 'question.next' });
    exam.actor.send({ type: 'questionList.toggled' });
    // XState's assign is Object.assign({}, context, update); from about 19 properties V8 keeps such
    // an object in dictionary mode, several times slower to copy and to read on every event
    // (machines/exam/exam.types.ts, ExamContext.view). Group new facts rather than adding keys.
    expect(Object.keys(exam.actor.getSnapshot().context).length).toBeLessThanOrEqual(18);
  });
});
