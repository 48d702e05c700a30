/**
 * Presence while the pupil answers (a region of `answering`): the heartbeat every
 * PRESENCE_INTERVAL_MS (contract/presence.ts) and at once when the page changes, telling the
 * server this terminal is here, which question is on screen, whether the page is visible and how
 * many answers it holds that the server does not yet (the roster shows them); its
 * answer carries the current deadline (a proctor's extension, a time credit) and a fresh clock
 * offset. When the page comes back into view the server's answers are read again first: another
 * window may have replaced one (shown as `replaced`, never as saved). Past the deadline a page
 * change finishes the exam at once. Best effort: its failures are silent, except the refusals
 * that end the exam flow or say the exam is over.
 */
import { assign } from 'xstate';
import { allNotSaved, failureOfError, offsetFrom, withServerAnswers } from './exam.rules.ts';
import { examSetup } from './exam.setup.ts';

/** A failed call of the region: the refusals that end the flow or say the exam is over; else silent, on to `next`. */
const failedThen = <const T extends string>(next: T) =>
  [
    { guard: { type: 'isUnauthorized', params: failureOfError }, actions: { type: 'raiseEnding', params: failureOfError } },
    { guard: { type: 'isExamOver', params: failureOfError }, target: '#exam.finishing' },
    { target: next },
  ] as const;

export const presenceRegion = examSetup.createStateConfig({
  initial: 'waiting',
  on: {
    // visibilitychange, focus, online: the deadline at once, then the server's answers
    // (a tab switch: another window may have replaced one) and a heartbeat.
    'page.changed': [
      { guard: 'isPastDeadline', target: '#exam.finishing' },
      { guard: 'isPageVisible', target: '.rereading', actions: 'assignVisibility' },
      { target: '.beating', actions: 'assignVisibility' },
    ],
  },
  states: {
    waiting: { after: { heartbeatInterval: 'beating' } },
    rereading: {
      invoke: {
        id: 'loadServerAnswers',
        src: 'loadServerAnswers',
        input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId }),
        onDone: {
          target: 'beating',
          actions: [
            assign(({ context, event }) => ({
              ...withServerAnswers(context, event.output.answers),
              deadlineAt: Date.parse(event.output.deadline_at),
              clockOffsetMs: offsetFrom(event.output.server_time, context.clockOffsetMs),
            })),
            'cacheExam',
            'shareClock',
          ],
        },
        onError: failedThen('beating'),
      },
    },
    beating: {
      invoke: {
        id: 'sendHeartbeat',
        src: 'sendHeartbeat',
        input: ({ context }) => ({
          schedule_history_id: context.scheduleHistoryId,
          question_index: context.questionIndex,
          visible: context.visible,
          // What this terminal holds and the server does not yet: the roster shows it.
          waiting_answers: Math.min(allNotSaved(context).length, 999),
        }),
        onDone: {
          target: 'waiting',
          // The current deadline (a proctor's extension, a time credit) and a fresh offset.
          actions: [
            assign({
              deadlineAt: ({ event }) => Date.parse(event.output.deadline_at),
              clockOffsetMs: ({ context, event }) => offsetFrom(event.output.server_time, context.clockOffsetMs),
            }),
            'cacheExam',
            'shareClock',
          ],
        },
        onError: failedThen('waiting'),
      },
    },
  },
});
