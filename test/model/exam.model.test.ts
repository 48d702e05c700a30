/**
 * The exam machine walked transition by transition: INIT_TEST to FINISH or FINISH_WITH_ERROR,
 * every async outcome and timer as an explicit event of the path.
 */
import { expect } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import type { AnswerToSave, ExamContext } from '../../machines/exam/exam.types.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import type {
  ExamDetails,
  ExamQuestions,
  FinishExamResponse,
  StartExamResponse,
} from '../../src/shared/contract.ts';
import { demoExaminee, demoQuestions } from '../helpers/fake-api.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

const now = '2026-11-22T09:00:00.000Z';
const deadline = '2026-11-22T09:40:00.000Z';

const details = (status: ExamDetails['status']): ExamDetails => ({
  schedule_history_id: 7,
  examinee_name: 'Aiko Tanaka',
  subject: { id: 1, name: 'English' },
  level: { id: 1, name: 'Level 1' },
  exam: { id: 1, title: 'English 1', question_count: 3, time_limit_seconds: 2400 },
  status,
  started_at: status === 0 ? null : now,
  deadline_at: status === 0 ? null : deadline,
  server_time: now,
});
const started: StartExamResponse = { status: 6, started_at: now, deadline_at: deadline, server_time: now };
const questions: ExamQuestions = {
  questions: demoQuestions,
  answers: [{ question_id: 103, value: 'a', answered_at: now }],
  deadline_at: deadline,
  server_time: now,
};
const receipt: FinishExamResponse = { status: 1, answer_count: 2, digest: 'ab'.repeat(32), finished_at: now, server_time: now };

const failure = (type: string, ...codes: Array<[ApiFailure['code'], number?]>): AnyEventObject[] =>
  codes.map(([code, status]) => ({ type, error: new ApiFailure(code, status) }));

function pending(snapshot: AnyMachineSnapshot): AnswerToSave[] {
  const context = snapshot.context as ExamContext;
  return context.questions.flatMap((q) => {
    const entry = context.answers[q.id];
    return entry?.status === 'pending'
      ? [{ scheduleHistoryId: 7, questionId: q.id, value: entry.value, key: entry.key, answeredAt: entry.answeredAt }]
      : [];
  });
}

const machine = examMachine.provide({
  actors: {
    loadExamDetails: never(),
    startExam: never(),
    loadQuestions: never(),
    saveAnswer: never(),
    flushAnswers: never(),
    finishExam: never(),
  },
  actions: { reportProgress: () => {}, reportCompleted: () => {}, requestLogout: () => {}, reportUnauthorized: () => {} },
});

const session = sessionFromLogin(
  { access_token: 'token-1', examinee: demoExaminee, server_time: now },
  '0f0e0d0c-0b0a-4908-8706-050403020100',
);

describeModel({
  name: 'exam',
  machine,
  inputs: [{ session }],
  samples: {
    'xstate.done.actor.loadExamDetails': [0, 6, 1].map((status) => ({
      type: 'xstate.done.actor.loadExamDetails',
      output: details(status as ExamDetails['status']),
    })),
    'xstate.error.actor.loadExamDetails': failure('xstate.error.actor.loadExamDetails', ['NOT_LOGGED_IN', 401], ['NETWORK_ERROR']),
    'xstate.done.actor.startExam': [{ type: 'xstate.done.actor.startExam', output: started }],
    'xstate.error.actor.startExam': failure('xstate.error.actor.startExam', ['NOT_LOGGED_IN', 401], ['TIMEOUT']),
    'xstate.done.actor.loadQuestions': [{ type: 'xstate.done.actor.loadQuestions', output: questions }],
    'xstate.error.actor.loadQuestions': failure(
      'xstate.error.actor.loadQuestions',
      ['NOT_LOGGED_IN', 401],
      ['ER_SCHEDULE_HISTORY_COMPLETED', 403],
      ['NETWORK_ERROR'],
    ),
    'answer.given': [
      { type: 'answer.given', questionId: 101, value: 'a' },
      { type: 'answer.given', questionId: 999, value: 'x' },
    ],
    'question.selected': [
      { type: 'question.selected', index: 2 },
      { type: 'question.selected', index: 99 },
    ],
    'xstate.done.actor.saveAnswer': (snapshot) =>
      pending(snapshot).slice(0, 1).map((answer) => ({
        type: 'xstate.done.actor.saveAnswer',
        output: { key: answer.key, serverTime: now },
      })),
    'xstate.error.actor.saveAnswer': failure('xstate.error.actor.saveAnswer', ['NOT_LOGGED_IN', 401], ['TIME_END', 403], ['NETWORK_ERROR']),
    'xstate.done.actor.flushAnswers': (snapshot) => [
      { type: 'xstate.done.actor.flushAnswers', output: pending(snapshot).map((answer) => answer.key) },
    ],
    'xstate.error.actor.flushAnswers': failure('xstate.error.actor.flushAnswers', ['NOT_LOGGED_IN', 401], ['NETWORK_ERROR']),
    'xstate.done.actor.finishExam': [{ type: 'xstate.done.actor.finishExam', output: receipt }],
    'xstate.error.actor.finishExam': failure(
      'xstate.error.actor.finishExam',
      ['NOT_LOGGED_IN', 401],
      ['ER_SCHEDULE_HISTORY_CANCELLED', 403],
      ['NETWORK_ERROR'],
    ),
    FINISH_WITH_ERROR: [{ type: 'FINISH_WITH_ERROR', code: 'ER_SCHEDULE_HISTORY_CANCELLED' }],
    'xstate.route': [
      { type: 'xstate.route', to: '#examConfirming' },
      { type: 'xstate.route', to: '#examTutorial' },
    ],
  },
  contextKey: (context) => {
    const c = context as unknown as ExamContext;
    return {
      index: c.questionIndex,
      loaded: c.questions.length,
      answers: Object.fromEntries(Object.entries(c.answers).map(([id, a]) => [id, a.status])),
      error: c.error,
      outcome: c.outcome,
    };
  },
  invariants: (snapshot) => {
    const context = snapshot.context as ExamContext;
    // Once started, the deadline is known wherever questions are shown.
    if (snapshot.matches('answering')) expect(context.deadlineAt).not.toBeNull();
    // Saved answers are only those the server acknowledged: never more than were given.
    expect(Object.keys(context.answers).length).toBeLessThanOrEqual(demoQuestions.length);
    // The question index stays within the exam.
    if (context.questions.length) expect(context.questionIndex).toBeLessThan(context.questions.length);
  },
});
