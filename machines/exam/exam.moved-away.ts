/**
 * Moved away (a top state of the exam): the server said this terminal no longer holds the exam
 * (403 INCORRECT_DEVICE: a proctor moved the pupil to another terminal, where the pupil goes on),
 * from a save or the heartbeat while the pupil answered, from finishing's calls (Finish pressed
 * here), or from loading the exam (a reload: the move revoked this terminal's token). No answer is
 * taken any more; what this terminal still holds goes to the server first, one answer at a time
 * as the sync region sends them (the server takes those given before the move, newest wins, and
 * refuses later ones, server/domain/answers/):
 * - reading (entered from loading, or at once on a reload whose stored session says so): the
 *   outbox's unsent answers of the sitting, then checking;
 * - checking -> sending while the server does not hold an answer given here (one still being
 *   written to the outbox when answering ended included), else sent;
 * - sending: a network failure (or a passing fault, or maintenance) waits and tries again,
 *   1 s doubling or at once when the browser is back online; a refusal for good marks that answer
 *   and the outbox forgets it; an acknowledgement marks it saved (or replaced by a later one);
 * - sent: nothing is left to send; the end screen says the pupil goes on at another terminal and
 *   that the answers of this one were sent (or how many the server refused), and only now offers
 *   Log out.
 * Until then the end screen says how many answers are kept here and that they are sent once the
 * network is back; Log out is not offered, so no answer is dropped unsent. Entering it, and each
 * refusal, is kept in the stored session (moved_away_refused, the refusals so far), so a reload,
 * with the network or without, comes straight back here with the same count.
 */
import { assign } from 'xstate';
import { isTransientFailure, type FailureCode } from '../shared/ports.ts';
import { allNotSaved, answersFromOutbox, failureOfError, markSaved, replacedBy, withStatus } from './exam.rules.ts';
import { examSetup } from './exam.setup.ts';
import type { AnswerToSave, ExamContext } from './exam.types.ts';

/**
 * The answer to send next: the first the server does not hold, one still being written to the
 * outbox included (answering ended before its write was heard of; it is sent from memory).
 */
function firstNotSaved(context: ExamContext): AnswerToSave | undefined {
  return allNotSaved(context)[0];
}

/** Its key, as removeFromOutbox takes keys (none when nothing is left). */
function firstNotSavedKeys(context: ExamContext): string[] {
  const first = firstNotSaved(context);
  return first ? [first.key] : [];
}

/** A save of the terminal moved away from that is tried again: no answer, a passing fault, maintenance. */
export function isMovedAwayRetry(code: FailureCode | null): boolean {
  return isTransientFailure(code) || code === 'DURING_MAINTENANCE';
}

export const movedAwayState = examSetup.createStateConfig({
  meta: { path: '/exam-end', screen: 'exam-end' },
  // The stored session keeps it: a reload comes back here, online or not (exam.machine.ts, idle).
  entry: [assign({ saveAttempts: 0 }), 'reportMovedAway'],
  initial: 'checking',
  states: {
    // Told on loading, or by the stored session (a reload): the outbox is all this terminal has of the exam.
    reading: {
      invoke: {
        id: 'loadUnsentAnswers',
        src: 'loadUnsentAnswers',
        input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId }),
        onDone: { target: 'checking', actions: assign({ answers: ({ event }) => answersFromOutbox(event.output) }) },
      },
    },
    checking: {
      always: [{ guard: 'hasAnswerNotSaved', target: 'sending' }, { target: 'sent' }],
    },
    sending: {
      invoke: {
        id: 'saveAnswer',
        src: 'saveAnswer',
        input: ({ context }) => firstNotSaved(context) as AnswerToSave,
        onDone: {
          target: 'checking',
          actions: [
            assign({
              answers: ({ context, event }) => {
                const output = event.output;
                return output.outcome === 'superseded'
                  ? replacedBy(context.answers, output.key, output.currentValue)
                  : markSaved(context.answers, [output.key]);
              },
              saveAttempts: 0,
            }),
            { type: 'removeFromOutbox', params: ({ event }) => ({ keys: [event.output.key] }) },
          ],
        },
        onError: [
          // No network, a passing server fault or maintenance: kept, and sent again later.
          { guard: ({ event }) => isMovedAwayRetry(failureOfError({ event })), target: 'waiting' },
          // Refused for good (given after the move, the exam over...): the outbox forgets it.
          {
            target: 'checking',
            actions: [
              { type: 'removeFromOutbox', params: ({ context }) => ({ keys: firstNotSavedKeys(context) }) },
              assign({ answers: ({ context }) => withStatus(context.answers, firstNotSaved(context)?.key ?? '', 'rejected') }),
              'reportMovedAway',
            ],
          },
        ],
      },
    },
    waiting: {
      after: { saveBackoff: { target: 'checking', actions: assign({ saveAttempts: ({ context }) => context.saveAttempts + 1 }) } },
      on: { 'connection.restored': { target: 'checking', actions: assign({ saveAttempts: 0 }) } },
    },
    sent: {
      entry: 'clearExamCache',
      on: { 'logout.requested': '#exam.leaving' },
    },
  },
});
