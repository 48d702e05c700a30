/**
 * The exam machine's top states driven by hand, outside the model walk (test/model/exam.model.test.ts):
 * its calls never answer (the test answers them), its edge actions are recorded, and it runs under
 * a parent that records what it reports (progress, completion, logout, unauthorized). From
 * INIT_TEST through the details (each status and each failure), login-confirm, the tutorial,
 * Start, the questions (merged with the outbox), the answering region's own events, to the end.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, SimulatedClock, toPromise, type AnyActorLogic, type AnyActorRef, type AnyEventObject } from 'xstate';
import type { ExamDetails } from '../../contract/exam.ts';
import type { ExamineeSession } from '../../contract/session.ts';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { answerKey } from '../../machines/exam/exam.rules.ts';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import { PRESENCE_INTERVAL_MS } from '../../contract/presence.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import type { ExamContext, ExamEvent } from '../../machines/exam/exam.types.ts';
import type { PositionEvent } from '../../machines/position/position.types.ts';
import { demoQuestions } from '../helpers/fake-api.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';

const NOW = Date.parse('2026-11-22T09:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const seed = '0f8fad5b-d9cb-469f-a165-70867728950e';
const details = (status: number, overrides: Partial<ExamDetails> = {}): ExamDetails =>
  ({
    schedule_history_id: 7, examinee_name: 'Aiko Tanaka', subject: { id: 1, name: 'English' }, level: { id: 1, name: 'Level 1' },
    exam: { id: 1, title: 'English 1', question_count: 3, time_limit_seconds: 1_800 }, status, started_at: null,
    deadline_at: null, server_time: iso(NOW + 2_000), ...overrides,
  }) as ExamDetails;

const session = (overrides: Partial<ExamineeSession> = {}) =>
  ({
    schedule_history_id: 7, uuid: seed, question_index: 2, question_list_flag: true, flagged_question_ids: [102],
    alphabets_keyboard_flag: false, mode_upper_case_flag: true, ...overrides,
  }) as unknown as ExamineeSession;

type Recorded = { name: string; params?: unknown };

function start(input = session(), clock?: SimulatedClock) {
  const actions: Recorded[] = [];
  const record = (name: string) => (_: unknown, params?: unknown) => void actions.push(params === undefined ? { name } : { name, params });
  const inputs: Record<string, unknown[]> = {};
  /** A call that never answers and records the input it was given (typed as whichever call it stands for). */
  const watched = (name: string): never =>
    fromPromise<never, unknown>(({ input: given }) => {
      (inputs[name] ??= []).push(given);
      return new Promise<never>(() => {});
    }) as never;
  const machine = examMachine.provide({
    actors: {
      loadExamDetails: watched('loadExamDetails'), startExam: watched('startExam'), loadQuestions: watched('loadQuestions'),
      storeAnswer: watched('storeAnswer'), saveAnswer: watched('saveAnswer'), flushAnswers: watched('flushAnswers'), loadUnsentAnswers: watched('loadUnsentAnswers'),
      finishExam: watched('finishExam'), sendHeartbeat: watched('sendHeartbeat'), loadServerAnswers: watched('loadServerAnswers'), tutorial: createMachine({}) as never,
    },
    actions: {
      requestFullscreen: record('requestFullscreen'), reportFocusLoss: record('reportFocusLoss'), removeFromOutbox: record('removeFromOutbox'),
      cacheExam: record('cacheExam'), cachePosition: record('cachePosition'), clearExamCache: record('clearExamCache'),
    },
  });
  const reported: AnyEventObject[] = [];
  const parent = createActor(
    createMachine({
      invoke: { id: 'exam', src: machine, input: { session: input } },
      on: { '*': { actions: ({ event }) => void (event.type.startsWith('exam.') && reported.push(event)) } },
    }),
    clock ? { clock } : {},
  ).start();
  const exam = parent.getSnapshot().children.exam as AnyActorRef;
  const context = () => (exam.getSnapshot() as { context: ExamContext }).context;
  const send = (event: ExamEvent) => exam.send(event);
  /** The exam's position child, where the screen sends moves and toggles (while answering). */
  const position = () => positionOf(exam);
  const move = (event: PositionEvent) => position().send(event);
  const done = (id: string, output: unknown) => exam.send({ type: `xstate.done.actor.${id}`, output });
  const failed = (id: string, error: unknown) => exam.send({ type: `xstate.error.actor.${id}`, error });
  const clear = () => {
    actions.length = 0;
    reported.length = 0;
  };
  return { exam, context, send, position, move, done, failed, actions, reported, inputs, clear };
}

type Exam = ReturnType<typeof start>;

const valueOf = (exam: Exam) => (exam.exam.getSnapshot() as { value: unknown }).value;
const matches = (exam: Exam, state: unknown) => (exam.exam.getSnapshot() as { matches(s: unknown): boolean }).matches(state);

function toConfirming(status = 0) {
  const exam = start();
  exam.send({ type: 'INIT_TEST' });
  exam.done('loadExamDetails', { ok: true, value: details(status) });
  return exam;
}

function toAnswering(loaded: Record<string, unknown> = {}, clock?: SimulatedClock) {
  const exam = start(session(), clock);
  exam.send({ type: 'INIT_TEST' });
  exam.done('loadExamDetails', { ok: true, value: details(0) });
  exam.send({ type: 'identity.confirmed' });
  exam.send({ type: 'tutorial.completed' });
  exam.send({ type: 'start.confirmed' });
  exam.done('startExam', { status: 6, started_at: iso(NOW), deadline_at: iso(NOW + 1_800_000), server_time: iso(NOW + 1_000) });
  exam.done('loadQuestions', {
    ok: true,
    value: { questions: demoQuestions, answers: [], unsent: [], deadline_at: iso(NOW + 1_800_000), server_time: iso(NOW + 1_000), ...loaded },
  });
  return exam;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('before Start', () => {
  it('starts idle with what the stored session kept of the pupil\'s screen', () => {
    const exam = start();
    expect(valueOf(exam)).toBe('idle');
    expect(exam.context()).toMatchObject({
      scheduleHistoryId: 7, answerSeed: seed, revision: 0, questionIndex: 2, details: null, questions: [], answers: {},
      deadlineAt: null, startedAt: null, visible: true, saveAttempts: 0, clockOffsetMs: 0, error: null, receipt: null, outcome: null,
      focusLosses: 0,
    });
    expect(exam.context().view).toEqual({ listOpen: true, flagged: [102], keyboardOpen: false, upperCase: true });
    const bare = start(session({ schedule_history_id: null, flagged_question_ids: undefined } as never));
    expect(bare.context()).toMatchObject({ scheduleHistoryId: 0, view: { flagged: [] } });
  });

  it('INIT_TEST loads the details in the retry machine (checkConnection) with the sitting and its owner', () => {
    const exam = start();
    exam.send({ type: 'INIT_TEST' });
    expect(valueOf(exam)).toBe('loadingDetails');
    expect((exam.exam.getSnapshot() as { hasTag(t: string): boolean }).hasTag('busy')).toBe(true);
    expect(exam.inputs.loadExamDetails).toEqual([{ variant: 'checkConnection', input: { scheduleHistoryId: 7, owner: seed } }]);
  });

  it('details not started: login-confirm with the details, the clock offset and no start time', () => {
    const exam = toConfirming(0);
    expect(valueOf(exam)).toBe('confirming');
    expect(exam.context()).toMatchObject({ details: details(0), clockOffsetMs: 2_000, startedAt: null });
  });

  it('details of a running exam: straight to its questions, with when it started', () => {
    const exam = start();
    exam.send({ type: 'INIT_TEST' });
    exam.done('loadExamDetails', { ok: true, value: details(6, { started_at: iso(NOW - 60_000) }) });
    expect(valueOf(exam)).toBe('loadingQuestions');
    expect(exam.context().startedAt).toBe(NOW - 60_000);
    expect(exam.inputs.loadQuestions).toEqual([{ variant: 'checkConnection', input: { scheduleHistoryId: 7, owner: seed } }]);
  });

  it('details of a completed exam: the end screen, sent, and the kiosk told it is completed', () => {
    for (const status of [1, 2, 3, 5]) {
      const exam = start();
      exam.send({ type: 'INIT_TEST' });
      exam.done('loadExamDetails', { ok: true, value: details(status) });
      expect(valueOf(exam), String(status)).toBe('finished');
      expect(exam.context()).toMatchObject({ outcome: 'sent', details: details(status) });
      expect(exam.reported).toEqual([{ type: 'exam.progressed', change: { is_completed: true, error_code: null } }]);
      expect(exam.actions).toEqual([{ name: 'clearExamCache' }]);
    }
  });

  it('details that failed: the failure shown, Try again loads again, No logs out', () => {
    const exam = start();
    exam.send({ type: 'INIT_TEST' });
    exam.done('loadExamDetails', { ok: false, error: 'TIMEOUT' });
    expect(valueOf(exam)).toBe('detailsFailed');
    expect(exam.context().error).toBe('TIMEOUT');
    exam.send({ type: 'retry.requested' });
    expect(valueOf(exam)).toBe('loadingDetails');
    expect(exam.context().error).toBeNull();
    exam.done('loadExamDetails', { ok: false, error: 'GENERIC_ERROR' });
    exam.send({ type: 'identity.rejected' });
    expect(valueOf(exam)).toBe('leaving');
    expect(exam.reported).toEqual([{ type: 'exam.logoutRequested' }]);
    expect(exam.actions).toEqual([{ name: 'clearExamCache' }]);
  });

  it('a call\'s ending failure raises its exam-level event', () => {
    const cases = [
      ['NOT_LOGGED_IN', 'unauthorized', [{ type: 'exam.unauthorized' }]],
      ['ER_SCHEDULE_HISTORY_RETAKE', 'retake', [{ type: 'exam.logoutRequested', errorCode: 'ER_SCHEDULE_HISTORY_RETAKE' }]],
      ['DURING_MAINTENANCE', 'maintenance', [{ type: 'exam.logoutRequested', errorCode: 'DURING_MAINTENANCE' }]],
    ] as const;
    for (const [code, state, reported] of cases) {
      const exam = start();
      exam.send({ type: 'INIT_TEST' });
      exam.done('loadExamDetails', { ok: false, error: code });
      expect(valueOf(exam), code).toBe(state);
      expect(exam.reported, code).toEqual(reported);
      expect(exam.actions, code).toEqual([{ name: 'clearExamCache' }]);
    }
  });

  it('INCORRECT_DEVICE on loading (a proctor moved the pupil away; the details or the questions): the outbox is read and sent first, nothing is completed or forgotten', () => {
    for (const id of ['loadExamDetails', 'loadQuestions'] as const) {
      const exam = start();
      exam.send({ type: 'INIT_TEST' });
      if (id === 'loadQuestions') exam.done('loadExamDetails', { ok: true, value: details(6) });
      exam.clear();
      exam.done(id, { ok: false, error: 'INCORRECT_DEVICE' });
      expect(valueOf(exam), id).toEqual({ movedAway: 'reading' });
      expect(exam.inputs.loadUnsentAnswers, id).toEqual([{ scheduleHistoryId: 7 }]);
      // Only the move is kept in the stored session (a reload comes back to this end).
      expect(exam.reported, id).toEqual([{ type: 'exam.progressed', change: { moved_away_refused: 0 } }]);
      expect(exam.actions, id).toEqual([]);
      expect(exam.context().outcome, id).toBeNull();
    }
  });

  it('login-confirm: No logs out; Yes runs the tutorial with the exam\'s number of questions and time limit', () => {
    const no = toConfirming();
    no.send({ type: 'identity.rejected' });
    expect(valueOf(no)).toBe('leaving');
    const exam = toConfirming();
    exam.send({ type: 'identity.confirmed' });
    expect(valueOf(exam)).toBe('tutorial');
    const child = (exam.exam.getSnapshot() as { children: Record<string, AnyActorRef> }).children.tutorial;
    expect(child).toBeDefined();
    exam.send({ type: 'tutorial.completed' });
    expect(valueOf(exam)).toBe('ready');
  });

  it('Start asks for fullscreen, waits for the server, then takes its deadline and loads the questions', () => {
    const exam = toConfirming();
    exam.send({ type: 'identity.confirmed' });
    exam.send({ type: 'tutorial.completed' });
    exam.clear();
    exam.send({ type: 'start.confirmed' });
    expect(valueOf(exam)).toBe('starting');
    expect(exam.actions).toEqual([{ name: 'requestFullscreen' }]);
    expect(exam.inputs.startExam).toEqual([{ scheduleHistoryId: 7 }]);
    exam.failed('startExam', { code: 'TIMEOUT' });
    expect(valueOf(exam)).toBe('ready');
    expect(exam.context().error).toBe('TIMEOUT');
    exam.send({ type: 'start.confirmed' });
    expect(exam.context().error).toBeNull();
    exam.done('startExam', { status: 6, started_at: iso(NOW), deadline_at: iso(NOW + 1_800_000), server_time: iso(NOW + 3_000) });
    expect(valueOf(exam)).toBe('loadingQuestions');
    expect(exam.context()).toMatchObject({
      deadlineAt: NOW + 1_800_000, startedAt: NOW, clockOffsetMs: 3_000, questionIndex: 0, view: { keyboardOpen: true, upperCase: false },
    });
    expect(exam.reported).toEqual([
      {
        type: 'exam.progressed',
        change: { question_index: 0, question_list_flag: true, flagged_question_ids: [102], alphabets_keyboard_flag: true, mode_upper_case_flag: false },
      },
    ]);
  });

  it('Start refused for a reason that ends the flow: that event', () => {
    const exam = toConfirming();
    exam.send({ type: 'identity.confirmed' });
    exam.send({ type: 'tutorial.completed' });
    exam.send({ type: 'start.confirmed' });
    exam.failed('startExam', { code: 'INCORRECT_DEVICE' });
    expect(valueOf(exam)).toBe('finished');
    expect(exam.context()).toMatchObject({ outcome: 'cancelled', error: 'INCORRECT_DEVICE' });
  });
});

describe('loading the questions', () => {
  function loading() {
    const exam = start(session({ question_index: 9 } as never));
    exam.send({ type: 'INIT_TEST' });
    exam.done('loadExamDetails', { ok: true, value: details(6) });
    return exam;
  }

  it('already finished on the server: the end screen; failed: Try again; ending: its event', () => {
    const over = loading();
    over.done('loadQuestions', { ok: false, error: 'ER_SCHEDULE_HISTORY_COMPLETED' });
    expect(valueOf(over)).toBe('finished');
    expect(over.context().outcome).toBe('sent');
    const failed = loading();
    failed.done('loadQuestions', { ok: false, error: 'NETWORK_ERROR' });
    expect(valueOf(failed)).toBe('questionsFailed');
    expect(failed.context().error).toBe('NETWORK_ERROR');
    failed.send({ type: 'retry.requested' });
    expect(valueOf(failed)).toBe('loadingQuestions');
    expect(failed.context().error).toBeNull();
    const ending = loading();
    ending.done('loadQuestions', { ok: false, error: 'NOT_LOGGED_IN' });
    expect(valueOf(ending)).toBe('unauthorized');
  });

  it('answers: the server\'s and the outbox\'s merged, keys after the server\'s time, the question on screen kept within the exam', () => {
    const exam = loading();
    const serverTime = NOW + 5_000;
    exam.done('loadQuestions', {
      ok: true,
      value: {
        questions: demoQuestions,
        answers: [{ question_id: 101, value: 'a', answered_at: iso(NOW - 10_000) }],
        unsent: [
          { scheduleHistoryId: 7, questionId: 102, value: 'cold', key: 'u1', answeredAt: iso(NOW - 5_000) },
          { scheduleHistoryId: 7, questionId: 101, value: 'b', key: 'old', answeredAt: iso(NOW - 20_000) },
        ],
        deadline_at: iso(NOW + 1_200_000),
        server_time: iso(serverTime),
        keptClockOffsetMs: 4_000,
      },
    });
    expect(matches(exam, 'answering')).toBe(true);
    expect(exam.context()).toMatchObject({
      questions: demoQuestions,
      answers: {
        101: { value: 'a', status: 'saved', key: answerKey(seed, serverTime + 1) },
        102: { value: 'cold', status: 'local', key: 'u1' },
      },
      revision: serverTime + 1,
      deadlineAt: NOW + 1_200_000,
      clockOffsetMs: 4_000,
      questionIndex: 2,
    });
    expect(exam.actions).toEqual([{ name: 'removeFromOutbox', params: { keys: ['old'] } }, { name: 'cacheExam' }]);
  });

  it('without a kept offset, the offset is the server\'s time; no stale keys, nothing removed', () => {
    const exam = loading();
    exam.done('loadQuestions', {
      ok: true, value: { questions: [], answers: [], unsent: [], deadline_at: iso(NOW + 1_200_000), server_time: iso(NOW - 1_500) },
    });
    expect(exam.context()).toMatchObject({ clockOffsetMs: -1_500, questionIndex: 0 });
    expect(exam.actions).toEqual([{ name: 'cacheExam' }]);
  });
});

describe('answering', () => {
  it('an answer to a question of the exam is written with a new key and the time on the server\'s clock', () => {
    const exam = toAnswering();
    const revision = exam.context().revision;
    exam.send({ type: 'answer.given', questionId: 999, value: 'x' });
    expect(exam.context().answers[999]).toBeUndefined();
    exam.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    expect(exam.context().answers[102]).toEqual({ value: 'cold', answeredAt: iso(NOW + 1_000), key: answerKey(seed, revision + 1), status: 'writing' });
    expect(exam.context().revision).toBe(revision + 1);
  });

  it('moves between questions within the exam, reporting and caching the last once the pupil pauses', () => {
    const clock = new SimulatedClock();
    const exam = toAnswering({}, clock);
    const onScreen = () => exam.position().getSnapshot().context.questionIndex;
    exam.clear();
    exam.move({ type: 'question.previous' });
    expect(onScreen()).toBe(0);
    exam.move({ type: 'question.next' });
    exam.move({ type: 'question.next' });
    exam.move({ type: 'question.next' });
    expect(onScreen()).toBe(2);
    exam.move({ type: 'question.previous' });
    expect(onScreen()).toBe(1);
    for (const index of [-1, 3, 1.5]) exam.move({ type: 'question.selected', index });
    expect(onScreen()).toBe(1);
    exam.move({ type: 'question.selected', index: 0 });
    exam.move({ type: 'question.selected', index: 2 });
    expect(onScreen()).toBe(2);
    // Neither reported nor cached on a swap: the exam still holds the position last reported.
    expect(exam.actions).toEqual([]);
    expect(exam.context().questionIndex).toBe(0);
    // A burst of moves is one report and one cache write, once the pupil pauses (not on any swap's frame):
    // moves came during the first pause, so it starts again, and the report comes when the second ends.
    expect(exam.reported).toEqual([]);
    clock.increment(POSITION_PAUSE_MS);
    expect(exam.reported).toEqual([]);
    expect(exam.actions).toEqual([]);
    clock.increment(POSITION_PAUSE_MS);
    expect(exam.reported.map((e) => (e as unknown as { change: { question_index: number } }).change.question_index)).toEqual([2]);
    expect(exam.actions).toEqual([{ name: 'cachePosition' }]);
    expect(exam.context().questionIndex).toBe(2);
  });

  it('the list, the keyboard and its capitals toggle (reported with the next flag, or after the pause); a flag on a question of the exam toggles, reported at once', () => {
    const clock = new SimulatedClock();
    const exam = toAnswering({}, clock);
    exam.clear();
    exam.move({ type: 'questionList.toggled' });
    exam.move({ type: 'keyboard.toggled' });
    exam.move({ type: 'upperCase.toggled' });
    expect(exam.reported).toEqual([]);
    exam.move({ type: 'question.flagged', questionId: 999 });
    expect(exam.reported).toEqual([]);
    exam.move({ type: 'question.flagged', questionId: 103 });
    expect(exam.reported).toHaveLength(1);
    expect(exam.context().view).toMatchObject({ listOpen: false, keyboardOpen: false, upperCase: true, flagged: [102, 103] });
    exam.move({ type: 'question.flagged', questionId: 102 });
    expect(exam.context().view.flagged).toEqual([103]);
    clock.increment(POSITION_PAUSE_MS);
    expect(exam.reported).toHaveLength(2);
    expect(exam.reported.at(-1)).toEqual({
      type: 'exam.progressed',
      change: { question_index: 0, question_list_flag: false, flagged_question_ids: [103], alphabets_keyboard_flag: false, mode_upper_case_flag: true },
    });
  });

  it('counts focus losses and reports each with the count and the server\'s time', () => {
    const exam = toAnswering();
    exam.clear();
    exam.send({ type: 'focus.lost' });
    exam.send({ type: 'focus.lost' });
    expect(exam.context().focusLosses).toBe(2);
    expect(exam.actions).toEqual([
      { name: 'reportFocusLoss', params: { scheduleHistoryId: 7, count: 1, at: iso(NOW + 1_000) } },
      { name: 'reportFocusLoss', params: { scheduleHistoryId: 7, count: 2, at: iso(NOW + 1_000) } },
    ]);
  });

  it('the finish dialog opens, cancels, and confirms to finishing', () => {
    const exam = toAnswering();
    exam.send({ type: 'finish.confirmed' });
    expect(matches(exam, 'answering')).toBe(true);
    exam.send({ type: 'finish.requested' });
    expect(matches(exam, { answering: { view: 'confirmingFinish' } })).toBe(true);
    exam.send({ type: 'finish.cancelled' });
    expect(matches(exam, { answering: { view: 'working' } })).toBe(true);
    exam.send({ type: 'finish.requested' });
    exam.send({ type: 'finish.confirmed' });
    expect(matches(exam, 'finishing')).toBe(true);
  });

  it('at 00:00 on the server\'s clock the exam finishes by itself; a tick before changes nothing', () => {
    const exam = toAnswering();
    // Deadline NOW + 30 min on the server's clock, which is 1 s ahead of this terminal's.
    exam.send({ type: 'clock.ticked', now: NOW + 1_800_000 - 1_001 });
    expect(matches(exam, 'answering')).toBe(true);
    exam.send({ type: 'clock.ticked', now: NOW + 1_800_000 - 1_000 });
    expect(matches(exam, 'finishing')).toBe(true);
  });

  it('an administrator\'s reset or maintenance ends it from anywhere; the end screen logs out', () => {
    const reset = toAnswering();
    reset.send({ type: 'UPDATE_FLAG_RETAKE' });
    expect(valueOf(reset)).toBe('retake');
    expect(reset.context().error).toBe('ER_SCHEDULE_HISTORY_RETAKE');
    const maintenance = toAnswering();
    maintenance.send({ type: 'DURING_MAINTENANCE' });
    expect(valueOf(maintenance)).toBe('maintenance');
    expect(maintenance.context().error).toBe('DURING_MAINTENANCE');
    const unauthorized = toAnswering();
    unauthorized.send({ type: 'UNAUTHORIZED' });
    expect(valueOf(unauthorized)).toBe('unauthorized');
    const cancelled = toAnswering();
    cancelled.send({ type: 'FINISH_WITH_ERROR', code: 'ER_SCHEDULE_HISTORY_CANCELLED' });
    expect(valueOf(cancelled)).toBe('finished');
    expect(cancelled.context()).toMatchObject({ outcome: 'cancelled', error: 'ER_SCHEDULE_HISTORY_CANCELLED' });
    cancelled.clear();
    cancelled.send({ type: 'logout.requested' });
    expect(valueOf(cancelled)).toBe('leaving');
    expect(cancelled.reported).toEqual([{ type: 'exam.logoutRequested' }]);
  });

  it('a reset before the exam is even loaded still logs out with its code', () => {
    const exam = start();
    exam.exam.send({ type: 'UPDATE_FLAG_RETAKE' });
    expect(exam.reported).toEqual([{ type: 'exam.logoutRequested', errorCode: 'ER_SCHEDULE_HISTORY_RETAKE' }]);
  });
});

describe('the outbox and the sync', () => {
  const ack = (key: string, outcome = 'saved', extra: Record<string, unknown> = {}) => ({
    key, serverTime: iso(NOW + 7_000), outcome, deadlineAt: iso(NOW + 2_000_000), ...extra,
  });

  it('an answer is written to the outbox, then sent; acknowledged, it is saved, forgotten by the outbox, and the deadline taken', () => {
    const exam = toAnswering();
    exam.clear();
    exam.send({ type: 'answer.given', questionId: 101, value: 'a' });
    const key = exam.context().answers[101]!.key;
    expect(exam.inputs.storeAnswer).toEqual([{ scheduleHistoryId: 7, questionId: 101, value: 'a', key, answeredAt: iso(NOW + 1_000) }]);
    expect(matches(exam, { answering: { outbox: 'storing' } })).toBe(true);
    exam.done('storeAnswer', key);
    expect(exam.context().answers[101]!.status).toBe('local');
    expect(matches(exam, { answering: { outbox: 'idle', sync: 'saving' } })).toBe(true);
    expect(exam.inputs.saveAnswer).toEqual([{ scheduleHistoryId: 7, questionId: 101, value: 'a', key, answeredAt: iso(NOW + 1_000) }]);
    exam.done('saveAnswer', ack(key));
    expect(exam.context()).toMatchObject({ deadlineAt: NOW + 2_000_000, clockOffsetMs: 7_000, saveAttempts: 0 });
    expect(exam.context().answers[101]!.status).toBe('saved');
    expect(exam.actions).toEqual([{ name: 'removeFromOutbox', params: { keys: [key] } }, { name: 'cacheExam' }]);
    expect(matches(exam, { answering: { sync: 'idle' } })).toBe(true);
  });

  it('no outbox: the answer is still sent, shown as not saved on this terminal', () => {
    const exam = toAnswering();
    exam.send({ type: 'answer.given', questionId: 101, value: 'a' });
    exam.failed('storeAnswer', new Error('IndexedDB refused'));
    expect(exam.context().answers[101]!.status).toBe('unsaved');
    expect(matches(exam, { answering: { sync: 'saving' } })).toBe(true);
  });

  it('superseded: shown replaced with the server\'s value', () => {
    const exam = toAnswering();
    exam.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    const key = exam.context().answers[102]!.key;
    exam.done('storeAnswer', key);
    exam.clear();
    exam.done('saveAnswer', ack(key, 'superseded', { currentValue: 'chilly' }));
    expect(exam.context().answers[102]).toMatchObject({ value: 'chilly', status: 'replaced' });
    expect(exam.context()).toMatchObject({ deadlineAt: NOW + 2_000_000, clockOffsetMs: 7_000 });
    expect(exam.actions).toEqual([{ name: 'removeFromOutbox', params: { keys: [key] } }, { name: 'cacheExam' }]);
  });

  it('the network: tries again quietly after 1 s, 2 s, 4 s, 8 s, 8 s; back online, at once', () => {
    const clock = new SimulatedClock();
    const exam = toAnswering({}, clock);
    exam.send({ type: 'answer.given', questionId: 101, value: 'a' });
    exam.done('storeAnswer', exam.context().answers[101]!.key);
    const waits: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      exam.failed('saveAnswer', new ApiFailure('NETWORK_ERROR'));
      expect(matches(exam, { answering: { sync: 'waiting' } })).toBe(true);
      let waited = 0;
      while (matches(exam, { answering: { sync: 'waiting' } })) {
        clock.increment(500);
        waited += 500;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(exam.context().saveAttempts).toBe(5);
    exam.failed('saveAnswer', new ApiFailure('TIMEOUT'));
    exam.send({ type: 'connection.restored' });
    expect(matches(exam, { answering: { sync: 'saving' } })).toBe(true);
    expect(exam.context().saveAttempts).toBe(0);
  });

  it('refused for good: the outbox forgets it and it shows rejected; TIME_END finishes the exam; 401 ends the flow', () => {
    const refused = toAnswering();
    refused.send({ type: 'answer.given', questionId: 101, value: 'a' });
    const key = refused.context().answers[101]!.key;
    refused.done('storeAnswer', key);
    refused.clear();
    refused.failed('saveAnswer', new ApiFailure('VALIDATION_ERROR', 422));
    expect(refused.context().answers[101]!.status).toBe('rejected');
    expect(refused.actions).toEqual([{ name: 'removeFromOutbox', params: { keys: [key] } }]);
    expect(matches(refused, { answering: { sync: 'idle' } })).toBe(true);

    const late = toAnswering();
    late.send({ type: 'answer.given', questionId: 101, value: 'a' });
    late.done('storeAnswer', late.context().answers[101]!.key);
    late.failed('saveAnswer', new ApiFailure('TIME_END', 403));
    expect(late.context().answers[101]!.status).toBe('rejected');
    expect(matches(late, 'finishing')).toBe(true);

    const signedOut = toAnswering();
    signedOut.send({ type: 'answer.given', questionId: 101, value: 'a' });
    signedOut.done('storeAnswer', signedOut.context().answers[101]!.key);
    signedOut.failed('saveAnswer', new ApiFailure('NOT_LOGGED_IN', 401));
    expect(valueOf(signedOut)).toBe('unauthorized');
  });
});

describe('presence', () => {
  it('a heartbeat every PRESENCE_INTERVAL_MS with the question on screen; its answer moves the deadline', () => {
    const clock = new SimulatedClock();
    const exam = toAnswering({}, clock);
    expect(matches(exam, { answering: { presence: 'waiting' } })).toBe(true);
    clock.increment(PRESENCE_INTERVAL_MS - 1);
    expect(exam.inputs.sendHeartbeat).toBeUndefined();
    clock.increment(1);
    expect(exam.inputs.sendHeartbeat).toEqual([{ schedule_history_id: 7, question_index: 0, visible: true, waiting_answers: 0 }]);
    exam.clear();
    // A nearer bound on the offset than the one kept (1 s) is taken.
    exam.done('sendHeartbeat', { deadline_at: iso(NOW + 2_400_000), server_time: iso(NOW + 1_500) });
    expect(exam.context()).toMatchObject({ deadlineAt: NOW + 2_400_000, clockOffsetMs: 1_500 });
    expect(exam.actions).toEqual([{ name: 'cacheExam' }]);
    expect(matches(exam, { answering: { presence: 'waiting' } })).toBe(true);
    clock.increment(PRESENCE_INTERVAL_MS);
    exam.failed('sendHeartbeat', new ApiFailure('NETWORK_ERROR'));
    expect(matches(exam, { answering: { presence: 'waiting' } })).toBe(true);
    clock.increment(PRESENCE_INTERVAL_MS);
    exam.failed('sendHeartbeat', new ApiFailure('TIME_END', 403));
    expect(matches(exam, 'finishing')).toBe(true);
  });

  it('the page hidden: a heartbeat saying so at once; shown again: the server\'s answers first', () => {
    const exam = toAnswering();
    exam.send({ type: 'page.changed', now: NOW, visible: false, cause: 'visibilitychange' });
    expect(exam.context().visible).toBe(false);
    expect(exam.inputs.sendHeartbeat).toEqual([{ schedule_history_id: 7, question_index: 0, visible: false, waiting_answers: 0 }]);
    exam.send({ type: 'page.changed', now: NOW, visible: true, cause: 'visibilitychange' });
    expect(exam.context().visible).toBe(true);
    expect(matches(exam, { answering: { presence: 'rereading' } })).toBe(true);
    expect(exam.inputs.loadServerAnswers).toEqual([{ scheduleHistoryId: 7 }]);
    exam.clear();
    exam.done('loadServerAnswers', {
      questions: demoQuestions, answers: [{ question_id: 103, value: 'a', answered_at: iso(NOW) }],
      deadline_at: iso(NOW + 2_100_000), server_time: iso(NOW - 2_250),
    });
    expect(exam.context().answers[103]).toMatchObject({ value: 'a', status: 'saved' });
    // 3.25 s below the offset kept (1 s): this terminal's clock was set forward, taken at once.
    expect(exam.context()).toMatchObject({ deadlineAt: NOW + 2_100_000, clockOffsetMs: -2_250 });
    expect(exam.actions).toEqual([{ name: 'cacheExam' }]);
    expect(matches(exam, { answering: { presence: 'beating' } })).toBe(true);
  });

  it('rereading failed: a heartbeat anyway; TIME_END finishes; 401 ends the flow; a page change past the deadline finishes', () => {
    const down = toAnswering();
    down.send({ type: 'page.changed', now: NOW, visible: true, cause: 'focus' });
    down.failed('loadServerAnswers', new ApiFailure('NETWORK_ERROR'));
    expect(matches(down, { answering: { presence: 'beating' } })).toBe(true);
    const over = toAnswering();
    over.send({ type: 'page.changed', now: NOW, visible: true, cause: 'online' });
    over.failed('loadServerAnswers', new ApiFailure('ER_SCHEDULE_HISTORY_COMPLETED', 403));
    expect(matches(over, 'finishing')).toBe(true);
    const gone = toAnswering();
    gone.send({ type: 'page.changed', now: NOW, visible: true, cause: 'online' });
    gone.failed('loadServerAnswers', new ApiFailure('NOT_LOGGED_IN', 401));
    expect(valueOf(gone)).toBe('unauthorized');
    const beatGone = toAnswering();
    beatGone.send({ type: 'page.changed', now: NOW, visible: false, cause: 'visibilitychange' });
    beatGone.failed('sendHeartbeat', new ApiFailure('DURING_MAINTENANCE', 401));
    expect(valueOf(beatGone)).toBe('maintenance');
    const asleep = toAnswering();
    asleep.send({ type: 'page.changed', now: NOW + 1_800_000, visible: true, cause: 'visibilitychange' });
    expect(matches(asleep, 'finishing')).toBe(true);
  });
});

describe('finishing', () => {
  function finishingWith(answer: boolean) {
    const exam = toAnswering();
    if (answer) {
      exam.send({ type: 'answer.given', questionId: 101, value: 'a' });
      exam.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    }
    exam.send({ type: 'finish.requested' });
    exam.send({ type: 'finish.confirmed' });
    return exam;
  }
  const receipt = { status: 1, answer_count: 2, digest: 'ab', finished_at: iso(NOW), server_time: iso(NOW) };

  it('with every answer saved: straight to Finish, busy; the receipt, the end screen, sent', () => {
    const exam = finishingWith(false);
    expect(matches(exam, { finishing: 'submitting' })).toBe(true);
    expect((exam.exam.getSnapshot() as { hasTag(t: string): boolean }).hasTag('busy')).toBe(true);
    expect(exam.inputs.finishExam).toEqual([{ variant: 'autoConnect', input: { scheduleHistoryId: 7 } }]);
    exam.clear();
    exam.done('finishExam', { ok: true, value: receipt });
    expect(valueOf(exam)).toBe('finished');
    expect(exam.context()).toMatchObject({ receipt, outcome: 'sent', error: null });
    // Completed: the pending Finish kept in the stored session since finishing began is done with.
    expect(exam.reported).toEqual([{ type: 'exam.progressed', change: { is_completed: true, error_code: null, finish_pending: false } }]);
  });

  it('first sends every answer not saved; saved and refused ones marked, both forgotten by the outbox', () => {
    const exam = finishingWith(true);
    expect(matches(exam, { finishing: 'flushing' })).toBe(true);
    const [a, b] = [exam.context().answers[101]!, exam.context().answers[102]!];
    expect(exam.inputs.flushAnswers).toEqual([
      { variant: 'autoConnect', input: [101, 102].map((id) => ({ scheduleHistoryId: 7, questionId: id, value: exam.context().answers[id]!.value, key: exam.context().answers[id]!.key, answeredAt: iso(NOW + 1_000) })) },
    ]);
    exam.clear();
    exam.done('flushAnswers', { ok: true, value: { saved: [a.key], refused: [b.key] } });
    expect(exam.context().answers[101]!.status).toBe('saved');
    expect(exam.context().answers[102]!.status).toBe('rejected');
    expect(exam.actions).toEqual([{ name: 'removeFromOutbox', params: { keys: [a.key, b.key] } }]);
    expect(matches(exam, { finishing: 'submitting' })).toBe(true);
  });

  it('a flush or a Finish that failed: Try again; cancelled on the server: the end screen says why; 401 ends the flow', () => {
    const flush = finishingWith(true);
    flush.done('flushAnswers', { ok: false, error: 'NETWORK_ERROR' });
    expect(valueOf(flush)).toBe('finishFailed');
    expect(flush.context().error).toBe('NETWORK_ERROR');
    flush.send({ type: 'retry.requested' });
    expect(matches(flush, { finishing: 'flushing' })).toBe(true);
    expect(flush.context().error).toBeNull();
    const flushGone = finishingWith(true);
    flushGone.done('flushAnswers', { ok: false, error: 'NOT_LOGGED_IN' });
    expect(valueOf(flushGone)).toBe('unauthorized');

    const submit = finishingWith(false);
    submit.done('finishExam', { ok: false, error: 'GENERIC_ERROR' });
    expect(valueOf(submit)).toBe('finishFailed');
    const cancelled = finishingWith(false);
    cancelled.done('finishExam', { ok: false, error: 'ER_SCHEDULE_HISTORY_CANCELLED' });
    expect(valueOf(cancelled)).toBe('finished');
    expect(cancelled.context()).toMatchObject({ outcome: 'cancelled', error: 'ER_SCHEDULE_HISTORY_CANCELLED' });
    const submitGone = finishingWith(false);
    submitGone.done('finishExam', { ok: false, error: 'ER_SCHEDULE_HISTORY_RETAKE' });
    expect(valueOf(submitGone)).toBe('retake');
  });
});

describe('the definition', () => {
  it('each state says the screen and the path the router follows', () => {
    const meta = Object.fromEntries(Object.entries(examMachine.states).map(([name, node]) => [name, node.meta ?? null]));
    expect(meta).toMatchObject({
      loadingDetails: { screen: 'booting' },
      detailsFailed: { path: '/login-confirm', screen: 'login-confirm' },
      confirming: { path: '/login-confirm', screen: 'login-confirm' },
      tutorial: { path: '/exam-tutorial', screen: 'exam-tutorial' },
      ready: { path: '/exam-start', screen: 'exam-start' },
      starting: { path: '/exam-start', screen: 'exam-start' },
      loadingQuestions: { path: '/start', screen: 'exam' },
      questionsFailed: { path: '/start', screen: 'exam' },
      answering: { path: '/start', screen: 'exam' },
      finishing: { path: '/start', screen: 'exam' },
      finishFailed: { path: '/start', screen: 'exam' },
      finished: { path: '/exam-end', screen: 'exam-end' },
    });
  });

  it('unprovided, each call fails loudly, naming the edge', async () => {
    const { actors } = examMachine.implementations;
    for (const name of ['loadExamDetails', 'startExam', 'loadQuestions', 'storeAnswer', 'saveAnswer', 'sendHeartbeat', 'loadServerAnswers', 'flushAnswers', 'finishExam']) {
      const message = await toPromise(createActor(actors[name] as AnyActorLogic, { input: {} as never }).start()).catch((error: Error) => error.message);
      expect(message).toBe(`${name} is provided by the edge`);
    }
  });
});
