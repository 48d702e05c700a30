/**
 * Two windows of one terminal (the same stored session, outbox and exam cache) running one sitting,
 * on the exam machine with its real actors (test/helpers/exam-terminal.ts): each tells the other
 * of the answers the server acknowledged, and a window takes a later one at once, without being
 * shown again and without waiting for a heartbeat: where it showed another value, that answer
 * shows as replaced with the other window's value (never as saved); an earlier one, one of
 * another sitting or login, or an unknown question, changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { selectSaveState } from '../../machines/exam/exam.selectors.ts';
import { withAnswerSavedElsewhere } from '../../machines/exam/exam.rules.ts';
import type { AnswerSavedElsewhere, ExamContext } from '../../machines/exam/exam.types.ts';
import { settle, setUp, startedExam, until } from '../helpers/exam-terminal.ts';

const MINUTE = 60_000;
const HEARTBEAT_MS = 10_000;

/** A second window of the same terminal: the stored session resumes the running exam. */
async function secondWindow(terminal: ReturnType<typeof setUp>) {
  const running = terminal.boot();
  running.actor.start();
  running.actor.send({ type: 'INIT_TEST' });
  await waitFor(running.actor, (s) => s.matches('answering'));
  return running;
}

/** What another window of this sitting would announce for question `questionId`, given `at`. */
function heard(context: ExamContext, questionId: number, value: string, at: string, key = `other-${at}`): AnswerSavedElsewhere {
  return { scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed, questionId, value, answeredAt: at, key };
}

const saves = (terminal: ReturnType<typeof setUp>) => terminal.server.calls.filter((call) => call === 'saveAnswer').length;

describe('two windows of one terminal', () => {
  it("the window whose answer another replaced shows the other's value as replaced at once, heartbeats or not", async () => {
    const terminal = setUp();
    const a = await startedExam(terminal);
    const b = await secondWindow(terminal);
    a.actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    await waitFor(a.actor, (s) => s.context.answers[101]?.status === 'saved');
    // B learnt of A's answer too, saved, without being shown again.
    await waitFor(b.actor, (s) => s.context.answers[101]?.status === 'saved');
    expect(b.actor.getSnapshot().context.answers[101]?.value).toBe('a');

    b.actor.send({ type: 'answer.given', questionId: 101, value: 'b' });
    await waitFor(b.actor, (s) => s.context.answers[101]?.status === 'saved' && s.context.answers[101]?.value === 'b');
    const replaced = await waitFor(a.actor, (s) => s.context.answers[101]?.status === 'replaced');
    expect(replaced.context.answers[101]).toMatchObject({ value: 'b', key: b.actor.getSnapshot().context.answers[101]!.key });
    expect(selectSaveState(replaced.context.answers[101]!)).toBe('replaced');

    // Heartbeats come and go: A still says replaced, with B's value, and the server holds B's.
    a.clock.increment(HEARTBEAT_MS);
    b.clock.increment(HEARTBEAT_MS);
    await until(a.actor, () => terminal.server.heartbeats.length >= 2);
    await settle();
    expect(a.actor.getSnapshot().context.answers[101]).toMatchObject({ value: 'b', status: 'replaced' });
    expect(terminal.server.saved.get(101)?.value).toBe('b');
    // Nothing of it is sent again from A.
    expect(saves(terminal)).toBe(2);
  });

  it('an answer of this window still on its way gives way to a later one saved in the other: never sent, forgotten by the outbox', async () => {
    const terminal = setUp();
    const a = await startedExam(terminal);
    terminal.network.up = false;
    a.actor.send({ type: 'answer.given', questionId: 103, value: 'a' });
    const local = await waitFor(a.actor, (s) => s.context.answers[103]?.status === 'local');
    const mine = local.context.answers[103]!;
    expect(terminal.outbox.entries.has(mine.key)).toBe(true);

    const later = new Date(Date.parse(mine.answeredAt) + MINUTE).toISOString();
    a.signal({ type: 'answer.savedElsewhere', answer: heard(local.context, 103, 'b', later) });
    const taken = a.actor.getSnapshot().context.answers[103]!;
    expect(taken).toMatchObject({ value: 'b', answeredAt: later, status: 'replaced' });
    await settle();
    expect(terminal.outbox.entries.has(mine.key)).toBe(false);

    const before = saves(terminal);
    terminal.network.up = true;
    a.actor.send({ type: 'connection.restored' });
    await settle();
    await settle();
    expect(saves(terminal)).toBe(before);
  });

  it('a later answer with the value this window shows is saved here too; a question this window never answered shows it as saved', async () => {
    const terminal = setUp();
    const a = await startedExam(terminal);
    a.actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    const saved = await waitFor(a.actor, (s) => s.context.answers[101]?.status === 'saved');
    const later = new Date(Date.parse(saved.context.answers[101]!.answeredAt) + MINUTE).toISOString();
    a.signal({ type: 'answer.savedElsewhere', answer: heard(saved.context, 101, 'a', later) });
    a.signal({ type: 'answer.savedElsewhere', answer: heard(saved.context, 102, 'warm', later) });
    const context = a.actor.getSnapshot().context;
    expect(context.answers[101]).toMatchObject({ value: 'a', answeredAt: later, status: 'saved' });
    expect(context.answers[102]).toMatchObject({ value: 'warm', status: 'saved' });
  });

  it("a window whose clock estimate trails the other's takes the nearer one, so two answers a moment apart keep their order", async () => {
    // The server's responses to window B's load arrive 1.5 s after they were stamped (a busy
    // terminal), so B alone would take the server's clock to be 1.5 s behind what A measured.
    let travelMs = 0;
    const terminal = setUp({ serverNow: () => Date.now() - travelMs });
    const a = await startedExam(terminal);
    travelMs = 1_500;
    const b = await secondWindow(terminal);
    travelMs = 0;
    const offsetOfA = a.actor.getSnapshot().context.clockOffsetMs;
    // B told A its offset as it began answering; A, holding a nearer one, told B back.
    const shared = await waitFor(b.actor, (s) => s.context.clockOffsetMs === offsetOfA);
    expect(shared.context.clockOffsetMs).toBeGreaterThan(-1_000);

    a.actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    const answeredInA = (await waitFor(a.actor, (s) => s.context.answers[101]?.status === 'saved')).context.answers[101]!.answeredAt;
    // The pupil's next answer, in B, a moment later: it is the later one on the server's clock too.
    await new Promise((resolve) => setTimeout(resolve, 20));
    b.actor.send({ type: 'answer.given', questionId: 101, value: 'b' });
    await waitFor(b.actor, (s) => s.context.answers[101]?.status === 'saved');
    expect(Date.parse(b.actor.getSnapshot().context.answers[101]!.answeredAt)).toBeGreaterThan(Date.parse(answeredInA));
    expect(terminal.server.saved.get(101)?.value).toBe('b');
    await waitFor(a.actor, (s) => s.context.answers[101]?.status === 'replaced');
  });

  it('a changed clock shared by the other window is taken; an offset of another login is not', async () => {
    const terminal = setUp();
    const a = await startedExam(terminal);
    const context = a.actor.getSnapshot().context;
    a.signal({ type: 'clock.shared', clock: { scheduleHistoryId: context.scheduleHistoryId, owner: 'another-login', clockOffsetMs: context.clockOffsetMs + 60_000 } });
    await settle();
    expect(a.actor.getSnapshot().context.clockOffsetMs).toBe(context.clockOffsetMs);
    // The terminal's clock was set an hour forward: the other window measured it first.
    a.signal({ type: 'clock.shared', clock: { scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed, clockOffsetMs: context.clockOffsetMs - 3_600_000 } });
    await settle();
    expect(a.actor.getSnapshot().context.clockOffsetMs).toBe(context.clockOffsetMs - 3_600_000);
  });

  it('an earlier answer, its own again, another sitting or login, or a question not in the exam changes nothing', async () => {
    const terminal = setUp();
    const a = await startedExam(terminal);
    a.actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    const saved = await waitFor(a.actor, (s) => s.context.answers[101]?.status === 'saved');
    const context = saved.context;
    const mine = context.answers[101]!;
    const earlier = new Date(Date.parse(mine.answeredAt) - MINUTE).toISOString();
    const later = new Date(Date.parse(mine.answeredAt) + MINUTE).toISOString();
    for (const answer of [
      heard(context, 101, 'b', earlier),
      heard(context, 101, 'b', mine.answeredAt),
      heard(context, 101, 'a', mine.answeredAt, mine.key),
      { ...heard(context, 101, 'b', later), scheduleHistoryId: context.scheduleHistoryId + 1 },
      { ...heard(context, 101, 'b', later), owner: '00000000-0000-4000-8000-000000000000' },
      heard(context, 999, 'b', later),
    ]) {
      expect(withAnswerSavedElsewhere(context, answer)).toBeNull();
      a.signal({ type: 'answer.savedElsewhere', answer });
    }
    expect(a.actor.getSnapshot().context.answers).toBe(context.answers);
  });
});
