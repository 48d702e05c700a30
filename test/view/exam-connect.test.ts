/**
 * The exam's connect (machines/exam/exam.connect.ts) as a pure function over real snapshots of
 * the exam machine (stand-in calls, their results sent as events): what each screen is given,
 * the events its callbacks send, and what stays the same object from one snapshot to the next.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { connect, examEndWithoutExam } from '../../machines/exam/exam.connect.ts';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import type { ExamEvent } from '../../machines/exam/exam.types.ts';
import type { PositionEvent } from '../../machines/position/position.types.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { demoExaminee, demoQuestions } from '../helpers/fake-api.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';
import { never } from '../helpers/never.ts';

const now = new Date().toISOString();
const details = {
  schedule_history_id: 7, examinee_name: 'Aiko Tanaka', subject: { id: 1, name: 'English' }, level: { id: 1, name: 'Level 1' },
  exam: { id: 1, title: 'English 1', question_count: 3, time_limit_seconds: 1_800 }, status: 0, started_at: null,
  deadline_at: null, server_time: now,
};

function examActor() {
  const machine = examMachine.provide({
    actors: { loadExamDetails: never(), startExam: never(), loadQuestions: never(), storeAnswer: never(), saveAnswer: never(), flushAnswers: never(), finishExam: never() },
    actions: { reportProgress: () => {}, reportCompleted: () => {}, reportFinishing: () => {}, reportMovedAway: () => {}, requestLogout: () => {}, reportUnauthorized: () => {} },
  });
  const session = sessionFromLogin({ access_token: 't', examinee: demoExaminee, server_time: now }, randomUUID());
  return createActor(machine, { input: { session } }).start();
}

/** Sent by a screen's callbacks. */
function recorder() {
  const sent: ExamEvent[] = [];
  return { sent, send: (event: ExamEvent) => void sent.push(event) };
}

/** Sent by the exam screen's moves and toggles, to the exam's position child. */
function positionRecorder() {
  const sent: PositionEvent[] = [];
  return { sent, send: (event: PositionEvent) => void sent.push(event) };
}

/** The exam's position child as src/app/connect/use-exam.ts hands it to the connect: its snapshot now, and its send. */
function positionLink(exam: Parameters<typeof positionOf>[0]) {
  const position = positionOf(exam);
  return { snapshot: position.getSnapshot(), send: position.send };
}

function answering() {
  const actor = examActor();
  actor.send({ type: 'INIT_TEST' });
  actor.send({ type: 'xstate.done.actor.loadExamDetails', output: { ok: true, value: details } } as never);
  actor.send({ type: 'identity.confirmed' });
  actor.send({ type: 'tutorial.completed' });
  actor.send({ type: 'start.confirmed' });
  const deadline = new Date(Date.parse(now) + 1_800_000).toISOString();
  actor.send({ type: 'xstate.done.actor.startExam', output: { status: 1, started_at: now, deadline_at: deadline, server_time: now } } as never);
  actor.send({
    type: 'xstate.done.actor.loadQuestions',
    output: { ok: true, value: { questions: demoQuestions, answers: [], unsent: [], deadline_at: deadline, server_time: now } },
  } as never);
  return actor;
}

describe('login-confirm', () => {
  it('loads, then shows the details; its buttons confirm, reject and retry', () => {
    const actor = examActor();
    const { sent, send } = recorder();
    actor.send({ type: 'INIT_TEST' });
    expect(connect(actor.getSnapshot(), send).loginConfirm).toMatchObject({ status: 'loading', details: null, error: null });
    actor.send({ type: 'xstate.done.actor.loadExamDetails', output: { ok: true, value: details } } as never);
    const api = connect(actor.getSnapshot(), send).loginConfirm;
    expect(api).toMatchObject({ status: 'ready', details: { examinee_name: 'Aiko Tanaka' } });
    api.confirm();
    api.reject();
    api.retry();
    expect(sent.map((e) => e.type)).toEqual(['identity.confirmed', 'identity.rejected', 'retry.requested']);
  });

  it('says why the details could not be loaded', () => {
    const actor = examActor();
    actor.send({ type: 'INIT_TEST' });
    actor.send({ type: 'xstate.done.actor.loadExamDetails', output: { ok: false, error: 'GENERIC_ERROR' } } as never);
    expect(connect(actor.getSnapshot(), vi.fn()).loginConfirm).toMatchObject({ status: 'error', error: 'GENERIC_ERROR' });
  });
});

describe('exam-start', () => {
  it("gives the exam's own time limit in minutes, and busy while Start waits", () => {
    const actor = examActor();
    actor.send({ type: 'INIT_TEST' });
    actor.send({ type: 'xstate.done.actor.loadExamDetails', output: { ok: true, value: details } } as never);
    actor.send({ type: 'identity.confirmed' });
    actor.send({ type: 'tutorial.completed' });
    expect(connect(actor.getSnapshot(), vi.fn()).examStart).toMatchObject({ busy: false, timeLimitMinutes: 30, error: null });
    const { sent, send } = recorder();
    connect(actor.getSnapshot(), send).examStart.start();
    expect(sent).toEqual([{ type: 'start.confirmed' }]);
    actor.send({ type: 'start.confirmed' });
    expect(connect(actor.getSnapshot(), vi.fn()).examStart.busy).toBe(true);
  });

  it('says 40 minutes before the exam says otherwise (seed section 9)', () => {
    expect(connect(examActor().getSnapshot(), vi.fn()).examStart.timeLimitMinutes).toBe(40);
  });
});

describe('the exam screen', () => {
  it('answers and finishes through the exam events; moves, flags and toggles through the position child\'s', () => {
    const actor = answering();
    const { sent, send } = recorder();
    const moved = positionRecorder();
    const api = connect(actor.getSnapshot(), send, { snapshot: positionOf(actor).getSnapshot(), send: moved.send }).exam;
    expect(api).toMatchObject({ status: 'answering', index: 0, confirmingFinish: false, error: null, timeLimitSeconds: 1_800 });
    expect(api.questions.map((q) => q.id)).toEqual([101, 102, 103]);
    api.answer(101, 'a');
    api.next();
    api.previous();
    api.select(2);
    api.flag(101);
    api.toggleList();
    api.toggleKeyboard();
    api.toggleUpperCase();
    api.requestFinish();
    api.cancelFinish();
    api.confirmFinish();
    api.focusLost();
    api.retry();
    expect(sent).toEqual([
      { type: 'answer.given', questionId: 101, value: 'a' },
      { type: 'finish.requested' },
      { type: 'finish.cancelled' },
      { type: 'finish.confirmed' },
      { type: 'focus.lost' },
      { type: 'retry.requested' },
    ]);
    expect(moved.sent).toEqual([
      { type: 'question.next' },
      { type: 'question.previous' },
      { type: 'question.selected', index: 2 },
      { type: 'question.flagged', questionId: 101 },
      { type: 'questionList.toggled' },
      { type: 'keyboard.toggled' },
      { type: 'upperCase.toggled' },
    ]);
  });

  it('without a position child, a move or a toggle sends nothing (the exam takes none)', () => {
    const actor = answering();
    const { sent, send } = recorder();
    const api = connect(actor.getSnapshot(), send).exam;
    api.next();
    api.previous();
    api.select(2);
    api.flag(101);
    api.toggleList();
    api.toggleKeyboard();
    api.toggleUpperCase();
    expect(sent).toEqual([]);
  });

  it('shows where each answer is kept, and the finish dialog', () => {
    const actor = answering();
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    expect(connect(actor.getSnapshot(), vi.fn()).exam.answers).toEqual({ 101: { value: 'a', saved: 'saving' } });
    actor.send({ type: 'finish.requested' });
    expect(connect(actor.getSnapshot(), vi.fn()).exam.confirmingFinish).toBe(true);
  });

  it('keeps the same handlers and the same answers object while only the question changes', () => {
    const actor = answering();
    actor.send({ type: 'answer.given', questionId: 101, value: 'a' });
    const send = vi.fn();
    const before = connect(actor.getSnapshot(), send, positionLink(actor)).exam;
    positionOf(actor).send({ type: 'question.next' });
    const after = connect(actor.getSnapshot(), send, positionLink(actor)).exam;
    expect(after.index).toBe(1);
    expect(after.answers).toBe(before.answers);
    expect(after.next).toBe(before.next);
    expect(after.answer).toBe(before.answer);
    actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    expect(connect(actor.getSnapshot(), send).exam.answers).not.toBe(before.answers);
  });

  it('has no retry dialog while no call waits in the retry machine', () => {
    expect(connect(answering().getSnapshot(), vi.fn()).retryDialog).toBeNull();
  });
});

describe('exam-end', () => {
  it('a completed exam: sent, and "Log out" leaves through the exam', () => {
    const actor = examActor();
    actor.send({ type: 'INIT_TEST' });
    actor.send({ type: 'xstate.done.actor.loadExamDetails', output: { ok: true, value: { ...details, status: 3 } } } as never);
    const { sent, send } = recorder();
    const api = connect(actor.getSnapshot(), send).examEnd;
    expect(api).toMatchObject({ outcome: 'sent', receipt: null, errorCode: null });
    api.logout();
    expect(sent).toEqual([{ type: 'logout.requested' }]);
  });

  it('without an exam (rule 5): cancelled, the stored code, "Log out" to the login page', () => {
    const goToLogin = vi.fn();
    const api = examEndWithoutExam('INCORRECT_DEVICE', goToLogin);
    expect(api).toMatchObject({ outcome: 'cancelled', receipt: null, errorCode: 'INCORRECT_DEVICE' });
    api.logout();
    expect(goToLogin).toHaveBeenCalledOnce();
  });
});
