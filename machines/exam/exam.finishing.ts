/**
 * Finishing (state `finishing`, on the exam screen): first every answer the server does not hold
 * yet is sent (`flushAnswers`: answers refused for good do not hold Finish up), then the server is
 * asked to finish (`finishExam`) and answers the receipt. Both calls run in the retry machine
 * (autoConnect), so a network failure shows the retry dialog with Retry, never a dead end; any
 * other failure is `finishFailed` (Try again). ER_SCHEDULE_HISTORY_CANCELLED ends with
 * FINISH_WITH_ERROR; INCORRECT_DEVICE (a proctor moved the pupil to another terminal) leads to
 * `movedAway`, which sends what this terminal holds; the other ending codes end the exam flow
 * (machines/exam/README.md). Reached from
 * Finish, at 00:00, when the server says the exam is over, and from a reload while finishing:
 * entering it is reported to the stored session at once (finish_pending), so a reload, online or
 * offline, loads the questions and the outbox and comes straight back here, never to answering.
 */
import { assign, enqueueActions, raise, sendTo } from 'xstate';
import type { FinishExamResponse } from '../../contract/exam.ts';
import { allNotSaved, failureOfOutput, markSaved, valueOf, withStatus } from './exam.rules.ts';
import { examSetup } from './exam.setup.ts';
import type { FlushResult } from './exam.types.ts';

export const finishingState = examSetup.createStateConfig({
  tags: ['busy'],
  meta: { path: '/start', screen: 'exam' },
  // The pupil's Finish (or time up) outlives a reload: the stored session keeps it until the
  // exam is completed (`reportCompleted`), and a resume comes straight back here.
  entry: [
    assign({ stored: ({ context }) => ({ movedAwayRefused: null, ...context.stored, finishPending: true }) }),
    { type: 'reportFinishing', params: { pending: true } },
  ],
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'hasAnswerNotSaved', target: 'flushing' }, { target: 'submitting' }],
    },
    flushing: {
      invoke: {
        id: 'flushAnswers',
        src: 'flushAnswers',
        input: ({ context }) => ({ variant: 'autoConnect' as const, input: allNotSaved(context) }),
        onDone: [
          { guard: { type: 'isUnauthorized', params: failureOfOutput }, actions: { type: 'raiseEnding', params: failureOfOutput } },
          { guard: { type: 'hasFailed', params: failureOfOutput }, target: '#exam.finishFailed', actions: { type: 'assignFailure', params: failureOfOutput } },
          {
            target: 'submitting',
            actions: enqueueActions(({ context, event, enqueue }) => {
              const { saved, refused } = valueOf<FlushResult>(event.output);
              let answers = markSaved(context.answers, saved);
              for (const key of refused) answers = withStatus(answers, key, 'rejected');
              enqueue.assign({ answers });
              enqueue({ type: 'removeFromOutbox', params: { keys: [...saved, ...refused] } });
            }),
          },
        ],
      },
      // The retry dialog's Retry, and the browser back online: the retry machine decides. Finishing's
      // calls run in the autoConnect variant, whose dialog has no OK: there is no dialog.closed here.
      on: {
        'retry.requested': { actions: sendTo('flushAnswers', { type: 'retry.requested' }) },
        'connection.restored': { actions: sendTo('flushAnswers', { type: 'connection.restored' }) },
      },
    },
    submitting: {
      invoke: {
        id: 'finishExam',
        src: 'finishExam',
        input: ({ context }) => ({ variant: 'autoConnect' as const, input: { scheduleHistoryId: context.scheduleHistoryId } }),
        onDone: [
          { guard: { type: 'isUnauthorized', params: failureOfOutput }, actions: { type: 'raiseEnding', params: failureOfOutput } },
          {
            guard: { type: 'isCancelled', params: failureOfOutput },
            actions: raise(({ event }) => ({ type: 'FINISH_WITH_ERROR', code: failureOfOutput({ event }) ?? 'GENERIC_ERROR' })),
          },
          { guard: { type: 'hasFailed', params: failureOfOutput }, target: '#exam.finishFailed', actions: { type: 'assignFailure', params: failureOfOutput } },
          {
            actions: [
              assign({ receipt: ({ event }) => valueOf<FinishExamResponse>(event.output) }),
              raise({ type: 'FINISH' }),
            ],
          },
        ],
      },
      on: {
        'retry.requested': { actions: sendTo('finishExam', { type: 'retry.requested' }) },
        'connection.restored': { actions: sendTo('finishExam', { type: 'connection.restored' }) },
      },
    },
  },
  on: {
    FINISH: { target: 'finished', actions: assign({ outcome: 'sent', error: null }) },
    // Finish pressed after a proctor moved the pupil to another terminal: this terminal cannot
    // finish the exam, it sends what it holds and says the test goes on there.
    FINISH_WITH_ERROR: { guard: 'isMovedElsewhere', target: '#exam.movedAway' },
  },
});
