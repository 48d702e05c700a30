/**
 * How an answer is saved while the pupil answers: two regions of `answering`, side by side.
 *
 * - outbox: each answer given is written to this terminal's outbox first (`storeAnswer`); only
 *   then is it "saved on this terminal". An outbox that refuses (no IndexedDB) leaves it in
 *   memory, still sent, shown as not saved.
 * - sync: what the outbox holds goes to the server one answer at a time (`saveAnswer`), oldest
 *   question first; "saved" only once the server acknowledged its idempotency key, then it is
 *   removed from the outbox. A network failure (or a passing server fault) waits and tries again
 *   quietly, 1 s doubling to SAVE_RETRY_MAX_MS, or at once when the browser is back online; a
 *   refusal for good is marked and forgotten; TIME_END finishes the exam; the ending codes end
 *   the exam flow (machines/exam/README.md). An acknowledged answer is told to the other windows
 *   of this sitting on this terminal (`announceSaved`); the machine takes a later one of theirs
 *   (`answer.savedElsewhere`, exam.machine.ts).
 */
import { assign } from 'xstate';
import type { OutboxEntry } from '../shared/ports.ts';
import { failureOfError, firstUnsent, firstUnsentKeys, firstUnwritten, markSaved, offsetFrom, replacedBy, withStatus } from './exam.rules.ts';
import { examSetup } from './exam.setup.ts';
import type { AnswerToSave } from './exam.types.ts';

/** Writes each answer given to this terminal's outbox, one at a time. */
export const outboxRegion = examSetup.createStateConfig({
  initial: 'idle',
  states: {
    idle: { always: { guard: 'hasUnwrittenAnswer', target: 'storing' } },
    storing: {
      invoke: {
        id: 'storeAnswer',
        src: 'storeAnswer',
        input: ({ context }) => firstUnwritten(context) as OutboxEntry,
        onDone: {
          target: 'idle',
          actions: assign({ answers: ({ context, event }) => withStatus(context.answers, event.output, 'local') }),
        },
        // No outbox (IndexedDB refused): the answer is still sent, but shows as not saved.
        onError: {
          target: 'idle',
          actions: assign({
            answers: ({ context }) => withStatus(context.answers, firstUnwritten(context)?.key ?? '', 'unsaved'),
          }),
        },
      },
    },
  },
});

/** Sends what the outbox holds to the server, one answer at a time, quietly trying again. */
export const syncRegion = examSetup.createStateConfig({
  initial: 'idle',
  states: {
    idle: { always: { guard: 'hasUnsentAnswer', target: 'saving' } },
    saving: {
      invoke: {
        id: 'saveAnswer',
        src: 'saveAnswer',
        input: ({ context }) => firstUnsent(context) as AnswerToSave,
        onDone: [
          {
            // Acknowledged, but another window's later answer is held: shown as replaced, with its value.
            guard: { type: 'wasSuperseded', params: ({ event }) => event.output },
            target: 'idle',
            actions: [
              assign({
                answers: ({ context, event }) => replacedBy(context.answers, event.output.key, event.output.currentValue),
                clockOffsetMs: ({ context, event }) => offsetFrom(event.output.serverTime, context.clockOffsetMs),
                deadlineAt: ({ event }) => Date.parse(event.output.deadlineAt),
                saveAttempts: 0,
              }),
              { type: 'removeFromOutbox', params: ({ event }) => ({ keys: [event.output.key] }) },
              'cacheExam',
              'shareClock',
            ],
          },
          {
            target: 'idle',
            actions: [
              assign({
                answers: ({ context, event }) => markSaved(context.answers, [event.output.key]),
                clockOffsetMs: ({ context, event }) => offsetFrom(event.output.serverTime, context.clockOffsetMs),
                deadlineAt: ({ event }) => Date.parse(event.output.deadlineAt),
                saveAttempts: 0,
              }),
              { type: 'removeFromOutbox', params: ({ event }) => ({ keys: [event.output.key] }) },
              // The other windows of this sitting on this terminal learn of it at once.
              { type: 'announceSaved', params: ({ event }) => ({ key: event.output.key }) },
              'cacheExam',
              'shareClock',
            ],
          },
        ],
        onError: [
          { guard: { type: 'isUnauthorized', params: failureOfError }, actions: { type: 'raiseEnding', params: failureOfError } },
          // TIME_END (given after the deadline, or too late to upload): time is up, the exam finishes.
          {
            guard: { type: 'isExamOver', params: failureOfError },
            target: '#exam.finishing',
            actions: [{ type: 'removeFromOutbox', params: ({ context }) => ({ keys: firstUnsentKeys(context) }) }, 'rejectFirstUnsent'],
          },
          // Refused for good (invalid...): it will never be accepted, so the outbox forgets it.
          {
            guard: { type: 'isFinalRefusal', params: failureOfError },
            target: 'idle',
            actions: [{ type: 'removeFromOutbox', params: ({ context }) => ({ keys: firstUnsentKeys(context) }) }, 'rejectFirstUnsent'],
          },
          // The network (or a passing server fault): the pupil keeps answering; try again quietly.
          { target: 'waiting' },
        ],
      },
    },
    waiting: {
      after: { saveBackoff: { target: 'idle', actions: assign({ saveAttempts: ({ context }) => context.saveAttempts + 1 }) } },
      on: { 'connection.restored': { target: 'idle', actions: assign({ saveAttempts: 0 }) } },
    },
  },
});
