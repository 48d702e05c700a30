/**
 * machines/exam/exam.connect.ts screen by screen, over snapshots of the exam machine driven by
 * hand (its calls never answer; the test answers them): login-confirm's three statuses, the
 * tutorial's points, the start screen's error, the exam screen while loading, failed and
 * finishing, and the end screen's receipt and code. test/view/exam-connect.test.ts holds the
 * answering screen's callbacks and what stays the same object.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorLogic } from 'xstate';
import type { ExamDetails } from '../../contract/exam.ts';
import type { ExamineeSession } from '../../contract/session.ts';
import { connect } from '../../machines/exam/exam.connect.ts';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import type { ExamEvent } from '../../machines/exam/exam.types.ts';
import { demoQuestions } from '../helpers/fake-api.ts';
import { never } from '../helpers/never.ts';

const NOW = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const details = (status: number): ExamDetails =>
  ({
    schedule_history_id: 7, examinee_name: 'Aiko Tanaka', subject: { id: 1, name: 'English' }, level: { id: 1, name: 'Level 1' },
    exam: { id: 1, title: 'English 1', question_count: 12, time_limit_seconds: 1_770 }, status, started_at: null,
    deadline_at: null, server_time: iso(NOW),
  }) as ExamDetails;

function examActor() {
  const calls = ['loadExamDetails', 'startExam', 'loadQuestions', 'storeAnswer', 'saveAnswer', 'flushAnswers', 'finishExam', 'sendHeartbeat', 'loadServerAnswers', 'loadUnsentAnswers'];
  const machine = examMachine.provide({
    actors: { ...Object.fromEntries(calls.map((name) => [name, never()])), tutorial: never() as AnyActorLogic } as never,
    actions: { reportProgress: () => {}, reportCompleted: () => {}, reportFinishing: () => {}, reportMovedAway: () => {}, requestLogout: () => {}, reportUnauthorized: () => {}, requestLogoutWithError: () => {} },
  });
  const session = {
    schedule_history_id: 7, uuid: '0f8fad5b-d9cb-469f-a165-70867728950e', question_index: 0, question_list_flag: false,
    flagged_question_ids: [], alphabets_keyboard_flag: true, mode_upper_case_flag: false,
  } as unknown as ExamineeSession;
  const actor = createActor(machine, { input: { session } }).start();
  const done = (id: string, output: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
  const failed = (id: string, error: unknown) => actor.send({ type: `xstate.error.actor.${id}`, error } as never);
  const api = () => connect(actor.getSnapshot(), () => {});
  return { actor, done, failed, api, send: (event: ExamEvent) => actor.send(event) };
}

function toLoadingQuestions() {
  const exam = examActor();
  exam.send({ type: 'INIT_TEST' });
  exam.done('loadExamDetails', { ok: true, value: details(0) });
  exam.send({ type: 'identity.confirmed' });
  exam.send({ type: 'tutorial.completed' });
  exam.send({ type: 'start.confirmed' });
  exam.done('startExam', { status: 6, started_at: iso(NOW), deadline_at: iso(NOW + 1_800_000), server_time: iso(NOW) });
  return exam;
}

const loaded = { questions: demoQuestions, answers: [], unsent: [], deadline_at: iso(NOW + 1_800_000), server_time: iso(NOW) };

describe('exam connect, screen by screen', () => {
  it('login-confirm: loading, ready with the details, error with its code', () => {
    const exam = examActor();
    exam.send({ type: 'INIT_TEST' });
    expect(exam.api().loginConfirm).toMatchObject({ status: 'loading', details: null, error: null });
    exam.done('loadExamDetails', { ok: false, error: 'TIMEOUT' });
    expect(exam.api().loginConfirm).toMatchObject({ status: 'error', error: 'TIMEOUT' });
    exam.send({ type: 'retry.requested' });
    exam.done('loadExamDetails', { ok: true, value: details(0) });
    expect(exam.api().loginConfirm).toMatchObject({ status: 'ready', details: details(0), error: null });
  });

  it('the tutorial\'s points: the exam\'s number of questions and its minutes; none before the details', () => {
    const exam = examActor();
    expect(exam.api().tutorial).toMatchObject({ questionCount: null, timeLimitMinutes: 40 });
    exam.send({ type: 'INIT_TEST' });
    exam.done('loadExamDetails', { ok: true, value: details(0) });
    expect(exam.api().tutorial).toMatchObject({ questionCount: 12, timeLimitMinutes: 30 });
    const sent: ExamEvent[] = [];
    connect(exam.actor.getSnapshot(), (event) => void sent.push(event)).tutorial.complete();
    expect(sent).toEqual([{ type: 'tutorial.completed' }]);
  });

  it('the start screen: busy while Start waits, the code of a failed Start', () => {
    const exam = examActor();
    exam.send({ type: 'INIT_TEST' });
    exam.done('loadExamDetails', { ok: true, value: details(0) });
    exam.send({ type: 'identity.confirmed' });
    exam.send({ type: 'tutorial.completed' });
    expect(exam.api().examStart).toMatchObject({ busy: false, error: null, timeLimitMinutes: 30 });
    exam.send({ type: 'start.confirmed' });
    expect(exam.api().examStart.busy).toBe(true);
    exam.failed('startExam', { code: 'GENERIC_ERROR' });
    expect(exam.api().examStart).toMatchObject({ busy: false, error: 'GENERIC_ERROR' });
    // Start's failure is the start screen's: the exam screen has none to show.
    expect(exam.api().exam.error).toBeNull();
  });

  it('the exam screen: loading with no deadline yet; failed questions say why; answering; finishing, and a failed finish', () => {
    const exam = examActor();
    expect(exam.api().exam).toMatchObject({ status: 'loading', deadlineAt: 0, error: null, timeLimitSeconds: 2_400 });
    const questions = toLoadingQuestions();
    expect(questions.api().exam).toMatchObject({ status: 'loading', deadlineAt: NOW + 1_800_000, error: null });
    questions.done('loadQuestions', { ok: false, error: 'NETWORK_ERROR' });
    expect(questions.api().exam).toMatchObject({ status: 'loading', error: 'NETWORK_ERROR' });
    questions.send({ type: 'retry.requested' });
    questions.done('loadQuestions', { ok: true, value: loaded });
    expect(questions.api().exam).toMatchObject({ status: 'answering', error: null, questions: demoQuestions, index: 0, confirmingFinish: false });
    questions.send({ type: 'finish.requested' });
    expect(questions.api().exam.confirmingFinish).toBe(true);
    questions.send({ type: 'finish.confirmed' });
    expect(questions.api().exam).toMatchObject({ status: 'finishing', error: null, confirmingFinish: false });
    questions.done('finishExam', { ok: false, error: 'GENERIC_ERROR' });
    expect(questions.api().exam).toMatchObject({ status: 'finishing', error: 'GENERIC_ERROR' });
  });

  it('the end screen: the receipt as the server gave it; the code only when cancelled', () => {
    const exam = toLoadingQuestions();
    exam.done('loadQuestions', { ok: true, value: loaded });
    exam.send({ type: 'finish.requested' });
    exam.send({ type: 'finish.confirmed' });
    exam.done('finishExam', { ok: true, value: { status: 1, answer_count: 3, digest: 'ab12', finished_at: iso(NOW), server_time: iso(NOW) } });
    expect(exam.api().examEnd).toMatchObject({ outcome: 'sent', receipt: { answer_count: 3, digest: 'ab12' }, errorCode: null });
    expect(Object.keys(exam.api().examEnd.receipt!)).toEqual(['answer_count', 'digest']);

    const cancelled = toLoadingQuestions();
    cancelled.send({ type: 'FINISH_WITH_ERROR', code: 'ER_SCHEDULE_HISTORY_CANCELLED' });
    expect(cancelled.api().examEnd).toMatchObject({ outcome: 'cancelled', receipt: null, errorCode: 'ER_SCHEDULE_HISTORY_CANCELLED', movedAway: null });

    // Another terminal holds the sitting (a proctor moved the pupil there): not cancelled.
    const moved = toLoadingQuestions();
    moved.send({ type: 'FINISH_WITH_ERROR', code: 'INCORRECT_DEVICE' });
    expect(moved.api().examEnd).toMatchObject({ outcome: 'sent', errorCode: null, movedAway: { waiting: 0, refused: 0 }, canLogout: false });

    // A failure that is not a cancellation is not the end screen's to say.
    const failedStart = examActor();
    failedStart.send({ type: 'INIT_TEST' });
    failedStart.done('loadExamDetails', { ok: false, error: 'TIMEOUT' });
    expect(failedStart.api().examEnd).toMatchObject({ outcome: 'sent', errorCode: null });
  });
});
