/**
 * The exam machine: one examinee's exam, from INIT_TEST to FINISH or FINISH_WITH_ERROR.
 *
 * Top states: idle -> loadingDetails -> confirming (login-confirm) -> tutorial -> ready
 * (exam-start) -> starting -> loadingQuestions -> answering (/start) -> finishing -> finished
 * (exam-end); detailsFailed, questionsFailed and finishFailed offer a retry; unauthorized and
 * leaving hand control back to the kiosk.
 *
 * Invariants:
 * - answers are accepted only while answering;
 * - the deadline is the server's (fixed at Start, seed section 4); the machine only tracks the
 *   offset between the server's clock and this terminal's;
 * - an answer is "saved" only after the server acknowledged its idempotency key;
 * - finishing first sends every pending answer, then asks the server to finish;
 * - once started, nothing leads back to the start screen (the exam cannot be restarted);
 *   Back and typed URLs are honoured only before Start (tutorial <-> login-confirm/start).
 */
import { assign, fromPromise, raise, sendParent, setup, stateIn } from 'xstate';
import {
  ScheduleHistoryStatus,
  type ExamDetails,
  type ExamQuestions,
  type FinishExamResponse,
  type StartExamResponse,
} from '../../src/shared/contract.ts';
import { failureCodeOf, type FailureCode } from '../shared/ports.ts';
import type {
  AnswerEntry,
  AnswerToSave,
  ExamContext,
  ExamEvent,
  ExamInput,
  ExamParentEvent,
} from './exam.types.ts';

/** Codes after which a save will never succeed; retrying them would loop forever. */
const finalSaveRefusals: ReadonlySet<FailureCode> = new Set([
  'TIME_END',
  'ER_SCHEDULE_HISTORY_COMPLETED',
  'ER_SCHEDULE_HISTORY_CANCELLED',
  'VALIDATION_ERROR',
  'NOT_FOUND',
]);

/** Delay before a failed save is tried again. */
export const SAVE_RETRY_MS = 2000;

function offsetFrom(serverTime: string): number {
  return Date.parse(serverTime) - Date.now();
}

function firstPending(context: ExamContext): AnswerToSave | undefined {
  for (const question of context.questions) {
    const entry = context.answers[question.id];
    if (entry?.status === 'pending') {
      return {
        scheduleHistoryId: context.scheduleHistoryId,
        questionId: question.id,
        value: entry.value,
        key: entry.key,
        answeredAt: entry.answeredAt,
      };
    }
  }
  return undefined;
}

function allPending(context: ExamContext): AnswerToSave[] {
  return context.questions.flatMap((question) => {
    const entry = context.answers[question.id];
    return entry?.status === 'pending'
      ? [{
          scheduleHistoryId: context.scheduleHistoryId,
          questionId: question.id,
          value: entry.value,
          key: entry.key,
          answeredAt: entry.answeredAt,
        }]
      : [];
  });
}

/** Marks the answers whose keys the server acknowledged (a newer version stays pending). */
function markSaved(answers: Record<number, AnswerEntry>, keys: readonly string[]): Record<number, AnswerEntry> {
  const acknowledged = new Set(keys);
  const next: Record<number, AnswerEntry> = {};
  for (const [id, entry] of Object.entries(answers)) {
    next[Number(id)] = acknowledged.has(entry.key) ? { ...entry, status: 'saved' } : entry;
  }
  return next;
}

/**
 * The idempotency key of an answer's revision: the session's uuid (made on this terminal at
 * login) with the revision number in its last 12 hex digits. Unique per session and answer,
 * still a valid v4 UUID, and reproducible, so a replayed exam sends the same keys.
 */
export function answerKey(seed: string, revision: number): string {
  return `${seed.slice(0, 24)}${revision.toString(16).padStart(12, '0')}`;
}

const errorCodeOf = ({ event }: { event: { error?: unknown } }) => failureCodeOf(event.error);

export const examMachine = setup({
  types: {
    context: {} as ExamContext,
    events: {} as ExamEvent,
    input: {} as ExamInput,
  },
  actors: {
    /** GET /exam-details. */
    loadExamDetails: fromPromise<ExamDetails, { scheduleHistoryId: number }>(async () => {
      throw new Error('loadExamDetails is provided by the edge');
    }),
    /** POST /exam/start: the server fixes the deadline. */
    startExam: fromPromise<StartExamResponse, { scheduleHistoryId: number }>(async () => {
      throw new Error('startExam is provided by the edge');
    }),
    /** GET /exam/questions, with the answers the server already holds. */
    loadQuestions: fromPromise<ExamQuestions, { scheduleHistoryId: number }>(async () => {
      throw new Error('loadQuestions is provided by the edge');
    }),
    /** POST /exam/answers for one answer; resolves with the acknowledged key and server time. */
    saveAnswer: fromPromise<{ key: string; serverTime: string }, AnswerToSave>(async () => {
      throw new Error('saveAnswer is provided by the edge');
    }),
    /** Sends every pending answer in order; resolves with the acknowledged keys. */
    flushAnswers: fromPromise<string[], AnswerToSave[]>(async () => {
      throw new Error('flushAnswers is provided by the edge');
    }),
    /** POST /exam/finish: the server's receipt. */
    finishExam: fromPromise<FinishExamResponse, { scheduleHistoryId: number }>(async () => {
      throw new Error('finishExam is provided by the edge');
    }),
  },
  actions: {
    reportProgress: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.progressed',
      change: { question_index: context.questionIndex },
    })),
    reportCompleted: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.progressed',
      change: { is_completed: true, error_code: context.outcome === 'cancelled' ? (context.error as never) : null },
    })),
    requestLogout: sendParent((): ExamParentEvent => ({ type: 'exam.logoutRequested' })),
    reportUnauthorized: sendParent((): ExamParentEvent => ({ type: 'exam.unauthorized' })),
    assignFailure: assign({ error: ({ event }) => failureCodeOf((event as { error?: unknown }).error) }),
    clearError: assign({ error: null }),
  },
  guards: {
    isDoing: ({ event }) =>
      'output' in event && (event.output as ExamDetails).status === ScheduleHistoryStatus.DOING,
    isCompleted: ({ event }) =>
      'output' in event && (event.output as ExamDetails).status !== ScheduleHistoryStatus.PENDING &&
      (event.output as ExamDetails).status !== ScheduleHistoryStatus.DOING,
    isUnauthorized: (args) => errorCodeOf(args as never) === 'NOT_LOGGED_IN',
    isAlreadyFinished: (args) => errorCodeOf(args as never) === 'ER_SCHEDULE_HISTORY_COMPLETED',
    isCancelled: (args) => errorCodeOf(args as never) === 'ER_SCHEDULE_HISTORY_CANCELLED',
    isFinalRefusal: (args) => finalSaveRefusals.has(errorCodeOf(args as never)),
    isKnownQuestion: ({ context, event }) =>
      event.type === 'answer.given' && context.questions.some((q) => q.id === event.questionId),
    hasNext: ({ context }) => context.questionIndex < context.questions.length - 1,
    hasPrevious: ({ context }) => context.questionIndex > 0,
    isValidIndex: ({ context, event }) =>
      event.type === 'question.selected' &&
      Number.isInteger(event.index) && event.index >= 0 && event.index < context.questions.length,
    hasPendingAnswer: ({ context }) => firstPending(context) !== undefined,
  },
  delays: {
    /** Time left until the server's deadline, on the server's clock. */
    untilDeadline: ({ context }) =>
      Math.max(0, (context.deadlineAt ?? 0) - (Date.now() + context.clockOffsetMs)),
    saveRetry: SAVE_RETRY_MS,
  },
}).createMachine({
  id: 'exam',
  context: ({ input }) => ({
    // The kiosk starts the exam only once a schedule history is chosen (examinee logins choose).
    scheduleHistoryId: input.session.schedule_history_id ?? 0,
    answerSeed: input.session.uuid,
    revision: 0,
    questionIndex: input.session.question_index,
    details: null,
    questions: [],
    answers: {},
    deadlineAt: null,
    clockOffsetMs: 0,
    error: null,
    receipt: null,
    outcome: null,
  }),
  initial: 'idle',
  on: {
    UNAUTHORIZED: '.unauthorized',
  },
  states: {
    idle: {
      on: { INIT_TEST: 'loadingDetails' },
    },
    loadingDetails: {
      tags: ['busy'],
      meta: { screen: 'booting' },
      invoke: {
        id: 'loadExamDetails',
        src: 'loadExamDetails',
        input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId }),
        onDone: [
          // Seed section 2, rule 6: a completed exam goes to the end screen.
          {
            guard: 'isCompleted',
            target: 'finished',
            actions: assign({ details: ({ event }) => event.output, outcome: 'sent' }),
          },
          {
            guard: 'isDoing',
            target: 'loadingQuestions',
            actions: assign({ details: ({ event }) => event.output, clockOffsetMs: ({ event }) => offsetFrom(event.output.server_time) }),
          },
          {
            target: 'confirming',
            actions: assign({ details: ({ event }) => event.output, clockOffsetMs: ({ event }) => offsetFrom(event.output.server_time) }),
          },
        ],
        onError: [
          { guard: 'isUnauthorized', actions: raise({ type: 'UNAUTHORIZED' }) },
          { target: 'detailsFailed', actions: 'assignFailure' },
        ],
      },
    },
    detailsFailed: {
      meta: { path: '/login-confirm', screen: 'login-confirm' },
      on: {
        'retry.requested': { target: 'loadingDetails', actions: 'clearError' },
        'identity.rejected': 'leaving',
      },
    },
    confirming: {
      id: 'examConfirming',
      meta: { path: '/login-confirm', screen: 'login-confirm' },
      // Back from the tutorial returns here.
      route: { guard: stateIn('#examTutorial') },
      on: {
        'identity.confirmed': 'tutorial',
        'identity.rejected': 'leaving',
      },
    },
    tutorial: {
      id: 'examTutorial',
      meta: { path: '/exam-tutorial', screen: 'exam-tutorial' },
      // Back from the start screen returns here; nothing returns here once started.
      route: { guard: stateIn('#exam.ready') },
      on: { 'tutorial.completed': 'ready' },
    },
    ready: {
      meta: { path: '/exam-start', screen: 'exam-start' },
      on: { 'start.confirmed': { target: 'starting', actions: 'clearError' } },
    },
    starting: {
      tags: ['busy'],
      meta: { path: '/exam-start', screen: 'exam-start' },
      invoke: {
        id: 'startExam',
        src: 'startExam',
        input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId }),
        onDone: {
          actions: [
            assign({
              deadlineAt: ({ event }) => Date.parse(event.output.deadline_at),
              clockOffsetMs: ({ event }) => offsetFrom(event.output.server_time),
              questionIndex: 0,
            }),
            raise({ type: 'START_SUCCESSFULLY' }),
          ],
        },
        onError: [
          { guard: 'isUnauthorized', actions: raise({ type: 'UNAUTHORIZED' }) },
          { target: 'ready', actions: 'assignFailure' },
        ],
      },
      on: { START_SUCCESSFULLY: { target: 'loadingQuestions', actions: 'reportProgress' } },
    },
    loadingQuestions: {
      tags: ['busy'],
      meta: { path: '/start', screen: 'exam' },
      invoke: {
        id: 'loadQuestions',
        src: 'loadQuestions',
        input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId }),
        onDone: {
          target: 'answering',
          actions: assign({
            questions: ({ event }) => event.output.questions,
            answers: ({ context, event }) => {
              const answers: Record<number, AnswerEntry> = {};
              event.output.answers.forEach((saved, i) => {
                answers[saved.question_id] = {
                  value: saved.value,
                  answeredAt: saved.answered_at,
                  key: answerKey(context.answerSeed, context.revision + i + 1),
                  status: 'saved',
                };
              });
              return answers;
            },
            revision: ({ context, event }) => context.revision + event.output.answers.length,
            deadlineAt: ({ event }) => Date.parse(event.output.deadline_at),
            clockOffsetMs: ({ event }) => offsetFrom(event.output.server_time),
            questionIndex: ({ context, event }) =>
              Math.min(Math.max(0, context.questionIndex), Math.max(0, event.output.questions.length - 1)),
          }),
        },
        onError: [
          { guard: 'isUnauthorized', actions: raise({ type: 'UNAUTHORIZED' }) },
          { guard: 'isAlreadyFinished', target: 'finished', actions: assign({ outcome: 'sent' }) },
          { target: 'questionsFailed', actions: 'assignFailure' },
        ],
      },
    },
    questionsFailed: {
      meta: { path: '/start', screen: 'exam' },
      on: { 'retry.requested': { target: 'loadingQuestions', actions: 'clearError' } },
    },
    answering: {
      meta: { path: '/start', screen: 'exam' },
      type: 'parallel',
      // At 00:00 the exam finishes by itself with every answer given (issue: time and answers).
      after: { untilDeadline: '#exam.finishing' },
      on: {
        'answer.given': {
          guard: 'isKnownQuestion',
          actions: assign({
            answers: ({ context, event }) => ({
              ...context.answers,
              [event.questionId]: {
                value: event.value,
                answeredAt: new Date(Date.now() + context.clockOffsetMs).toISOString(),
                key: answerKey(context.answerSeed, context.revision + 1),
                status: 'pending',
              },
            }),
            revision: ({ context }) => context.revision + 1,
          }),
        },
        'question.next': { guard: 'hasNext', actions: [assign({ questionIndex: ({ context }) => context.questionIndex + 1 }), 'reportProgress'] },
        'question.previous': { guard: 'hasPrevious', actions: [assign({ questionIndex: ({ context }) => context.questionIndex - 1 }), 'reportProgress'] },
        'question.selected': {
          guard: 'isValidIndex',
          actions: [assign({ questionIndex: ({ event }) => event.index }), 'reportProgress'],
        },
      },
      states: {
        view: {
          initial: 'working',
          states: {
            working: { on: { 'finish.requested': 'confirmingFinish' } },
            confirmingFinish: {
              on: {
                'finish.cancelled': 'working',
                'finish.confirmed': '#exam.finishing',
              },
            },
          },
        },
        sync: {
          initial: 'idle',
          states: {
            idle: { always: { guard: 'hasPendingAnswer', target: 'saving' } },
            saving: {
              invoke: {
                id: 'saveAnswer',
                src: 'saveAnswer',
                input: ({ context }) => firstPending(context) as AnswerToSave,
                onDone: {
                  target: 'idle',
                  actions: assign({
                    answers: ({ context, event }) => markSaved(context.answers, [event.output.key]),
                    clockOffsetMs: ({ event }) => offsetFrom(event.output.serverTime),
                  }),
                },
                onError: [
                  { guard: 'isUnauthorized', actions: raise({ type: 'UNAUTHORIZED' }) },
                  {
                    guard: 'isFinalRefusal',
                    target: 'idle',
                    actions: assign({
                      answers: ({ context }) => {
                        const refused = firstPending(context);
                        if (!refused) return context.answers;
                        return { ...context.answers, [refused.questionId]: { ...context.answers[refused.questionId]!, status: 'rejected' } };
                      },
                    }),
                  },
                  { target: 'waiting' },
                ],
              },
            },
            waiting: { after: { saveRetry: 'idle' } },
          },
        },
      },
    },
    finishing: {
      tags: ['busy'],
      meta: { path: '/start', screen: 'exam' },
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'hasPendingAnswer', target: 'flushing' }, { target: 'submitting' }],
        },
        flushing: {
          invoke: {
            id: 'flushAnswers',
            src: 'flushAnswers',
            input: ({ context }) => allPending(context),
            onDone: {
              target: 'submitting',
              actions: assign({ answers: ({ context, event }) => markSaved(context.answers, event.output) }),
            },
            onError: [
              { guard: 'isUnauthorized', actions: raise({ type: 'UNAUTHORIZED' }) },
              { target: '#exam.finishFailed', actions: 'assignFailure' },
            ],
          },
        },
        submitting: {
          invoke: {
            id: 'finishExam',
            src: 'finishExam',
            input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId }),
            onDone: {
              actions: [assign({ receipt: ({ event }) => event.output }), raise({ type: 'FINISH' })],
            },
            onError: [
              { guard: 'isUnauthorized', actions: raise({ type: 'UNAUTHORIZED' }) },
              {
                guard: 'isCancelled',
                actions: raise(({ event }) => ({ type: 'FINISH_WITH_ERROR', code: failureCodeOf(event.error) })),
              },
              { target: '#exam.finishFailed', actions: 'assignFailure' },
            ],
          },
        },
      },
      on: {
        FINISH: { target: 'finished', actions: assign({ outcome: 'sent', error: null }) },
        FINISH_WITH_ERROR: {
          target: 'finished',
          actions: assign({ outcome: 'cancelled', error: ({ event }) => event.code }),
        },
      },
    },
    finishFailed: {
      meta: { path: '/start', screen: 'exam' },
      on: { 'retry.requested': { target: 'finishing', actions: 'clearError' } },
    },
    finished: {
      meta: { path: '/exam-end', screen: 'exam-end' },
      entry: 'reportCompleted',
      on: { 'logout.requested': 'leaving' },
    },
    unauthorized: {
      entry: 'reportUnauthorized',
    },
    leaving: {
      entry: 'requestLogout',
    },
  },
});
