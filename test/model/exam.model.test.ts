/**
 * The exam machine walked transition by transition: INIT_TEST to FINISH or FINISH_WITH_ERROR,
 * every async outcome and timer as an explicit event of the path, and the page's signals too:
 * the clock's ticks and the page coming back (the deadline holds on wake; the
 * heartbeat; another window's answer shown as replaced, from the server or told by that window),
 * and Start's wait for the app shell (installed, failed, timed out, started anyway), and a move to
 * another terminal (what this terminal holds is sent before it says so, also when the server says
 * so on loading or finishing: a reload, Finish pressed there).
 */
import assert from 'node:assert/strict';
import { fromCallback, type AnyEventObject, type AnyMachineSnapshot, type AnyStateNode } from 'xstate';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import type { AnswerEntry, AnswerToSave, ExamContext, LoadedExam } from '../../machines/exam/exam.types.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { ApiFailure, type FailureCode } from '../../machines/shared/ports.ts';
import type { HeartbeatResponse } from '../../contract/presence.ts';
import type { ExamDetails, ExamQuestions, FinishExamResponse, StartExamResponse } from '../../contract/exam.ts';
import { demoExaminee, demoQuestions } from '../helpers/fake-api.ts';
import { never } from '../helpers/never.ts';
import type { ModelSpec } from './harness.ts';
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
const later = '2026-11-22T09:05:00.000Z';
/** The server holds 103; the outbox still holds a later 101 (sent again) and an older 103 (stale). */
const questions: LoadedExam = {
  questions: demoQuestions,
  answers: [{ question_id: 103, value: 'a', answered_at: later }],
  deadline_at: deadline,
  server_time: now,
  unsent: [
    { scheduleHistoryId: 7, questionId: 101, value: 'b', key: '0f0e0d0c-0b0a-4908-8706-000000000001', answeredAt: later },
    { scheduleHistoryId: 7, questionId: 103, value: 'b', key: '0f0e0d0c-0b0a-4908-8706-000000000002', answeredAt: now },
  ],
};
/** A proctor extended the time by five minutes: the heartbeat brings the new deadline. */
const extended = '2026-11-22T09:45:00.000Z';
/** What the server holds when the page comes back: 103 replaced by another window, 102 answered there only, 101 as this window's unsent one will be. */
const heldOnServer: ExamQuestions = {
  questions: demoQuestions,
  answers: [
    { question_id: 101, value: 'a', answered_at: later },
    { question_id: 102, value: 'cold', answered_at: later },
    { question_id: 103, value: 'b', answered_at: '2026-11-22T09:06:00.000Z' },
  ],
  deadline_at: deadline,
  server_time: later,
};
const heartbeat: HeartbeatResponse = { status: 6, deadline_at: extended, server_time: now };
const HOUR = 3_600_000;
/** An offset another window shares: the server's clock a minute past the latest server_time any response here carries. */
const NEARER_OFFSET_MS = Date.parse(later) + 60_000 - Date.now();
/** This terminal's time, so far from the deadline that the clock offset's drift between path generation and replay cannot matter. */
const terminalTime = (snapshot: AnyMachineSnapshot, fromDeadline: number) => {
  const context = snapshot.context as ExamContext;
  return (context.deadlineAt ?? 0) - context.clockOffsetMs + fromDeadline;
};

const receipt: FinishExamResponse = { status: 1, answer_count: 2, digest: 'ab'.repeat(32), finished_at: now, server_time: now };

const failure = (type: string, ...codes: Array<[ApiFailure['code'], number?]>): AnyEventObject[] =>
  codes.map(([code, status]) => ({ type, error: new ApiFailure(code, status) }));

/** Answers of the snapshot with one of these statuses, in question order (by question id before the questions are known). */
function withStatus(snapshot: AnyMachineSnapshot, ...statuses: AnswerEntry['status'][]): AnswerToSave[] {
  const context = snapshot.context as ExamContext;
  const ids = context.questions.length > 0 ? context.questions.map((q) => q.id) : Object.keys(context.answers).map(Number);
  return ids.flatMap((id) => {
    const entry = context.answers[id];
    return entry && statuses.includes(entry.status)
      ? [{ scheduleHistoryId: 7, questionId: id, value: entry.value, key: entry.key, answeredAt: entry.answeredAt }]
      : [];
  });
}

/** Answering on the first question, with only the answers the load brought (none given here). */
function untouched(snapshot: AnyMachineSnapshot): boolean {
  const context = snapshot.context as ExamContext;
  return (
    context.questionIndex === 0 &&
    context.answers[101]?.key === questions.unsent[0]!.key &&
    snapshot.matches({ answering: { view: 'working', sync: 'saving' } })
  );
}

/** The presence region is between heartbeats, and no answer was replaced: the page's signals are sampled only here. */
function quiet(snapshot: AnyMachineSnapshot): boolean {
  const context = snapshot.context as ExamContext;
  return (
    untouched(snapshot) &&
    snapshot.matches({ answering: { presence: 'waiting' } }) &&
    !Object.values(context.answers).some((entry) => entry.status === 'replaced')
  );
}

/** A heartbeat or a re-read is under way, or an answer was replaced: only the presence calls' outcomes go on from here. */
function presenceDetour(snapshot: AnyMachineSnapshot): boolean {
  if (!snapshot.matches('answering')) return false;
  const context = snapshot.context as ExamContext;
  return (
    !snapshot.matches({ answering: { presence: 'waiting' } }) ||
    Object.values(context.answers).some((entry) => entry.status === 'replaced')
  );
}
const presenceOutcomes = new Set([
  'xstate.done.actor.sendHeartbeat',
  'xstate.error.actor.sendHeartbeat',
  'xstate.done.actor.loadServerAnswers',
  'xstate.error.actor.loadServerAnswers',
]);

/**
 * Every event type of the machine, sampled as given (or as `{ type }`), except on a presence
 * detour, where only the presence calls' outcomes are: the presence region runs beside the
 * others, and walking all of them from each of its states would multiply the graph without
 * taking a transition more.
 */
function alongside(samples: ModelSpec<typeof machine>['samples']): ModelSpec<typeof machine>['samples'] {
  const types = new Set<string>();
  const visit = (node: AnyStateNode) => {
    for (const type of node.transitions.keys()) types.add(type);
    for (const child of Object.values(node.states)) visit(child as AnyStateNode);
  };
  visit(machine.root);
  return Object.fromEntries(
    [...types].map((type) => {
      const sample = samples[type];
      return [
        type,
        (snapshot: AnyMachineSnapshot) => {
          if (presenceDetour(snapshot) && !presenceOutcomes.has(type)) return [];
          if (typeof sample === 'function') return sample(snapshot);
          return sample ?? [{ type }];
        },
      ];
    }),
  );
}

const failed = (type: string, ...codes: FailureCode[]): AnyEventObject[] =>
  codes.map((error) => ({ type, output: { ok: false, error } }));

const machine = examMachine.provide({
  actors: {
    loadExamDetails: never(),
    startExam: never(),
    loadQuestions: never(),
    storeAnswer: never(),
    saveAnswer: never(),
    sendHeartbeat: never(),
    loadServerAnswers: never(),
    loadUnsentAnswers: never(),
    flushAnswers: never(),
    finishExam: never(),
    // The app shell's readiness: its reports (installed, failed) are the path's own events.
    watchOfflineShell: fromCallback(() => undefined),
  },
  actions: {
    reportProgress: () => {},
    reportCompleted: () => {},
    reportFinishing: () => {}, reportMovedAway: () => {},
    requestLogout: () => {},
    reportUnauthorized: () => {},
    requestLogoutWithError: () => {},
  },
});

const session = sessionFromLogin(
  { access_token: 'token-1', examinee: demoExaminee, server_time: now },
  '0f0e0d0c-0b0a-4908-8706-050403020100',
);

describeModel({
  name: 'exam',
  machine,
  // The second input is a reload while finishing: the stored session says the pupil's Finish is
  // pending, so the loaded questions lead straight back to finishing, never to answering. The
  // third, a reload of a terminal a proctor moved the pupil away from (one answer refused there):
  // straight to the moved-away end, never to answering.
  inputs: [{ session }, { session: { ...session, finish_pending: true } }, { session: { ...session, moved_away_refused: 1 } }],
  samples: alongside({
    // Loading and finishing's calls run in the retry machine: its output says how they ended.
    'xstate.done.actor.loadExamDetails': [
      ...[0, 6, 1].map((status) => ({
        type: 'xstate.done.actor.loadExamDetails',
        output: { ok: true, value: details(status as ExamDetails['status']) },
      })),
      ...failed('xstate.done.actor.loadExamDetails', 'NOT_LOGGED_IN', 'NETWORK_ERROR'),
    ],
    // A reload after a proctor's move: the outbox holds one answer given here, or nothing.
    'xstate.done.actor.loadUnsentAnswers': [
      { type: 'xstate.done.actor.loadUnsentAnswers', output: [questions.unsent[0]] },
      { type: 'xstate.done.actor.loadUnsentAnswers', output: [] },
    ],
    'xstate.done.actor.startExam': [{ type: 'xstate.done.actor.startExam', output: started }],
    'xstate.error.actor.startExam': failure('xstate.error.actor.startExam', ['NOT_LOGGED_IN', 401], ['TIMEOUT']),
    'xstate.done.actor.loadQuestions': [
      { type: 'xstate.done.actor.loadQuestions', output: { ok: true, value: questions } },
      ...failed('xstate.done.actor.loadQuestions', 'NOT_LOGGED_IN', 'ER_SCHEDULE_HISTORY_COMPLETED', 'NETWORK_ERROR'),
    ],
    'answer.given': [
      { type: 'answer.given', questionId: 101, value: 'a' },
      { type: 'answer.given', questionId: 999, value: 'x' },
    ],
    // The position child's report (machines/position, walked on its own in position.model.test.ts):
    // the pupil paused on the third question with the list open and 102 flagged.
    'position.reported': (snapshot) =>
      quiet(snapshot)
        ? [{ type: 'position.reported', position: { questionIndex: 2, view: { listOpen: true, flagged: [102], keyboardOpen: true, upperCase: false } } }]
        : [],
    'xstate.done.actor.storeAnswer': (snapshot) =>
      withStatus(snapshot, 'writing').slice(0, 1).map((answer) => ({ type: 'xstate.done.actor.storeAnswer', output: answer.key })),
    'xstate.error.actor.storeAnswer': [{ type: 'xstate.error.actor.storeAnswer', error: new Error('QuotaExceededError') }],
    // Moved away, an answer still being written to the outbox when answering ended is sent too.
    'xstate.done.actor.saveAnswer': (snapshot) =>
      (snapshot.matches('movedAway') ? withStatus(snapshot, 'writing', 'local', 'unsaved') : withStatus(snapshot, 'local', 'unsaved')).slice(0, 1).flatMap((answer) => [
        { type: 'xstate.done.actor.saveAnswer', output: { key: answer.key, serverTime: now, outcome: 'saved', deadlineAt: deadline } },
        // Another window gave a later answer to the question: acknowledged, and shown as replaced.
        ...(quiet(snapshot)
          ? [
              {
                type: 'xstate.done.actor.saveAnswer',
                output: { key: answer.key, serverTime: now, outcome: 'superseded', currentValue: 'a', deadlineAt: deadline },
              },
            ]
          : []),
      ]),
    // Ending failures: each raises its exam-level event (RETAKE, maintenance, another terminal).
    'xstate.error.actor.saveAnswer': failure(
      'xstate.error.actor.saveAnswer',
      ['NOT_LOGGED_IN', 401],
      ['ER_SCHEDULE_HISTORY_RETAKE', 401],
      ['DURING_MAINTENANCE', 401],
      ['INCORRECT_DEVICE', 403],
      ['TIME_END', 403],
      ['VALIDATION_ERROR', 422],
      ['NETWORK_ERROR'],
    ),
    // The page's signals and the heartbeat, from one answering state only, so the graph stays small.
    'clock.ticked': (snapshot) => (quiet(snapshot) ? [{ type: 'clock.ticked', now: terminalTime(snapshot, HOUR) }] : []),
    'page.changed': (snapshot) =>
      quiet(snapshot)
        ? [
            { type: 'page.changed', now: terminalTime(snapshot, -HOUR), visible: true, cause: 'focus' },
            { type: 'page.changed', now: terminalTime(snapshot, -HOUR), visible: false, cause: 'visibilitychange' },
            // The lid opens after the deadline: the exam finishes at once.
            { type: 'page.changed', now: terminalTime(snapshot, HOUR), visible: true, cause: 'visibilitychange' },
          ]
        : [],
    // Another window of this sitting on this terminal had a later answer to 103 saved: it replaces this window's.
    'answer.savedElsewhere': (snapshot) => {
      const context = snapshot.context as ExamContext;
      return quiet(snapshot)
        ? [
            {
              type: 'answer.savedElsewhere',
              answer: {
                scheduleHistoryId: context.scheduleHistoryId,
                owner: context.answerSeed,
                questionId: 103,
                value: 'b',
                answeredAt: '2026-11-22T09:10:00.000Z',
                key: '0f0e0d0c-0b0a-4908-8706-0000000000ff',
              },
            },
          ]
        : [];
    },
    // Another window of this sitting shares its clock offset: a nearer one is taken (one nearer
    // than any this window measures, so the graph stays finite), a looser one is told back.
    'clock.shared': (snapshot) => {
      const context = snapshot.context as ExamContext;
      const clock = (offsetMs: number) => ({ scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed, clockOffsetMs: offsetMs });
      return quiet(snapshot)
        ? [
            { type: 'clock.shared', clock: clock(NEARER_OFFSET_MS) },
            { type: 'clock.shared', clock: clock(context.clockOffsetMs - 500) },
          ]
        : [];
    },
    'xstate.after.heartbeatInterval.exam.answering.presence.waiting': (snapshot) =>
      quiet(snapshot) ? [{ type: 'xstate.after.heartbeatInterval.exam.answering.presence.waiting' }] : [],
    'xstate.done.actor.sendHeartbeat': [{ type: 'xstate.done.actor.sendHeartbeat', output: heartbeat }],
    'xstate.error.actor.sendHeartbeat': failure(
      'xstate.error.actor.sendHeartbeat',
      ['INCORRECT_DEVICE', 403],
      ['TIME_END', 403],
      ['NETWORK_ERROR'],
    ),
    'xstate.done.actor.loadServerAnswers': [{ type: 'xstate.done.actor.loadServerAnswers', output: heldOnServer }],
    'xstate.error.actor.loadServerAnswers': failure(
      'xstate.error.actor.loadServerAnswers',
      ['NOT_LOGGED_IN', 401],
      ['ER_SCHEDULE_HISTORY_COMPLETED', 403],
      ['NETWORK_ERROR'],
    ),
    'xstate.done.actor.flushAnswers': (snapshot) => [
      {
        type: 'xstate.done.actor.flushAnswers',
        output: { ok: true, value: { saved: withStatus(snapshot, 'writing', 'local', 'unsaved').map((answer) => answer.key), refused: [] } },
      },
      // One answer given after the deadline is refused for good; Finish goes on without it.
      ...withStatus(snapshot, 'writing', 'local', 'unsaved').slice(0, 1).map((answer) => ({
        type: 'xstate.done.actor.flushAnswers',
        output: { ok: true, value: { saved: [], refused: [answer.key] } },
      })),
      ...failed('xstate.done.actor.flushAnswers', 'NOT_LOGGED_IN', 'NETWORK_ERROR'),
    ],
    'xstate.done.actor.finishExam': [
      { type: 'xstate.done.actor.finishExam', output: { ok: true, value: receipt } },
      ...failed('xstate.done.actor.finishExam', 'NOT_LOGGED_IN', 'ER_SCHEDULE_HISTORY_CANCELLED', 'GENERIC_ERROR'),
    ],
    FINISH_WITH_ERROR: [
      { type: 'FINISH_WITH_ERROR', code: 'ER_SCHEDULE_HISTORY_CANCELLED' },
      { type: 'FINISH_WITH_ERROR', code: 'INCORRECT_DEVICE' },
    ],
    'xstate.route': [
      { type: 'xstate.route', to: '#examConfirming' },
      { type: 'xstate.route', to: '#examTutorial' },
    ],
  }),
  // The presence region's few detours (above) take the graph a little past the default bound.
  limit: 80_000,
  contextKey: (context) => {
    const c = context as unknown as ExamContext;
    return {
      index: c.questionIndex,
      loaded: c.questions.length,
      answers: Object.fromEntries(Object.entries(c.answers).map(([id, a]) => [id, a.status])),
      error: c.error,
      outcome: c.outcome,
      finishPending: c.stored?.finishPending,
      position: [c.questionIndex, c.view.flagged.length],
    };
  },
  // node:assert rather than expect: invariants run after every event of every path, where expect's cost dominates.
  invariants: (snapshot) => {
    const context = snapshot.context as ExamContext;
    // Once started, the deadline is known wherever questions are shown.
    if (snapshot.matches('answering')) assert.notEqual(context.deadlineAt, null);
    // A Finish the pupil confirmed (or time up) is never undone by answering again.
    if (snapshot.matches('answering')) assert.equal(context.stored?.finishPending, false);
    if (snapshot.matches('finishing')) assert.equal(context.stored?.finishPending, true);
    // The heartbeat only ever moves the deadline to the server's word: the one fixed at Start, or the extension.
    if (context.deadlineAt !== null) assert.ok([Date.parse(deadline), Date.parse(extended)].includes(context.deadlineAt));
    // A replaced answer shows the server's value (the samples' servers hold 'a' or 'b'), and is never sent again.
    for (const entry of Object.values(context.answers)) if (entry.status === 'replaced') assert.ok(['a', 'b', 'cold'].includes(entry.value));
    // Saved answers are only those the server acknowledged: never more than were given.
    assert.ok(Object.keys(context.answers).length <= demoQuestions.length);
    // The exam-level endings say why: the retake and maintenance states carry their codes.
    if (snapshot.matches('retake')) assert.equal(context.error, 'ER_SCHEDULE_HISTORY_RETAKE');
    if (snapshot.matches('maintenance')) assert.equal(context.error, 'DURING_MAINTENANCE');
    if (snapshot.matches('finished') && context.outcome === 'cancelled') assert.notEqual(context.error, null);
    // Moved to another terminal: "sent" (and Log out) only once nothing is left to send from here.
    if (snapshot.matches({ movedAway: 'sent' })) assert.deepStrictEqual(withStatus(snapshot, 'writing', 'local', 'unsaved'), []);
    // A terminal the stored session says was moved away from never answers again.
    if (context.stored?.movedAwayRefused != null) assert.ok(!snapshot.matches('answering') && !snapshot.matches('loadingDetails'));
    // Only questions of the exam are flagged, each at most once.
    assert.equal(new Set(context.view.flagged).size, context.view.flagged.length);
    for (const id of context.view.flagged) assert.equal(context.questions.some((q) => q.id === id), true);
    // The question index stays within the exam.
    if (context.questions.length) assert.ok(context.questionIndex < context.questions.length);
  },
});
