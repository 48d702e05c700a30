/**
 * What a question swap costs XState (its goal: the swap within 1.2x of plain React): the
 * swap is an event of the exam's `position` child (machines/position), not of the exam. During the
 * pupil's pause (`unreported`) it is one event and one microstep whose transitions target no state
 * (nothing is left or entered, nothing raised), and it starts and cancels no timer; the first move
 * of a burst enters `unreported` and starts the pause, the burst's one timer. The exam actor sees
 * nothing of a swap. Seen through XState's inspection events and the system's scheduled events
 * (test/machines/exam-position.test.ts says when the position is reported).
 */
import { describe, expect, it } from 'vitest';
import type { InspectionEvent, SimulatedClock } from 'xstate';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import { settle, setUp, startedExam } from '../helpers/exam-terminal.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';

/** Lets `ms` pass a millisecond at a time (a timer started by what fires counts from then, as in a browser). */
function pass(clock: SimulatedClock, ms: number) {
  for (let passed = 0; passed < ms; passed++) clock.increment(1);
}

/** The exam answering question 1, and what its actor and its position child report from now on. */
async function answering() {
  const terminal = setUp();
  const exam = await startedExam(terminal);
  await settle();
  const position = positionOf(exam.actor);
  const seen: InspectionEvent[] = [];
  const examSeen: InspectionEvent[] = [];
  exam.actor.system.inspect((event) => {
    if (event.actorRef === position) seen.push(event);
    if (event.actorRef === exam.actor) examSeen.push(event);
  });
  /** The position child's timers now scheduled (the pause), as the system's scheduler holds them. */
  const timers = () => Object.values(exam.actor.system.getSnapshot()._scheduledEvents).filter((scheduled) => scheduled.source === position);
  const forget = () => {
    seen.length = 0;
    examSeen.length = 0;
  };
  return { terminal, exam, position, seen, examSeen, timers, forget };
}

const steps = (seen: InspectionEvent[]) =>
  seen.flatMap((event) => {
    if (event.type === '@xstate.event') return [`event ${event.event.type}`];
    if (event.type === '@xstate.microstep') return [`microstep to ${event._transitions.filter((t) => t.target?.length).length} targets`];
    return [];
  });

/** The actions that raise an event, delayed or not, or cancel a delayed one (a timer started or cancelled). */
const raisesAndCancels = (seen: InspectionEvent[]) =>
  seen.flatMap((event) =>
    event.type === '@xstate.action' && (event.action.type === 'xstate.raise' || event.action.type === 'xstate.cancel') ? [event.action] : [],
  );

describe('a question swap', () => {
  it('during the pause is one event and one microstep that targets no state, and starts or cancels no timer: Next, Previous, a question selected', async () => {
    const { position, seen, examSeen, timers, forget } = await answering();
    // The first move of the burst: the pause under way.
    position.send({ type: 'question.next' });
    expect(position.getSnapshot().value).toBe('unreported');
    const pause = timers();
    expect(pause).toHaveLength(1);
    forget();
    position.send({ type: 'question.next' });
    position.send({ type: 'question.previous' });
    position.send({ type: 'question.selected', index: 2 });
    expect(steps(seen)).toEqual([
      'event question.next',
      'microstep to 0 targets',
      'event question.previous',
      'microstep to 0 targets',
      'event question.selected',
      'microstep to 0 targets',
    ]);
    expect(raisesAndCancels(seen)).toEqual([]);
    // The very timer the first move started, neither replaced nor joined by another.
    expect(timers()).toHaveLength(1);
    expect(timers()[0]).toBe(pause[0]);
    expect(position.getSnapshot().value).toBe('unreported');
    expect(position.getSnapshot().context).toMatchObject({ questionIndex: 2, movedAgain: true });
    // The exam sees nothing of it: no event, no microstep, no action, no snapshot.
    expect(examSeen).toEqual([]);
  });

  it('the first move of a burst (the position reported) targets `unreported` and starts the pause: the burst\'s one timer', async () => {
    const { terminal, exam, position, seen, examSeen, timers, forget } = await answering();
    position.send({ type: 'question.next' });
    pass(exam.clock, POSITION_PAUSE_MS);
    expect(terminal.session().question_index).toBe(1);
    expect(position.getSnapshot().value).toBe('reported');
    expect(timers()).toEqual([]);
    forget();
    position.send({ type: 'question.next' });
    expect(steps(seen)).toEqual(['event question.next', 'microstep to 1 targets']);
    expect(position.getSnapshot().value).toBe('unreported');
    expect(raisesAndCancels(seen)).toEqual([expect.objectContaining({ type: 'xstate.raise', params: expect.objectContaining({ delay: POSITION_PAUSE_MS }) })]);
    expect(timers()).toHaveLength(1);
    expect(examSeen).toEqual([]);
  });

  it('leaves the exam\'s context at 18 keys at most: one V8 keeps in fast mode (a report assigns, and XState copies it whole)', async () => {
    const { exam, position } = await answering();
    position.send({ type: 'question.next' });
    position.send({ type: 'questionList.toggled' });
    pass(exam.clock, 2 * POSITION_PAUSE_MS);
    // The report reached the exam, which assigned it.
    expect(exam.actor.getSnapshot().context.questionIndex).toBe(1);
    expect(exam.actor.getSnapshot().context.view.listOpen).toBe(true);
    // XState's assign is Object.assign({}, context, update); from about 19 properties V8 keeps such
    // an object in dictionary mode, several times slower to copy and to read on every event
    // (machines/exam/exam.types.ts, ExamContext.view). Group new facts rather than adding keys.
    expect(Object.keys(exam.actor.getSnapshot().context).length).toBeLessThanOrEqual(18);
  });

  it('copies a small context: the position\'s, which a swap assigns, has 6 keys at most', async () => {
    const { position } = await answering();
    position.send({ type: 'question.next' });
    position.send({ type: 'question.next' });
    expect(position.getSnapshot().context.questionIndex).toBe(2);
    expect(Object.keys(position.getSnapshot().context).length).toBeLessThanOrEqual(6);
  });
});
