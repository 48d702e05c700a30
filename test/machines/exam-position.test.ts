/**
 * The question on screen, kept for a reload without a write on the swap: the
 * exam's `position` child (machines/position) holds the question index, the question list, the
 * flags, the alphabet keyboard and its capitals, and reports them to the exam, which reports them
 * to the kiosk, which rewrites the stored session in localStorage: once the pupil pauses after a
 * burst of moves (the first move starts a pause of POSITION_PAUSE_MS; a move during it starts it
 * again when it ends, so a burst is reported between one and two pauses after its last move), a
 * flag at once; and the exam takes the position from the child at once when the page is hidden or
 * goes away (pagehide: a reload) and when answering ends. Answers are not involved: the outbox
 * writes each one before it is shown as saved.
 *
 * The real kiosk, session and exam machines over the fake API, with a storage that records each
 * write of the stored session, the page's signals sent as src/platform/terminal.ts sends them,
 * and a SimulatedClock, so the pause passes only when the test says.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, waitFor, type AnyEventObject } from 'xstate';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import type { TerminalSignal } from '../../machines/exam/exam.types.ts';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { waitForKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import type { StoragePort } from '../../machines/shared/ports.ts';
import { readSession, storageKeys } from '../../machines/shared/storage.ts';
import type { ExamineeSession } from '../../contract/session.ts';
import { startedExam, setUp } from '../helpers/exam-terminal.ts';
import { createFakeApi, VALID_CODE } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { examOf, positionOf } from '../helpers/kiosk-exam.ts';

/** Lets `ms` pass a millisecond at a time (a timer started by what fires counts from then, as in a browser). */
function pass(clock: SimulatedClock, ms: number) {
  for (let passed = 0; passed < ms; passed++) clock.increment(1);
}

type Position = Pick<
  ExamineeSession,
  'question_index' | 'question_list_flag' | 'alphabets_keyboard_flag' | 'mode_upper_case_flag' | 'flagged_question_ids'
>;

/** A terminal's storage that records the position in every write of the stored session. */
function recordingStorage() {
  const inner = memoryStorage();
  const writes: Position[] = [];
  const storage: StoragePort & { dump(): Record<string, string> } = {
    ...inner,
    setItem: (key, value) => {
      inner.setItem(key, value);
      if (key !== storageKeys.examineeInfo) return;
      const { question_index, question_list_flag, alphabets_keyboard_flag, mode_upper_case_flag, flagged_question_ids } = readSession(inner)!;
      writes.push({ question_index, question_list_flag, alphabets_keyboard_flag, mode_upper_case_flag, flagged_question_ids });
    },
  };
  return { storage, writes };
}

/**
 * A pupil answering question 1 of 3 on a terminal whose page signals the test sends; no write
 * recorded yet. `position` is the exam's child, where the screen sends the moves.
 */
async function answering(storage = recordingStorage(), api = createFakeApi()) {
  const clock = new SimulatedClock();
  const listeners = new Set<(signal: TerminalSignal) => void>();
  const terminal = { watch: (listener: (signal: TerminalSignal) => void) => (listeners.add(listener), () => void listeners.delete(listener)) };
  const kiosk = createActor(createKioskMachine({ api, storage: storage.storage, terminal }), {
    input: { storedSession: readSession(storage.storage) },
    clock,
  });
  kiosk.start();
  if (!readSession(storage.storage)) {
    kiosk.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await waitForKiosk(kiosk, (s) => s.children.exam?.getSnapshot().matches('confirming') ?? false, 2000);
    examOf(kiosk).send({ type: 'identity.confirmed' });
    examOf(kiosk).send({ type: 'tutorial.completed' });
    examOf(kiosk).send({ type: 'start.confirmed' });
  }
  await waitForKiosk(kiosk, (s) => s.children.exam?.getSnapshot().matches('answering') ?? false, 2000);
  storage.writes.length = 0;
  const exam = examOf(kiosk);
  const page = (signal: TerminalSignal) => {
    for (const listener of listeners) listener(signal);
  };
  // Every event the exam actor receives from now on (the child's reports among them).
  const received: AnyEventObject[] = [];
  kiosk.system.inspect((event) => {
    if (event.type === '@xstate.event' && event.actorRef === exam) received.push(event.event);
  });
  const reported = () => received.filter((event) => event.type === 'position.reported');
  return { kiosk, exam, position: positionOf(exam), clock, page, api, reported, ...storage };
}

const hidden = (cause: 'visibilitychange' | 'pagehide'): TerminalSignal => ({ type: 'page.changed', now: Date.now(), visible: false, cause });

describe('the position between questions', () => {
  it('writes nothing during a burst of moves, then once after the pause, with the last position', async () => {
    const { exam, position, clock, writes } = await answering();
    position.send({ type: 'question.next' });
    position.send({ type: 'question.next' });
    position.send({ type: 'question.previous' });
    position.send({ type: 'questionList.toggled' });
    position.send({ type: 'question.selected', index: 2 });
    position.send({ type: 'keyboard.toggled' });
    position.send({ type: 'upperCase.toggled' });
    expect(position.getSnapshot().context.questionIndex).toBe(2);
    // The exam holds the position as last reported until the child reports.
    expect(exam.getSnapshot().context.questionIndex).toBe(0);
    expect(writes).toEqual([]);
    // Nothing is written before the first pause ends, and, as moves came during it, nor then.
    pass(clock, POSITION_PAUSE_MS - 1);
    position.send({ type: 'question.previous' });
    pass(clock, 1);
    expect(writes).toEqual([]);
    // The pause begun again passes with no move: one write, the burst's last position.
    pass(clock, POSITION_PAUSE_MS - 1);
    expect(writes).toEqual([]);
    pass(clock, 1);
    expect(writes).toEqual([
      { question_index: 1, question_list_flag: true, alphabets_keyboard_flag: false, mode_upper_case_flag: true, flagged_question_ids: [] },
    ]);
    expect(exam.getSnapshot().context.questionIndex).toBe(1);
    // Reported: the next pauses have nothing to write.
    pass(clock, 10 * POSITION_PAUSE_MS);
    expect(writes).toHaveLength(1);
  });

  it('one move, then POSITION_PAUSE_MS: written once, not before', async () => {
    const { position, clock, writes, reported } = await answering();
    position.send({ type: 'question.next' });
    pass(clock, POSITION_PAUSE_MS - 1);
    expect(writes).toEqual([]);
    pass(clock, 1);
    expect(writes.map((w) => w.question_index)).toEqual([1]);
    expect(reported()).toHaveLength(1);
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(writes).toHaveLength(1);
  });

  it('moves during a pause: nothing written when it ends, the last position written when the next one ends', async () => {
    const { position, clock, writes } = await answering();
    position.send({ type: 'question.next' });
    pass(clock, POSITION_PAUSE_MS / 2);
    position.send({ type: 'question.next' });
    pass(clock, POSITION_PAUSE_MS / 2);
    expect(writes).toEqual([]);
    expect(position.getSnapshot().matches('unreported')).toBe(true);
    pass(clock, POSITION_PAUSE_MS - 1);
    expect(writes).toEqual([]);
    pass(clock, 1);
    expect(writes.map((w) => w.question_index)).toEqual([2]);
    expect(position.getSnapshot().matches('reported')).toBe(true);
  });

  it('writes at once when the page is hidden, and the child does not report the same position again', async () => {
    const { position, clock, page, writes, reported } = await answering();
    position.send({ type: 'question.next' });
    expect(writes).toEqual([]);
    page(hidden('visibilitychange'));
    expect(writes.map((w) => w.question_index)).toEqual([1]);
    // The exam took it from the child's snapshot and told the child so (position.taken).
    expect(reported()).toEqual([]);
    expect(position.getSnapshot().matches('reported')).toBe(true);
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(reported()).toEqual([]);
    expect(writes).toHaveLength(1);
  });

  it('writes at once on pagehide (a reload), and the reload resumes on the question moved to', async () => {
    const recorded = recordingStorage();
    const api = createFakeApi();
    const first = await answering(recorded, api);
    first.position.send({ type: 'question.next' });
    first.position.send({ type: 'question.next' });
    first.page(hidden('pagehide'));
    expect(recorded.writes.map((w) => w.question_index)).toEqual([2]);
    first.kiosk.stop();
    const second = await answering(recorded, api);
    expect(second.exam.getSnapshot().context.questionIndex).toBe(2);
    expect(second.position.getSnapshot().context.questionIndex).toBe(2);
  });

  it('a crash within the pause (no pagehide) resumes on the question last reported', async () => {
    const recorded = recordingStorage();
    const api = createFakeApi();
    const first = await answering(recorded, api);
    first.position.send({ type: 'question.next' });
    pass(first.clock, POSITION_PAUSE_MS);
    first.position.send({ type: 'question.next' });
    first.kiosk.stop();
    expect(recorded.writes.map((w) => w.question_index)).toEqual([1]);
    const second = await answering(recorded, api);
    expect(second.exam.getSnapshot().context.questionIndex).toBe(1);
    expect(second.position.getSnapshot().context.questionIndex).toBe(1);
  });

  it('writes nothing for a page change with nothing to report, nor for the page shown again', async () => {
    const { position, page, writes, reported } = await answering();
    page(hidden('visibilitychange'));
    position.send({ type: 'question.next' });
    page({ type: 'page.changed', now: Date.now(), visible: true, cause: 'focus' });
    expect(writes).toEqual([]);
    expect(reported()).toEqual([]);
    // The move still waits for the pause.
    expect(position.getSnapshot().matches('unreported')).toBe(true);
  });

  it('writes at once when answering ends: Finish', async () => {
    const { exam, position, writes } = await answering();
    position.send({ type: 'question.next' });
    exam.send({ type: 'finish.requested' });
    expect(writes).toEqual([]);
    exam.send({ type: 'finish.confirmed' });
    expect(exam.getSnapshot().matches('finishing')).toBe(true);
    // The position (leaving answering), then the pupil's Finish (finish_pending), which keeps it.
    expect(writes.map((w) => w.question_index)).toEqual([1, 1]);
  });

  it('writes at once when answering ends: an error (the exam was cancelled)', async () => {
    const { exam, position, writes } = await answering();
    position.send({ type: 'question.next' });
    exam.send({ type: 'FINISH_WITH_ERROR', code: 'ER_SCHEDULE_HISTORY_CANCELLED' });
    expect(exam.getSnapshot().matches('finished')).toBe(true);
    // The position first (leaving answering), then the end (is_completed), which keeps it.
    expect(writes.map((w) => w.question_index)).toEqual([1, 1]);
  });

  it('writes at once when answering ends: moved to another terminal by a proctor', async () => {
    const { exam, position, writes, storage } = await answering();
    position.send({ type: 'question.next' });
    exam.send({ type: 'FINISH_WITH_ERROR', code: 'INCORRECT_DEVICE' });
    expect(exam.getSnapshot().matches('movedAway')).toBe(true);
    // The position first (leaving answering), then the move away (moved_away_refused), which keeps it.
    expect(writes.map((w) => w.question_index)).toEqual([1, 1]);
    expect(readSession(storage)?.moved_away_refused).toBe(0);
  });

  it('writes at once when answering ends: the time is up', async () => {
    const { exam, position, page, api, writes } = await answering();
    position.send({ type: 'question.selected', index: 2 });
    page({ type: 'clock.ticked', now: Date.parse(api.deadlineAt()) + 1_000 });
    expect(exam.getSnapshot().matches('finishing')).toBe(true);
    // The position, then the finish under way (finish_pending), which keeps it.
    expect(writes.map((w) => w.question_index)).toEqual([2, 2]);
  });

  it('writes at once when the page is hidden past the deadline (the exam finishes, and the position is kept)', async () => {
    const { exam, position, page, api, writes } = await answering();
    position.send({ type: 'question.next' });
    page({ type: 'page.changed', now: Date.parse(api.deadlineAt()) + 1_000, visible: false, cause: 'pagehide' });
    expect(exam.getSnapshot().matches('finishing')).toBe(true);
    // The position, then the finish under way (finish_pending), which keeps it.
    expect(writes.map((w) => w.question_index)).toEqual([1, 1]);
  });

  it('a flag for review is written at once, with the position, and the pause has nothing left to write', async () => {
    const { position, clock, writes } = await answering();
    position.send({ type: 'question.next' });
    position.send({ type: 'question.flagged', questionId: 102 });
    expect(writes.map((w) => [w.question_index, w.flagged_question_ids])).toEqual([[1, [102]]]);
    pass(clock, 2 * POSITION_PAUSE_MS);
    expect(writes).toHaveLength(1);
  });

  it('the exam alone: a page that goes away (F5) reports its move; a crash within the pause does not', async () => {
    const terminal = setUp();
    const first = await startedExam(terminal);
    positionOf(first.actor).send({ type: 'question.next' });
    positionOf(first.actor).send({ type: 'question.next' });
    expect(terminal.session().question_index).toBe(0);
    first.actor.stop();
    expect(terminal.session().question_index).toBe(2);
    const second = terminal.boot();
    second.actor.start();
    second.actor.send({ type: 'INIT_TEST' });
    await waitFor(second.actor, (s) => s.matches('answering'));
    positionOf(second.actor).send({ type: 'question.previous' });
    expect(positionOf(second.actor).getSnapshot().context.questionIndex).toBe(1);
    second.crash();
    expect(terminal.session().question_index).toBe(2);
  });
});
