/**
 * The position machine alone (machines/position/position.machine.ts): the question on screen and
 * the view around it (the list, the flags, the keyboard and its capitals) while the exam is
 * answered. Run as the exam runs it, the child `position` of a stand-in parent that records every
 * `position.reported`, over a SimulatedClock, so the pupil's pause passes only when the test says.
 *
 * Stated here: the index stays within the exam's questions; a flag marks only a question of the
 * exam, toggles, and is reported at once; the toggles of the list, the keyboard and its capitals;
 * the pause (one move: reported POSITION_PAUSE_MS later; a move during the pause starts it again
 * when it ends, so a burst is one report between one and two pauses after its last move); and
 * `position.taken` (the exam took the position itself) leaves nothing to report; and the typed
 * text of a text answer, given to the exam (`answer.given`) once typing pauses for
 * TEXT_COMMIT_DELAY_MS or at once when the screen commits it, never when it is the answer the exam
 * holds.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, setup } from 'xstate';
import { POSITION_PAUSE_MS, TEXT_COMMIT_DELAY_MS, positionMachine } from '../../machines/position/position.machine.ts';
import type { Position, PositionEvent, PositionInput, PositionParentEvent } from '../../machines/position/position.types.ts';

const questionIds = [101, 102, 103];
const opening: PositionInput = { questionIds, questionIndex: 0, view: { listOpen: false, flagged: [], keyboardOpen: true, upperCase: false } };

/**
 * Lets `ms` pass on the clock, a millisecond at a time: SimulatedClock.increment(n) fires what is
 * due, but a timer started by what fired counts from the end of the whole increment, so one
 * increment of two pauses would never see a pause that starts again at the first pause's end.
 */
function pass(clock: SimulatedClock, ms: number) {
  for (let passed = 0; passed < ms; passed++) clock.increment(1);
}

/** The position machine as the exam's child, from `input`; `reports` records what it tells its parent. */
function positioned(input: Partial<PositionInput> = {}) {
  const reports: Position[] = [];
  const given: Array<[number, string]> = [];
  const parent = setup({
    types: { events: {} as PositionParentEvent },
    actors: { position: positionMachine },
  }).createMachine({
    invoke: { id: 'position', src: 'position', input: { ...opening, ...input } },
    on: {
      'position.reported': { actions: ({ event }) => void reports.push(event.position) },
      'answer.given': { actions: ({ event }) => void given.push([event.questionId, event.value]) },
    },
  });
  const clock = new SimulatedClock();
  const actor = createActor(parent, { clock });
  actor.start();
  const position = actor.getSnapshot().children.position;
  if (!position) throw new Error('the stand-in parent runs no position child');
  const send = (...events: PositionEvent[]) => events.forEach((event) => position.send(event));
  const state = () => position.getSnapshot().value;
  const context = () => position.getSnapshot().context;
  return { position, clock, reports, given, send, state, context };
}

describe('the position machine: where a move may go', () => {
  it('Next at the last question changes nothing, and leaves nothing to report', () => {
    const { clock, reports, send, state, context } = positioned({ questionIndex: 2 });
    send({ type: 'question.next' });
    expect(context().questionIndex).toBe(2);
    expect(state()).toBe('reported');
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(reports).toEqual([]);
  });

  it('Previous at the first question changes nothing, and leaves nothing to report', () => {
    const { clock, reports, send, state, context } = positioned();
    send({ type: 'question.previous' });
    expect(context().questionIndex).toBe(0);
    expect(state()).toBe('reported');
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(reports).toEqual([]);
  });

  it('Next and Previous move by one and stop at either end during the pause too', () => {
    const { send, state, context } = positioned();
    send({ type: 'question.next' });
    expect([state(), context().questionIndex]).toEqual(['unreported', 1]);
    send({ type: 'question.next' });
    expect(context().questionIndex).toBe(2);
    send({ type: 'question.next' });
    expect(context().questionIndex).toBe(2);
    send({ type: 'question.previous' }, { type: 'question.previous' });
    expect(context().questionIndex).toBe(0);
    send({ type: 'question.previous' });
    expect(context().questionIndex).toBe(0);
  });

  it('a question selected outside the questions, or by no whole index, changes nothing', () => {
    const { clock, reports, send, state, context } = positioned({ questionIndex: 1 });
    for (const index of [-1, 3, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      send({ type: 'question.selected', index });
      expect(context().questionIndex).toBe(1);
      expect(state()).toBe('reported');
    }
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(reports).toEqual([]);
    // Within the questions, it moves there; during the pause the same bounds hold.
    send({ type: 'question.selected', index: 2 });
    expect([state(), context().questionIndex]).toEqual(['unreported', 2]);
    for (const index of [-1, 3, 0.5]) send({ type: 'question.selected', index });
    expect(context().questionIndex).toBe(2);
    send({ type: 'question.selected', index: 0 });
    expect(context().questionIndex).toBe(0);
  });
});

describe('the position machine: flags for review', () => {
  it('flags only a question of the exam', () => {
    const { clock, reports, send, state, context } = positioned();
    send({ type: 'question.flagged', questionId: 999 });
    expect(context().view.flagged).toEqual([]);
    expect(state()).toBe('reported');
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(reports).toEqual([]);
  });

  it('a flag toggles, in the order flagged, and each is reported at once', () => {
    const { reports, send, state, context } = positioned();
    send({ type: 'question.flagged', questionId: 102 });
    expect(reports.map((report) => report.view.flagged)).toEqual([[102]]);
    send({ type: 'question.flagged', questionId: 103 });
    send({ type: 'question.flagged', questionId: 102 });
    expect(context().view.flagged).toEqual([103]);
    expect(reports.map((report) => report.view.flagged)).toEqual([[102], [102, 103], [103]]);
    expect(state()).toBe('reported');
  });

  it('a flag reports the move waiting for the pause with it, and the pause has nothing left to report', () => {
    const { clock, reports, send, state } = positioned();
    send({ type: 'question.next' }, { type: 'questionList.toggled' });
    send({ type: 'question.flagged', questionId: 101 });
    expect(reports).toEqual([{ questionIndex: 1, view: { listOpen: true, flagged: [101], keyboardOpen: true, upperCase: false } }]);
    expect(state()).toBe('reported');
    pass(clock, 3 * POSITION_PAUSE_MS);
    expect(reports).toHaveLength(1);
  });
});

describe('the position machine: the list, the keyboard and its capitals', () => {
  it('each toggles its flag, is a move that waits for the pause, and the pause reports them together', () => {
    const { clock, reports, send, state, context } = positioned();
    send({ type: 'questionList.toggled' });
    expect(state()).toBe('unreported');
    expect(context().view).toEqual({ listOpen: true, flagged: [], keyboardOpen: true, upperCase: false });
    send({ type: 'keyboard.toggled' }, { type: 'upperCase.toggled' });
    expect(context().view).toEqual({ listOpen: true, flagged: [], keyboardOpen: false, upperCase: true });
    send({ type: 'questionList.toggled' }, { type: 'keyboard.toggled' }, { type: 'upperCase.toggled' }, { type: 'upperCase.toggled' });
    expect(context().view).toEqual({ listOpen: false, flagged: [], keyboardOpen: true, upperCase: true });
    expect(reports).toEqual([]);
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(reports).toEqual([{ questionIndex: 0, view: { listOpen: false, flagged: [], keyboardOpen: true, upperCase: true } }]);
  });

  it('a toggle alone, from a reported position, is reported one pause later', () => {
    const { clock, reports, send, state } = positioned();
    send({ type: 'keyboard.toggled' });
    pass(clock, POSITION_PAUSE_MS - 1);
    expect(reports).toEqual([]);
    pass(clock, 1);
    expect(reports).toEqual([{ questionIndex: 0, view: { listOpen: false, flagged: [], keyboardOpen: false, upperCase: false } }]);
    expect(state()).toBe('reported');
  });
});

describe('the position machine: the pupil\'s pause', () => {
  it('one move, then POSITION_PAUSE_MS: reported once, not before', () => {
    const { clock, reports, send, state } = positioned();
    send({ type: 'question.next' });
    pass(clock, POSITION_PAUSE_MS - 1);
    expect(reports).toEqual([]);
    expect(state()).toBe('unreported');
    pass(clock, 1);
    expect(reports.map((report) => report.questionIndex)).toEqual([1]);
    expect(state()).toBe('reported');
    pass(clock, 10 * POSITION_PAUSE_MS);
    expect(reports).toHaveLength(1);
  });

  it('a move during the pause marks movedAgain: the pause ends without a report, starts again, and the next end reports the last position', () => {
    const { clock, reports, send, state, context } = positioned();
    send({ type: 'question.next' });
    expect(context().movedAgain).toBe(false);
    pass(clock, POSITION_PAUSE_MS / 2);
    send({ type: 'question.next' });
    expect(context().movedAgain).toBe(true);
    pass(clock, POSITION_PAUSE_MS / 2);
    // The first pause's end: a move came during it, so it begins again, unmarked.
    expect(reports).toEqual([]);
    expect(state()).toBe('unreported');
    expect(context().movedAgain).toBe(false);
    pass(clock, POSITION_PAUSE_MS - 1);
    expect(reports).toEqual([]);
    pass(clock, 1);
    expect(reports.map((report) => report.questionIndex)).toEqual([2]);
    expect(state()).toBe('reported');
  });

  it('a burst of moves in one instant is one report, one pause after the first pause ends', () => {
    const { clock, reports, send } = positioned();
    send({ type: 'question.next' }, { type: 'question.next' }, { type: 'question.previous' });
    pass(clock, POSITION_PAUSE_MS);
    expect(reports).toEqual([]);
    pass(clock, POSITION_PAUSE_MS);
    expect(reports.map((report) => report.questionIndex)).toEqual([1]);
    pass(clock, 10 * POSITION_PAUSE_MS);
    expect(reports).toHaveLength(1);
  });

  it('a pupil who keeps moving within each pause is not reported until a pause passes without a move: then between one and two pauses after the last', () => {
    const { clock, reports, send } = positioned();
    const step = (3 * POSITION_PAUSE_MS) / 4;
    send({ type: 'question.next' });
    for (const move of [{ type: 'question.next' }, { type: 'question.previous' }, { type: 'question.next' }] as const) {
      pass(clock, step);
      send(move);
      expect(reports).toEqual([]);
    }
    // The last move came at 3 steps (2.25 pauses); the pause under way ends at 3 pauses (with the
    // move marked), the next at 4: 1.75 pauses after the last move.
    pass(clock, 3 * POSITION_PAUSE_MS - 3 * step);
    expect(reports).toEqual([]);
    pass(clock, POSITION_PAUSE_MS - 1);
    expect(reports).toEqual([]);
    pass(clock, 1);
    expect(reports.map((report) => report.questionIndex)).toEqual([2]);
  });

  it('position.taken (the exam took the position itself) cancels the pending report; a later move starts a pause of its own', () => {
    const { clock, reports, send, state } = positioned();
    send({ type: 'question.next' }, { type: 'question.next' });
    send({ type: 'position.taken' });
    expect(state()).toBe('reported');
    pass(clock, 3 * POSITION_PAUSE_MS);
    expect(reports).toEqual([]);
    send({ type: 'question.previous' });
    expect(state()).toBe('unreported');
    pass(clock, POSITION_PAUSE_MS);
    expect(reports.map((report) => report.questionIndex)).toEqual([1]);
  });

  it('position.taken with nothing waiting changes nothing', () => {
    const { clock, reports, send, state, context } = positioned({ questionIndex: 1 });
    const before = context();
    send({ type: 'position.taken' });
    expect(state()).toBe('reported');
    expect(context()).toEqual(before);
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(reports).toEqual([]);
  });
});

describe('the position machine: a typed answer', () => {
  const typed = (value: string, held = ''): PositionEvent => ({ type: 'answer.typed', questionId: 102, value, held });

  it('is given once typing pauses for TEXT_COMMIT_DELAY_MS, each keystroke starting the pause again', () => {
    const { clock, given, send, context } = positioned({ questionIndex: 1 });
    send(typed('co'));
    pass(clock, TEXT_COMMIT_DELAY_MS / 2);
    send(typed('col'));
    pass(clock, TEXT_COMMIT_DELAY_MS - 10);
    expect(given).toEqual([]);
    expect(context().draft).toEqual({ questionId: 102, value: 'col', held: '' });
    pass(clock, 20);
    expect(given).toEqual([[102, 'col']]);
    expect(context().draft).toBeNull();
  });

  it('is given at once when the screen commits it, and the pause then gives nothing more', () => {
    const { clock, given, send, context } = positioned({ questionIndex: 1 });
    send(typed('cold'), { type: 'draft.committed' });
    expect(given).toEqual([[102, 'cold']]);
    expect(context().draft).toBeNull();
    send({ type: 'draft.committed' });
    pass(clock, 2 * TEXT_COMMIT_DELAY_MS);
    expect(given).toEqual([[102, 'cold']]);
  });

  it('typed back to the answer the exam holds, is not given again', () => {
    const { clock, given, send, context } = positioned({ questionIndex: 1 });
    send(typed('colder', 'cold'), typed('cold', 'cold'));
    pass(clock, TEXT_COMMIT_DELAY_MS);
    expect(given).toEqual([]);
    expect(context().draft).toBeNull();
  });

  it('of a question not in the exam, is not kept', () => {
    const { clock, given, send, context } = positioned();
    send({ type: 'answer.typed', questionId: 999, value: 'cold', held: '' });
    expect(context().draft).toBeNull();
    pass(clock, TEXT_COMMIT_DELAY_MS);
    expect(given).toEqual([]);
  });

  it('changes neither the position nor its pause', () => {
    const { clock, reports, send, state } = positioned({ questionIndex: 1 });
    send({ type: 'question.next' }, typed('cold'));
    expect(state()).toBe('unreported');
    pass(clock, POSITION_PAUSE_MS);
    expect(reports).toHaveLength(1);
    expect(state()).toBe('reported');
  });
});
