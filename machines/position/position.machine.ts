/**
 * The position machine: where the pupil is in a running exam (the question on screen) and what
 * the pupil arranged around it (the question list, the flags for review, the on-screen keyboard
 * and its capitals). The exam machine invokes it while `answering` (its child `position`) and
 * reports what it reports to the kiosk, which keeps it in the stored session (seed section 3).
 *
 * Why a machine of its own: a question swap is the pupil's most frequent act, and the exam's
 * screen answers it within a frame. In the exam machine a swap would be a transition of a state
 * with five parallel regions and an 18-key context, and the pause's timer would start again on
 * every move: about 2.8 ms of XState's work at 4x CPU throttle, a swap's largest cost after
 * React's own (the question-swap bench). Here a swap is a transition of one small state, and starts
 * no timer. The exam's screen reads this machine's snapshot beside the exam's and sends it the
 * moves directly (machines/exam/exam.connect.ts).
 *
 * States: `reported` (the kiosk holds the position on screen) and `unreported` (a move or a
 * toggle waits for the pupil's pause). The pause is POSITION_PAUSE_MS: the first move starts it;
 * a move during it is only marked (`movedAgain`), and when it ends it starts again if one came,
 * else the position is reported (`position.reported` to the exam). So a burst of moves is one
 * report, between one and two pauses after its last move, and no move starts or cancels a timer.
 * A flag for review is the pupil's own mark, not a swap: it is reported at once, with the rest.
 *
 * The typed text of a text answer (`draft`) is kept here too, keystroke by keystroke, and given to
 * the exam (`answer.given` to the parent) once typing pauses for TEXT_COMMIT_DELAY_MS, or at once
 * when the screen commits it (`draft.committed`: the field left, Enter, a move, Finish). Each
 * keystroke raises the pause's end (`draft.paused`) again, the one before cancelled; a draft equal
 * to the answer the exam held as it was typed is not given again. The screen shows the draft and
 * sends the keystrokes; it times nothing.
 *
 * Invariants:
 * - the index stays within the exam's questions (moves past either end, and an index outside
 *   them, change nothing); a flag marks only a question of the exam;
 * - every change is reported: after the pause, at once with a flag, and, when the page is hidden
 *   or goes away or answering ends, by the exam itself, which reads this machine's snapshot then
 *   (`position.taken` tells this machine it need not report it again).
 */
import { assign, enqueueActions, sendParent, setup } from 'xstate';
import type { PositionContext, PositionEvent, PositionInput, PositionParentEvent } from './position.types.ts';
import { quiet } from '../shared/quiet.ts';

/**
 * How long the pupil rests on a question before the position is reported to the kiosk (the
 * stored session): a burst of moves is one report, after its last move, never on a swap's frame.
 */
export const POSITION_PAUSE_MS = 400;

/** How long typing may pause before the typed answer is given to the exam. */
export const TEXT_COMMIT_DELAY_MS = 800;

/** The id of the pending end of the typing pause (cancelled by the next keystroke). */
const TYPING_PAUSE = 'typingPause';

/** Quiet (machines/shared/quiet.ts): no kiosk-wide watcher hears a question swap. */
export const positionMachine = quiet(setup({
  types: {
    context: {} as PositionContext,
    events: {} as PositionEvent,
    input: {} as PositionInput,
  },
  actions: {
    toNext: assign({ questionIndex: ({ context }) => context.questionIndex + 1, movedAgain: true }),
    toPrevious: assign({ questionIndex: ({ context }) => context.questionIndex - 1, movedAgain: true }),
    toSelected: assign({
      questionIndex: ({ context, event }) => (event.type === 'question.selected' ? event.index : context.questionIndex),
      movedAgain: true,
    }),
    toggleList: assign({ view: ({ context }) => ({ ...context.view, listOpen: !context.view.listOpen }), movedAgain: true }),
    toggleKeyboard: assign({ view: ({ context }) => ({ ...context.view, keyboardOpen: !context.view.keyboardOpen }), movedAgain: true }),
    toggleUpperCase: assign({ view: ({ context }) => ({ ...context.view, upperCase: !context.view.upperCase }), movedAgain: true }),
    toggleFlag: assign({
      view: ({ context, event }) => {
        if (event.type !== 'question.flagged') return context.view;
        const { flagged } = context.view;
        return {
          ...context.view,
          flagged: flagged.includes(event.questionId) ? flagged.filter((id) => id !== event.questionId) : [...flagged, event.questionId],
        };
      },
    }),
    /** The pause begins (again): no move came during it yet. */
    beginPause: assign({ movedAgain: false }),
    /** The keystroke's text, the pause's end raised again (the one pending cancelled). */
    keepDraft: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'answer.typed') return;
      enqueue.assign({ draft: { questionId: event.questionId, value: event.value, held: event.held } });
      enqueue.cancel(TYPING_PAUSE);
      enqueue.raise({ type: 'draft.paused' }, { id: TYPING_PAUSE, delay: TEXT_COMMIT_DELAY_MS });
    }),
    /** The draft to the exam as an answer (`answer.given`), unless it is the answer the exam held as it was typed. */
    giveAnswer: enqueueActions(({ context, enqueue }) => {
      const { draft } = context;
      if (draft && draft.value !== draft.held) enqueue.sendParent({ type: 'answer.given', questionId: draft.questionId, value: draft.value });
    }),
    /** No draft, and no pause's end pending. */
    clearDraft: enqueueActions(({ enqueue }) => {
      enqueue.cancel(TYPING_PAUSE);
      enqueue.assign({ draft: null });
    }),
    /** The position to the exam, which reports it to the kiosk. */
    report: sendParent(({ context }): PositionParentEvent => ({
      type: 'position.reported',
      position: { questionIndex: context.questionIndex, view: context.view },
    })),
  },
  guards: {
    hasNext: ({ context }) => context.questionIndex < context.questionIds.length - 1,
    hasPrevious: ({ context }) => context.questionIndex > 0,
    /** Another question of the exam (the one on screen chosen again changes nothing). */
    isOtherQuestion: ({ context, event }) =>
      event.type === 'question.selected' &&
      Number.isInteger(event.index) &&
      event.index >= 0 &&
      event.index < context.questionIds.length &&
      event.index !== context.questionIndex,
    isQuestionOfExam: ({ context, event }) =>
      (event.type === 'question.flagged' || event.type === 'answer.typed') && context.questionIds.includes(event.questionId),
    /** A move or a toggle came during the pause that just ended. */
    hasMovedAgain: ({ context }) => context.movedAgain,
  },
  delays: {
    /** The pupil's pause before the position is reported (POSITION_PAUSE_MS). */
    positionPause: POSITION_PAUSE_MS,
  },
}).createMachine({
  id: 'position',
  context: ({ input }) => ({
    questionIds: input.questionIds,
    questionIndex: input.questionIndex,
    view: input.view,
    movedAgain: false,
    draft: null,
  }),
  initial: 'reported',
  on: {
    // Reported at once, with the move or toggle waiting for the pause if one is.
    'question.flagged': { guard: 'isQuestionOfExam', target: '.reported', actions: ['toggleFlag', 'report'] },
    'position.taken': '.reported',
    // Typing: kept, and given after the pause or when the screen commits it (no state left or entered).
    'answer.typed': { guard: 'isQuestionOfExam', actions: 'keepDraft' },
    'draft.paused': { actions: ['giveAnswer', 'clearDraft'] },
    'draft.committed': { actions: ['giveAnswer', 'clearDraft'] },
  },
  states: {
    reported: {
      on: {
        'question.next': { guard: 'hasNext', target: 'unreported', actions: 'toNext' },
        'question.previous': { guard: 'hasPrevious', target: 'unreported', actions: 'toPrevious' },
        'question.selected': { guard: 'isOtherQuestion', target: 'unreported', actions: 'toSelected' },
        'questionList.toggled': { target: 'unreported', actions: 'toggleList' },
        'keyboard.toggled': { target: 'unreported', actions: 'toggleKeyboard' },
        'upperCase.toggled': { target: 'unreported', actions: 'toggleUpperCase' },
      },
    },
    unreported: {
      entry: 'beginPause',
      after: {
        positionPause: [
          { guard: 'hasMovedAgain', target: 'unreported', reenter: true },
          { target: 'reported', actions: 'report' },
        ],
      },
      // A move during the pause is marked, no more: no state is left or entered, no timer touched.
      on: {
        'question.next': { guard: 'hasNext', actions: 'toNext' },
        'question.previous': { guard: 'hasPrevious', actions: 'toPrevious' },
        'question.selected': { guard: 'isOtherQuestion', actions: 'toSelected' },
        'questionList.toggled': { actions: 'toggleList' },
        'keyboard.toggled': { actions: 'toggleKeyboard' },
        'upperCase.toggled': { actions: 'toggleUpperCase' },
      },
    },
  },
}));
