/**
 * The tutorial machine: how the test works, and a try of each kind of question before Start
 * (seed section 2 `exam-tutorial`, section 7 `GET /tutorial-setting`). The
 * exam machine runs it as its child `tutorial` while the exam is in its `tutorial` state.
 *
 * It owns the tutorial's settings (the exam's number of questions, question types and time
 * rules, and one practice question per type), the practice question on screen, the pupil's
 * practice answers and their verdicts, and the on-screen alphabet keyboard of the practice.
 *
 * Top states: loading (GET /tutorial-setting) -> practising (one practice question at a time:
 * showing -> answering <-> checked) -> practised (the summary: "Practise again" goes back to the
 * first question); loading -> failed ("Try again" -> loading) or empty (the exam has no
 * questions to practise); from any of them "Continue" -> done (final), which tells the exam
 * `tutorial.completed`.
 *
 * Where each part lives: this file has the machine with its actions and guards by name, and the
 * helpers they read (the practice question on screen, its answer, the ending events);
 * `tutorial.types.ts` the setting, context, events and input; `tutorial.actors.ts` the one real
 * call; `tutorial.selectors.ts` snapshot to view; `tutorial.connect.ts` what the screen renders
 * and may send. It has no rules file of its own.
 *
 * Decisions and invariants: machines/tutorial/README.md.
 */
import { assertEvent, assign, sendParent, setup } from 'xstate';
import { isPracticeAnswerRight } from '../../contract/tutorial.ts';
import { failureCodeOf, type FailureCode } from '../shared/ports.ts';
import { unprovided } from '../shared/unprovided.ts';
import type {
  PracticeAnswer,
  PracticeQuestion,
  TutorialContext,
  TutorialEvent,
  TutorialInput,
  TutorialParentEvent,
  TutorialSetting,
} from './tutorial.types.ts';

/** The practice question on screen, or undefined when there is none. */
export function currentPractice(context: Pick<TutorialContext, 'setting' | 'index'>): PracticeQuestion | undefined {
  return context.setting?.practice[context.index];
}

/** The pupil's answer to the practice question on screen, if any. */
export function currentAnswer(context: TutorialContext): PracticeAnswer | undefined {
  const practice = currentPractice(context);
  return practice ? context.answers[practice.question.id] : undefined;
}

/**
 * The exam-level event a failed load stands for when it ends the exam flow (as every exam call's
 * does, machines/exam/README.md), or null when the tutorial only shows it.
 */
export function endingEventOf(code: FailureCode): TutorialParentEvent | null {
  switch (code) {
    case 'NOT_LOGGED_IN':
      return { type: 'UNAUTHORIZED' };
    case 'ER_SCHEDULE_HISTORY_RETAKE':
      return { type: 'UPDATE_FLAG_RETAKE' };
    case 'DURING_MAINTENANCE':
      return { type: 'DURING_MAINTENANCE' };
    case 'INCORRECT_DEVICE':
      return { type: 'FINISH_WITH_ERROR', code };
    default:
      return null;
  }
}

export const tutorialMachine = setup({
  types: {
    context: {} as TutorialContext,
    events: {} as TutorialEvent,
    input: {} as TutorialInput,
  },
  actors: {
    /** GET /tutorial-setting?schedule_history_id=, validated with the contract (tutorial.actors.ts). */
    loadTutorialSetting: unprovided<TutorialSetting, { scheduleHistoryId: number }>('loadTutorialSetting', 'tutorial.actors.ts'),
  },
  actions: {
    assignSetting: assign((_, setting: TutorialSetting) => ({ setting, error: null, index: 0, answers: {} })),
    assignFailure: assign((_, code: FailureCode) => ({ error: code })),
    clearError: assign({ error: null }),
    assignAnswer: assign({
      answers: ({ context, event }) => {
        assertEvent(event, 'answer.given');
        return { ...context.answers, [event.questionId]: { value: event.value, verdict: null } };
      },
    }),
    assignVerdict: assign({
      answers: ({ context }) => {
        const practice = currentPractice(context)!;
        const { value } = context.answers[practice.question.id]!;
        const verdict = isPracticeAnswerRight(practice, value) ? 'right' : 'wrong';
        return { ...context.answers, [practice.question.id]: { value, verdict } };
      },
    }),
    showNext: assign({ index: ({ context }) => context.index + 1 }),
    showPrevious: assign({ index: ({ context }) => context.index - 1 }),
    forgetAnswers: assign({ index: 0, answers: {} }),
    toggleKeyboard: assign({ keyboardOpen: ({ context }) => !context.keyboardOpen }),
    toggleUpperCase: assign({ upperCase: ({ context }) => !context.upperCase }),
    reportCompleted: sendParent((): TutorialParentEvent => ({ type: 'tutorial.completed' })),
    reportEnding: sendParent((_, code: FailureCode): TutorialParentEvent => endingEventOf(code)!),
  },
  guards: {
    hasPractice: (_, setting: TutorialSetting) => setting.practice.length > 0,
    isEnding: (_, code: FailureCode) => endingEventOf(code) !== null,
    isCurrentQuestion: ({ context, event }) =>
      event.type === 'answer.given' && currentPractice(context)?.question.id === event.questionId,
    hasAnswer: ({ context }) => (currentAnswer(context)?.value.trim() ?? '') !== '',
    isChecked: ({ context }) => (currentAnswer(context)?.verdict ?? null) !== null,
    hasNext: ({ context }) => context.index < (context.setting?.practice.length ?? 0) - 1,
    hasPrevious: ({ context }) => context.index > 0,
  },
}).createMachine({
  id: 'tutorial',
  context: ({ input }) => ({
    scheduleHistoryId: input.scheduleHistoryId,
    questionCount: input.questionCount,
    timeLimitSeconds: input.timeLimitSeconds,
    setting: null,
    error: null,
    index: 0,
    answers: {},
    // As a new exam starts: the alphabet keyboard shown, in small letters.
    keyboardOpen: true,
    upperCase: false,
  }),
  initial: 'loading',
  on: {
    // "Continue": the practice is optional and never keeps the pupil from the exam.
    'tutorial.finished': '.done',
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadTutorialSetting',
        src: 'loadTutorialSetting',
        input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId }),
        onDone: [
          {
            guard: { type: 'hasPractice', params: ({ event }) => event.output },
            target: 'practising',
            actions: { type: 'assignSetting', params: ({ event }) => event.output },
          },
          { target: 'empty', actions: { type: 'assignSetting', params: ({ event }) => event.output } },
        ],
        onError: [
          {
            guard: { type: 'isEnding', params: ({ event }) => failureCodeOf(event.error) },
            target: 'failed',
            actions: [
              { type: 'assignFailure', params: ({ event }) => failureCodeOf(event.error) },
              { type: 'reportEnding', params: ({ event }) => failureCodeOf(event.error) },
            ],
          },
          { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => failureCodeOf(event.error) } },
        ],
      },
    },
    failed: {
      on: { 'retry.requested': { target: 'loading', actions: 'clearError' } },
    },
    /** The exam has no questions, so nothing to practise: the points and Continue. */
    empty: {},
    practising: {
      initial: 'showing',
      on: {
        'answer.given': { guard: 'isCurrentQuestion', target: '.answering', actions: 'assignAnswer' },
        'practice.next': [{ guard: 'hasNext', target: '.showing', actions: 'showNext' }, { target: 'practised' }],
        'practice.previous': { guard: 'hasPrevious', target: '.showing', actions: 'showPrevious' },
        'keyboard.toggled': { actions: 'toggleKeyboard' },
        'upperCase.toggled': { actions: 'toggleUpperCase' },
      },
      states: {
        /** A question comes on screen: as the pupil left it (checked or not). */
        showing: {
          always: [{ guard: 'isChecked', target: 'checked' }, { target: 'answering' }],
        },
        answering: {
          on: { 'answer.checked': { guard: 'hasAnswer', target: 'checked', actions: 'assignVerdict' } },
        },
        /** The verdict is shown; a new answer takes the question back to answering. */
        checked: {},
      },
    },
    /** Every practice question was shown: how each went, "Practise again" and Continue. */
    practised: {
      on: { 'practice.restarted': { target: 'practising', actions: 'forgetAnswers' } },
    },
    done: {
      type: 'final',
      entry: 'reportCompleted',
    },
  },
});
