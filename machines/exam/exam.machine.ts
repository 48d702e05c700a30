/**
 * The exam machine: one examinee's exam, from INIT_TEST to FINISH or FINISH_WITH_ERROR.
 *
 * Top states: idle -> loadingDetails -> confirming (login-confirm) -> tutorial -> ready
 * (exam-start) -> starting -> loadingQuestions -> answering (/start) -> finishing -> finished
 * (exam-end); detailsFailed, questionsFailed and finishFailed offer a retry; unauthorized and
 * leaving hand control back to the kiosk. While answering, four regions run side by side:
 * view (the finish dialog), outbox (writes each answer to this terminal's outbox), sync
 * (sends what the outbox holds, quietly trying again with backoff while the network fails) and
 * presence (the heartbeat every PRESENCE_INTERVAL_MS and at once when the page changes, and the
 * server's answers read again when the page comes back: another window may have replaced one).
 * The page's edge (`watchTerminal`) ticks every second and reports visibilitychange, focus and
 * online; each re-derives the time left from the server's deadline, and past it the exam
 * finishes the normal way (never one long timer: a sleeping laptop pauses timers).
 * What the pupil arranged on screen is context reported to the kiosk (which persists it in the
 * stored session, seed section 3) and read back after a reload: the question index
 * (question_index), the question list (question_list_flag), the flags for review, the on-screen
 * alphabet keyboard (alphabets_keyboard_flag) and its capital letters (mode_upper_case_flag).
 *
 * Ending calls (any call of the exam): 401 NOT_LOGGED_IN raises UNAUTHORIZED (the kiosk logs out);
 * 401 ER_SCHEDULE_HISTORY_RETAKE (an administrator reset the account) raises UPDATE_FLAG_RETAKE:
 * state `retake` asks the kiosk to log out to the login page with error_code (the seed's "An
 * administrator has reset this account. Please log in again."); 403 INCORRECT_DEVICE (another
 * terminal pressed Start) raises FINISH_WITH_ERROR: the end screen with "An exam was already
 * started for this account", error_code kept so rule 5 keeps /exam-end; 401 DURING_MAINTENANCE
 * raises DURING_MAINTENANCE. Decision: maintenance ENDS the exam flow with the outside-test-hours
 * message (state `maintenance`: logout to the login page with error_code=DURING_MAINTENANCE);
 * unsent answers stay in this terminal's IndexedDB outbox (logout never clears it) and go out on
 * the next login and start, within the server's upload window; the deadline keeps running on the
 * server, so nothing is gained by waiting on a frozen screen.
 *
 * Invariants:
 * - answers are accepted only while answering;
 * - the deadline is the server's (fixed at Start, seed section 4; moved only by the server: an
 *   extension or a time credit, learnt from the heartbeat and every save); the machine tracks the
 *   offset between the server's clock and this terminal's, and time left is always deadline −
 *   (terminal now + offset), re-derived on every tick and page change;
 * - past the deadline (a tick, a page change, or the server's TIME_END on any call of the
 *   running exam) the exam finishes through `finishing`, as Finish does;
 * - an answer the server holds differently (a later one from another window) is `replaced` and
 *   shows the server's value, never as saved;
 * - what the exam needs to resume (questions, deadline, offset, index, answers the server holds)
 *   is cached on this terminal for this login only (`cacheExam`), and forgotten when the exam
 *   flow ends (`clearExamCache`); a reload whose loading fails on the network resumes from it;
 * - an answer is "saved on this terminal" only once the outbox wrote it (`storeAnswer`), and
 *   "saved" only after the server acknowledged its idempotency key; only then is it removed
 *   from the outbox (`removeFromOutbox`);
 * - after a reload the outbox's unsent answers are merged over the server's (the later
 *   answered_at wins) and sent again;
 * - finishing first sends every answer not yet saved, then asks the server to finish; both
 *   calls run in the retry machine, so a network failure opens the retry dialog, never a dead
 *   end; at 00:00 the exam finishes by itself the same way;
 * - once started, nothing leads back to the start screen (the exam cannot be restarted);
 *   Back and typed URLs are honoured only before Start (tutorial <-> login-confirm/start).
 */
import { assign, enqueueActions, fromCallback, fromPromise, raise, sendParent, sendTo, setup, stateIn } from 'xstate';
import { PRESENCE_INTERVAL_MS, type HeartbeatRequest, type HeartbeatResponse } from '../../contract/presence.ts';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import {
  type ExamDetails,
  type ExamQuestions,
  type FinishExamResponse,
  type SavedAnswer,
  type StartExamResponse,
} from '../../contract/exam.ts';
import { backoffMs } from '../retry/retry.machine.ts';
import type { RetryInput, RetryOutput } from '../retry/retry.types.ts';
import { failureCodeOf, type FailureCode, type OutboxEntry } from '../shared/ports.ts';
import type {
  AnswerEntry,
  AnswerToSave,
  CachedExam,
  ExamContext,
  ExamEvent,
  ExamInput,
  ExamParentEvent,
  FlushResult,
  LoadedExam,
  LoadInput,
  SaveAcknowledgement,
  TerminalSignal,
} from './exam.types.ts';

/** Codes after which a save will never succeed; retrying them would loop forever. */
export const finalSaveRefusals: ReadonlySet<FailureCode> = new Set([
  'TIME_END',
  // An answer of an attempt an administrator reset: the server keeps it archived, never takes it.
  'ARCHIVE_KEY',
  'ER_SCHEDULE_HISTORY_COMPLETED',
  'ER_SCHEDULE_HISTORY_CANCELLED',
  'VALIDATION_ERROR',
  'NOT_FOUND',
  // An answer of an attempt an administrator reset, resent from the outbox after the new login.
  'ARCHIVE_KEY',
]);

/** Failures of any exam call that end the exam flow: each raises its exam-level event. */
export const endingCodes: ReadonlySet<FailureCode> = new Set([
  'NOT_LOGGED_IN',
  'ER_SCHEDULE_HISTORY_RETAKE',
  'DURING_MAINTENANCE',
  'INCORRECT_DEVICE',
]);

/** Background saves try again from 1 s, doubling, at most this far apart (seed section 7). */
export const SAVE_RETRY_MAX_MS = 8_000;

/**
 * Refusals that say the exam is over on the server (time is up, or it was finished from another
 * window): the running exam finishes (the finish call answers the receipt either way).
 */
export const examOverCodes: ReadonlySet<FailureCode> = new Set(['TIME_END', 'ER_SCHEDULE_HISTORY_COMPLETED']);

/** Ids of the calls that run in the retry machine (the retry dialog reads them). */
export const retriedCalls = ['loadExamDetails', 'loadQuestions', 'flushAnswers', 'finishExam'] as const;

/** Statuses of answers the server does not hold yet and that are ready to send. */
const unsentStatuses: ReadonlySet<AnswerEntry['status']> = new Set(['local', 'unsaved']);

function offsetFrom(serverTime: string): number {
  return Date.parse(serverTime) - Date.now();
}

function toSave(context: ExamContext, questionId: number, entry: AnswerEntry): AnswerToSave {
  return {
    scheduleHistoryId: context.scheduleHistoryId,
    questionId,
    value: entry.value,
    key: entry.key,
    answeredAt: entry.answeredAt,
  };
}

/** Answers in question order whose status is one of `statuses`. */
function answersIn(context: ExamContext, statuses: ReadonlySet<AnswerEntry['status']>): AnswerToSave[] {
  return context.questions.flatMap((question) => {
    const entry = context.answers[question.id];
    return entry && statuses.has(entry.status) ? [toSave(context, question.id, entry)] : [];
  });
}

const writingStatus: ReadonlySet<AnswerEntry['status']> = new Set(['writing']);
/** Everything the server does not hold yet: finishing sends it all. */
const notSavedStatuses: ReadonlySet<AnswerEntry['status']> = new Set(['writing', 'local', 'unsaved']);

/** Whether the server's deadline has passed at this terminal time (epoch ms), on the server's clock. */
export function isPastDeadlineAt(context: Pick<ExamContext, 'deadlineAt' | 'clockOffsetMs'>, now: number): boolean {
  return context.deadlineAt !== null && now + context.clockOffsetMs >= context.deadlineAt;
}

/** Answers the server is known to hold (saved, or replaced by the server's own). */
const serverKnownStatuses: ReadonlySet<AnswerEntry['status']> = new Set(['saved', 'replaced']);
/** Answers still on their way to the server: this window's newest word on the question. */
const pendingStatuses: ReadonlySet<AnswerEntry['status']> = new Set(['writing', 'local', 'unsaved']);

/** What the cache keeps of this exam, or null before the exam is loaded. */
export function cachedExamOf(context: ExamContext): CachedExam | null {
  if (!context.details || context.deadlineAt === null || context.questions.length === 0) return null;
  const answers: SavedAnswer[] = context.questions.flatMap((question) => {
    const entry = context.answers[question.id];
    return entry && serverKnownStatuses.has(entry.status)
      ? [{ question_id: question.id, value: entry.value, answered_at: entry.answeredAt }]
      : [];
  });
  return {
    scheduleHistoryId: context.scheduleHistoryId,
    owner: context.answerSeed,
    details: context.details,
    questions: context.questions,
    answers,
    deadlineAt: new Date(context.deadlineAt).toISOString(),
    clockOffsetMs: context.clockOffsetMs,
    questionIndex: context.questionIndex,
  };
}

/**
 * The answers once the server's are known again (a tab switch): where the server holds a value
 * other than this window's acknowledged (or refused) one, the server's replaces it, marked
 * `replaced`; a question only the server has an answer to shows it as saved; answers still on
 * their way are left alone (they are this window's newest word and go out next).
 */
function withServerAnswers(context: ExamContext, held: readonly SavedAnswer[]): Pick<ExamContext, 'answers' | 'revision'> {
  const answers = { ...context.answers };
  let revision = context.revision;
  const known = new Set(context.questions.map((q) => q.id));
  for (const saved of held) {
    if (!known.has(saved.question_id)) continue;
    const local = answers[saved.question_id];
    if (!local) {
      revision += 1;
      answers[saved.question_id] = { value: saved.value, answeredAt: saved.answered_at, key: answerKey(context.answerSeed, revision), status: 'saved' };
    } else if (pendingStatuses.has(local.status)) {
      continue;
    } else if (local.value !== saved.value) {
      answers[saved.question_id] = { ...local, value: saved.value, answeredAt: saved.answered_at, status: 'replaced' };
    } else if (local.status === 'rejected') {
      answers[saved.question_id] = { ...local, status: 'saved' };
    }
  }
  return { answers, revision };
}

/** Marks the answer with this key replaced by the server's value (a later answer from another window). */
function replacedBy(answers: Record<number, AnswerEntry>, key: string, value: string | undefined): Record<number, AnswerEntry> {
  const next: Record<number, AnswerEntry> = {};
  for (const [id, entry] of Object.entries(answers)) {
    next[Number(id)] = entry.key === key ? { ...entry, value: value ?? entry.value, status: 'replaced' } : entry;
  }
  return next;
}

function firstUnsent(context: ExamContext): AnswerToSave | undefined {
  return answersIn(context, unsentStatuses)[0];
}

/** The key of the answer being sent, if any (a list, as removeFromOutbox takes). */
function firstUnsentKeys(context: ExamContext): string[] {
  const first = firstUnsent(context);
  return first ? [first.key] : [];
}

function firstUnwritten(context: ExamContext): AnswerToSave | undefined {
  return answersIn(context, writingStatus)[0];
}

function allNotSaved(context: ExamContext): AnswerToSave[] {
  return answersIn(context, notSavedStatuses);
}

/** Sets the status of the answer with this key (a newer revision of the question is left alone). */
function withStatus(answers: Record<number, AnswerEntry>, key: string, status: AnswerEntry['status']): Record<number, AnswerEntry> {
  const next: Record<number, AnswerEntry> = {};
  for (const [id, entry] of Object.entries(answers)) next[Number(id)] = entry.key === key ? { ...entry, status } : entry;
  return next;
}

/**
 * The answers after a (re)load: the server's, with the outbox's unsent ones merged over them
 * where they were given later. Returns the merged answers and the outbox keys now stale.
 */
function mergeAnswers(
  loaded: LoadedExam,
  keyOf: (index: number) => string,
): { answers: Record<number, AnswerEntry>; stale: string[] } {
  const answers: Record<number, AnswerEntry> = {};
  loaded.answers.forEach((saved, i) => {
    answers[saved.question_id] = { value: saved.value, answeredAt: saved.answered_at, key: keyOf(i), status: 'saved' };
  });
  const known = new Set(loaded.questions.map((q) => q.id));
  const stale: string[] = [];
  const byTime = [...loaded.unsent].sort((a, b) => Date.parse(a.answeredAt) - Date.parse(b.answeredAt));
  for (const entry of byTime) {
    const current = answers[entry.questionId];
    if (!known.has(entry.questionId) || (current && Date.parse(current.answeredAt) >= Date.parse(entry.answeredAt))) {
      stale.push(entry.key);
      continue;
    }
    if (current && current.status !== 'saved') stale.push(current.key);
    answers[entry.questionId] = { value: entry.value, answeredAt: entry.answeredAt, key: entry.key, status: 'local' };
  }
  return { answers, stale };
}

/** The output of a call run in the retry machine, or of an error event. */
function failureOfEvent(event: unknown): FailureCode | null {
  const e = event as { error?: unknown; output?: unknown };
  if ('error' in e) return failureCodeOf(e.error);
  const output = e.output as RetryOutput | undefined;
  return output && typeof output === 'object' && 'ok' in output && output.ok === false ? output.error : null;
}

function valueOf<T>(event: unknown): T {
  return ((event as { output: RetryOutput }).output as { value: T }).value;
}

/** The exam details a successful loadExamDetails delivered, if that is what the event is. */
function detailsOf(event: unknown): ExamDetails | undefined {
  const output = (event as { output?: RetryOutput }).output;
  return output?.ok ? (output.value as ExamDetails) : undefined;
}

/** Marks the answers whose keys the server acknowledged (a newer version stays unsent). */
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
 * still a valid v4 UUID, and reproducible, so a replayed exam sends the same keys. After a
 * (re)load the revisions continue from the server's time in ms, so a reload never reuses a key
 * it made before (the server would refuse it as ER_DUP_ENTRY).
 */
export function answerKey(seed: string, revision: number): string {
  return `${seed.slice(0, 24)}${revision.toString(16).padStart(12, '0')}`;
}

const errorCodeOf = ({ event }: { event: unknown }) => failureOfEvent(event);

/** The loading calls' input: the sitting, and whose cached exam may stand in offline. */
function loadInputOf(context: ExamContext): LoadInput {
  return { scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed };
}

export const examMachine = setup({
  types: {
    context: {} as ExamContext,
    events: {} as ExamEvent,
    input: {} as ExamInput,
  },
  actors: {
    /** GET /exam-details inside the retry machine (checkConnection); its output's value is the details. */
    loadExamDetails: fromPromise<RetryOutput, RetryInput>(async () => {
      throw new Error('loadExamDetails is provided by the edge');
    }),
    /** POST /exam/start: the server fixes the deadline. */
    startExam: fromPromise<StartExamResponse, { scheduleHistoryId: number }>(async () => {
      throw new Error('startExam is provided by the edge');
    }),
    /**
     * GET /exam/questions, with the answers the server already holds and the outbox's unsent
     * ones, inside the retry machine (checkConnection); its output's value is a LoadedExam.
     */
    loadQuestions: fromPromise<RetryOutput, RetryInput>(async () => {
      throw new Error('loadQuestions is provided by the edge');
    }),
    /** Writes one answer to the outbox; resolves with its key once it is durable. */
    storeAnswer: fromPromise<string, OutboxEntry>(async () => {
      throw new Error('storeAnswer is provided by the edge');
    }),
    /** POST /exam/answers for one answer; resolves with how the server took it. */
    saveAnswer: fromPromise<SaveAcknowledgement, AnswerToSave>(async () => {
      throw new Error('saveAnswer is provided by the edge');
    }),
    /** POST /exam/heartbeat: this terminal is present; answers the current deadline and server time. */
    sendHeartbeat: fromPromise<HeartbeatResponse, HeartbeatRequest>(async () => {
      throw new Error('sendHeartbeat is provided by the edge');
    }),
    /** GET /exam/questions once more, for the answers the server holds now (a tab switch). */
    loadServerAnswers: fromPromise<ExamQuestions, { scheduleHistoryId: number }>(async () => {
      throw new Error('loadServerAnswers is provided by the edge');
    }),
    /** The page's ticks and wake-up signals (TerminalPort); none unless the edge provides them. */
    watchTerminal: fromCallback<TerminalSignal>(() => undefined),
    /**
     * Sends every answer not saved yet, in order, inside the retry machine (autoConnect, see
     * exam.actors.ts); its output's value is a FlushResult: the keys acknowledged, and those
     * refused for good (given after the deadline), which must not keep Finish from completing.
     */
    flushAnswers: fromPromise<RetryOutput, RetryInput>(async () => {
      throw new Error('flushAnswers is provided by the edge');
    }),
    /** POST /exam/finish inside the retry machine (autoConnect); its output's value is the receipt. */
    finishExam: fromPromise<RetryOutput, RetryInput>(async () => {
      throw new Error('finishExam is provided by the edge');
    }),
  },
  actions: {
    reportProgress: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.progressed',
      change: {
        question_index: context.questionIndex,
        question_list_flag: context.questionListOpen,
        flagged_question_ids: context.flagged,
        alphabets_keyboard_flag: context.keyboardOpen,
        mode_upper_case_flag: context.upperCase,
      },
    })),
    reportCompleted: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.progressed',
      change: { is_completed: true, error_code: context.outcome === 'cancelled' ? (context.error as never) : null },
    })),
    requestLogout: sendParent((): ExamParentEvent => ({ type: 'exam.logoutRequested' })),
    reportUnauthorized: sendParent((): ExamParentEvent => ({ type: 'exam.unauthorized' })),
    /** Logout to the login page with the reason in the query (retake, maintenance). */
    requestLogoutWithError: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.logoutRequested',
      errorCode: context.error ?? 'GENERIC_ERROR',
    })),
    /** Raises the exam-level event that a call's ending failure stands for (see the header). */
    raiseEnding: raise(({ event }): ExamEvent => {
      const code = failureOfEvent(event);
      if (code === 'ER_SCHEDULE_HISTORY_RETAKE') return { type: 'UPDATE_FLAG_RETAKE' };
      if (code === 'DURING_MAINTENANCE') return { type: 'DURING_MAINTENANCE' };
      if (code === 'INCORRECT_DEVICE') return { type: 'FINISH_WITH_ERROR', code };
      return { type: 'UNAUTHORIZED' };
    }),
    assignFailure: assign({ error: ({ event }) => failureOfEvent(event) ?? 'GENERIC_ERROR' }),
    clearError: assign({ error: null }),
    assignDetails: assign(({ event }) => {
      const details = detailsOf(event);
      return details
        ? {
            details,
            clockOffsetMs: offsetFrom(details.server_time),
            startedAt: details.started_at ? Date.parse(details.started_at) : null,
          }
        : {};
    }),
    /**
     * Kiosk: asks the browser for fullscreen as Start is pressed (inside the pupil's gesture);
     * the edge provides it and ignores a refusal.
     */
    requestFullscreen: () => {},
    /** Reports the running count of focus losses to the server; fire and forget, never blocking. */
    reportFocusLoss: (_, _params: { scheduleHistoryId: number; count: number; at: string }) => {},
    /** Forgets acknowledged (or stale) answers in the outbox; the edge provides it. */
    removeFromOutbox: (_, _params: { keys: readonly string[] }) => {},
    /**
     * Keeps what the exam needs to resume offline (`cachedExamOf(context)`: after the assignments
     * before it); fire and forget, the edge provides it.
     */
    cacheExam: () => {},
    /** Forgets the cached exam (the exam flow ended); fire and forget, the edge provides it. */
    clearExamCache: () => {},
    assignVisibility: assign({
      visible: ({ context, event }) => (event.type === 'page.changed' ? event.visible : context.visible),
    }),
    /**
     * The answer being sent (the first not sent) is refused for good: marked (the outbox is told
     * to forget it just before, while it is still the first not sent).
     */
    rejectFirstUnsent: assign({
      answers: ({ context }) => withStatus(context.answers, firstUnsent(context)?.key ?? '', 'rejected'),
    }),
  },
  guards: {
    isDoing: ({ event }) => detailsOf(event)?.status === ScheduleHistoryStatus.DOING,
    isCompleted: ({ event }) => {
      const status = detailsOf(event)?.status;
      return status !== undefined && status !== ScheduleHistoryStatus.PENDING && status !== ScheduleHistoryStatus.DOING;
    },
    /** A failure that ends the exam flow (see the header): NOT_LOGGED_IN, RETAKE, maintenance, another device. */
    isUnauthorized: (args) => endingCodes.has(errorCodeOf(args as never) ?? 'GENERIC_ERROR'),
    isAlreadyFinished: (args) => errorCodeOf(args as never) === 'ER_SCHEDULE_HISTORY_COMPLETED',
    isCancelled: (args) => errorCodeOf(args as never) === 'ER_SCHEDULE_HISTORY_CANCELLED',
    isFinalRefusal: (args) => finalSaveRefusals.has(errorCodeOf(args as never) ?? 'GENERIC_ERROR'),
    hasFailed: (args) => errorCodeOf(args as never) !== null,
    /** TIME_END (or finished from another window): the running exam finishes. */
    isExamOver: (args) => examOverCodes.has(errorCodeOf(args as never) ?? 'GENERIC_ERROR'),
    /** The terminal's time in the event is at or past the server's deadline. */
    isPastDeadline: ({ context, event }) =>
      (event.type === 'clock.ticked' || event.type === 'page.changed') && isPastDeadlineAt(context, event.now),
    isPageVisible: ({ event }) => event.type === 'page.changed' && event.visible,
    wasSuperseded: ({ event }) => (event as { output?: SaveAcknowledgement }).output?.outcome === 'superseded',
    isKnownQuestion: ({ context, event }) =>
      event.type === 'answer.given' && context.questions.some((q) => q.id === event.questionId),
    isFlaggableQuestion: ({ context, event }) =>
      event.type === 'question.flagged' && context.questions.some((q) => q.id === event.questionId),
    hasNext: ({ context }) => context.questionIndex < context.questions.length - 1,
    hasPrevious: ({ context }) => context.questionIndex > 0,
    isValidIndex: ({ context, event }) =>
      event.type === 'question.selected' &&
      Number.isInteger(event.index) && event.index >= 0 && event.index < context.questions.length,
    hasUnsentAnswer: ({ context }) => firstUnsent(context) !== undefined,
    hasUnwrittenAnswer: ({ context }) => firstUnwritten(context) !== undefined,
    hasAnswerNotSaved: ({ context }) => allNotSaved(context).length > 0,
  },
  delays: {
    /** Between heartbeats while answering (contract/presence.ts). */
    heartbeatInterval: PRESENCE_INTERVAL_MS,
    /** 1 s, doubling, at most SAVE_RETRY_MAX_MS (seed section 7). */
    saveBackoff: ({ context }) => backoffMs(context.saveAttempts, SAVE_RETRY_MAX_MS),
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
    startedAt: null,
    visible: true,
    saveAttempts: 0,
    clockOffsetMs: 0,
    error: null,
    receipt: null,
    outcome: null,
    questionListOpen: input.session.question_list_flag,
    flagged: input.session.flagged_question_ids ?? [],
    keyboardOpen: input.session.alphabets_keyboard_flag,
    upperCase: input.session.mode_upper_case_flag,
    focusLosses: 0,
  }),
  initial: 'idle',
  on: {
    UNAUTHORIZED: '.unauthorized',
    UPDATE_FLAG_RETAKE: { target: '.retake', actions: assign({ error: 'ER_SCHEDULE_HISTORY_RETAKE' }) },
    DURING_MAINTENANCE: { target: '.maintenance', actions: assign({ error: 'DURING_MAINTENANCE' }) },
    // Finishing's ER_SCHEDULE_HISTORY_CANCELLED, and INCORRECT_DEVICE from any call: the end screen says why.
    FINISH_WITH_ERROR: {
      target: '.finished',
      actions: assign({ outcome: 'cancelled', error: ({ event }) => event.code }),
    },
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
        input: ({ context }) => ({ variant: 'checkConnection' as const, input: loadInputOf(context) }),
        onDone: [
          { guard: 'isUnauthorized', actions: 'raiseEnding' },
          { guard: 'hasFailed', target: 'detailsFailed', actions: 'assignFailure' },
          // Seed section 2, rule 6: a completed exam goes to the end screen.
          {
            guard: 'isCompleted',
            target: 'finished',
            actions: assign({ details: ({ event }) => detailsOf(event) ?? null, outcome: 'sent' }),
          },
          {
            guard: 'isDoing',
            target: 'loadingQuestions',
            actions: 'assignDetails',
          },
          { target: 'confirming', actions: 'assignDetails' },
        ],
      },
      on: {
        // The retry dialog's OK, and the browser back online: the retry machine decides.
        'dialog.closed': { actions: sendTo('loadExamDetails', { type: 'dialog.closed' }) },
        'connection.restored': { actions: sendTo('loadExamDetails', { type: 'connection.restored' }) },
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
      on: { 'start.confirmed': { target: 'starting', actions: ['clearError', 'requestFullscreen'] } },
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
              startedAt: ({ event }) => Date.parse(event.output.started_at),
              clockOffsetMs: ({ event }) => offsetFrom(event.output.server_time),
              questionIndex: 0,
              // A new exam starts with the alphabet keyboard shown, in small letters.
              keyboardOpen: true,
              upperCase: false,
            }),
            raise({ type: 'START_SUCCESSFULLY' }),
          ],
        },
        onError: [
          { guard: 'isUnauthorized', actions: 'raiseEnding' },
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
        input: ({ context }) => ({ variant: 'checkConnection' as const, input: loadInputOf(context) }),
        onDone: [
          { guard: 'isUnauthorized', actions: 'raiseEnding' },
          { guard: 'isAlreadyFinished', target: 'finished', actions: assign({ outcome: 'sent' }) },
          { guard: 'hasFailed', target: 'questionsFailed', actions: 'assignFailure' },
          {
            target: 'answering',
            actions: enqueueActions(({ context, event, enqueue }) => {
              const loaded = valueOf<LoadedExam>(event);
              // Revisions continue from the server's time, so no key made before a reload comes back.
              const base = Math.max(context.revision, Date.parse(loaded.server_time));
              const { answers, stale } = mergeAnswers(loaded, (i) => answerKey(context.answerSeed, base + i + 1));
              enqueue.assign({
                questions: loaded.questions,
                answers,
                revision: base + loaded.answers.length,
                deadlineAt: Date.parse(loaded.deadline_at),
                clockOffsetMs: loaded.keptClockOffsetMs ?? offsetFrom(loaded.server_time),
                questionIndex: Math.min(Math.max(0, context.questionIndex), Math.max(0, loaded.questions.length - 1)),
              });
              if (stale.length) enqueue({ type: 'removeFromOutbox', params: { keys: stale } });
            }),
          },
        ],
      },
      on: {
        'dialog.closed': { actions: sendTo('loadQuestions', { type: 'dialog.closed' }) },
        'connection.restored': { actions: sendTo('loadQuestions', { type: 'connection.restored' }) },
      },
    },
    questionsFailed: {
      meta: { path: '/start', screen: 'exam' },
      on: { 'retry.requested': { target: 'loadingQuestions', actions: 'clearError' } },
    },
    answering: {
      meta: { path: '/start', screen: 'exam' },
      type: 'parallel',
      // What is on screen is what a reload without the network resumes from.
      entry: 'cacheExam',
      // The page's ticks and wake-up signals (clock.ticked, page.changed), for as long as the pupil answers.
      invoke: { id: 'watchTerminal', src: 'watchTerminal' },
      on: {
        // At 00:00 the exam finishes by itself with every answer given, re-derived on every tick
        // (a laptop that slept past the deadline finishes on its first tick awake).
        'clock.ticked': { guard: 'isPastDeadline', target: '#exam.finishing' },
        'answer.given': {
          guard: 'isKnownQuestion',
          actions: assign({
            answers: ({ context, event }) => ({
              ...context.answers,
              [event.questionId]: {
                value: event.value,
                answeredAt: new Date(Date.now() + context.clockOffsetMs).toISOString(),
                key: answerKey(context.answerSeed, context.revision + 1),
                status: 'writing',
              },
            }),
            revision: ({ context }) => context.revision + 1,
          }),
        },
        'question.next': {
          guard: 'hasNext',
          actions: [assign({ questionIndex: ({ context }) => context.questionIndex + 1 }), 'reportProgress', 'cacheExam'],
        },
        'question.previous': {
          guard: 'hasPrevious',
          actions: [assign({ questionIndex: ({ context }) => context.questionIndex - 1 }), 'reportProgress', 'cacheExam'],
        },
        'question.selected': {
          guard: 'isValidIndex',
          actions: [assign({ questionIndex: ({ event }) => event.index }), 'reportProgress', 'cacheExam'],
        },
        'questionList.toggled': {
          actions: [assign({ questionListOpen: ({ context }) => !context.questionListOpen }), 'reportProgress'],
        },
        'keyboard.toggled': {
          actions: [assign({ keyboardOpen: ({ context }) => !context.keyboardOpen }), 'reportProgress'],
        },
        'upperCase.toggled': {
          actions: [assign({ upperCase: ({ context }) => !context.upperCase }), 'reportProgress'],
        },
        'question.flagged': {
          guard: 'isFlaggableQuestion',
          actions: [
            assign({
              flagged: ({ context, event }) =>
                context.flagged.includes(event.questionId)
                  ? context.flagged.filter((id) => id !== event.questionId)
                  : [...context.flagged, event.questionId],
            }),
            'reportProgress',
          ],
        },
        // Kiosk: the window lost focus (blur, hidden tab); counted and reported, never blocking.
        'focus.lost': {
          actions: [
            assign({ focusLosses: ({ context }) => context.focusLosses + 1 }),
            {
              type: 'reportFocusLoss',
              params: ({ context }) => ({
                scheduleHistoryId: context.scheduleHistoryId,
                count: context.focusLosses,
                at: new Date(Date.now() + context.clockOffsetMs).toISOString(),
              }),
            },
          ],
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
        outbox: {
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
        },
        sync: {
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
                    guard: 'wasSuperseded',
                    target: 'idle',
                    actions: [
                      assign({
                        answers: ({ context, event }) => replacedBy(context.answers, event.output.key, event.output.currentValue),
                        clockOffsetMs: ({ event }) => offsetFrom(event.output.serverTime),
                        deadlineAt: ({ event }) => Date.parse(event.output.deadlineAt),
                        saveAttempts: 0,
                      }),
                      { type: 'removeFromOutbox', params: ({ event }) => ({ keys: [event.output.key] }) },
                      'cacheExam',
                    ],
                  },
                  {
                    target: 'idle',
                    actions: [
                      assign({
                        answers: ({ context, event }) => markSaved(context.answers, [event.output.key]),
                        clockOffsetMs: ({ event }) => offsetFrom(event.output.serverTime),
                        deadlineAt: ({ event }) => Date.parse(event.output.deadlineAt),
                        saveAttempts: 0,
                      }),
                      { type: 'removeFromOutbox', params: ({ event }) => ({ keys: [event.output.key] }) },
                      'cacheExam',
                    ],
                  },
                ],
                onError: [
                  { guard: 'isUnauthorized', actions: 'raiseEnding' },
                  // TIME_END (given after the deadline, or too late to upload): time is up, the exam finishes.
                  {
                    guard: 'isExamOver',
                    target: '#exam.finishing',
                    actions: [{ type: 'removeFromOutbox', params: ({ context }) => ({ keys: firstUnsentKeys(context) }) }, 'rejectFirstUnsent'],
                  },
                  // Refused for good (invalid...): it will never be accepted, so the outbox forgets it.
                  {
                    guard: 'isFinalRefusal',
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
        },
        // Best effort: its failures are silent, except the refusals that end the exam flow or the time.
        presence: {
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
                      clockOffsetMs: offsetFrom(event.output.server_time),
                    })),
                    'cacheExam',
                  ],
                },
                onError: [
                  { guard: 'isUnauthorized', actions: 'raiseEnding' },
                  { guard: 'isExamOver', target: '#exam.finishing' },
                  { target: 'beating' },
                ],
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
                }),
                onDone: {
                  target: 'waiting',
                  // The current deadline (a proctor's extension, a time credit) and a fresh offset.
                  actions: [
                    assign({
                      deadlineAt: ({ event }) => Date.parse(event.output.deadline_at),
                      clockOffsetMs: ({ event }) => offsetFrom(event.output.server_time),
                    }),
                    'cacheExam',
                  ],
                },
                onError: [
                  { guard: 'isUnauthorized', actions: 'raiseEnding' },
                  { guard: 'isExamOver', target: '#exam.finishing' },
                  { target: 'waiting' },
                ],
              },
            },
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
          always: [{ guard: 'hasAnswerNotSaved', target: 'flushing' }, { target: 'submitting' }],
        },
        flushing: {
          invoke: {
            id: 'flushAnswers',
            src: 'flushAnswers',
            input: ({ context }) => ({ variant: 'autoConnect' as const, input: allNotSaved(context) }),
            onDone: [
              { guard: 'isUnauthorized', actions: 'raiseEnding' },
              { guard: 'hasFailed', target: '#exam.finishFailed', actions: 'assignFailure' },
              {
                target: 'submitting',
                actions: enqueueActions(({ context, event, enqueue }) => {
                  const { saved, refused } = valueOf<FlushResult>(event);
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
              { guard: 'isUnauthorized', actions: 'raiseEnding' },
              {
                guard: 'isCancelled',
                actions: raise(({ event }) => ({ type: 'FINISH_WITH_ERROR', code: failureOfEvent(event) ?? 'GENERIC_ERROR' })),
              },
              { guard: 'hasFailed', target: '#exam.finishFailed', actions: 'assignFailure' },
              {
                actions: [
                  assign({ receipt: ({ event }) => valueOf<FinishExamResponse>(event) }),
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
      },
    },
    finishFailed: {
      meta: { path: '/start', screen: 'exam' },
      on: { 'retry.requested': { target: 'finishing', actions: 'clearError' } },
    },
    finished: {
      meta: { path: '/exam-end', screen: 'exam-end' },
      entry: ['reportCompleted', 'clearExamCache'],
      on: { 'logout.requested': 'leaving' },
    },
    unauthorized: {
      entry: ['clearExamCache', 'reportUnauthorized'],
    },
    /** UPDATE_FLAG_RETAKE: an administrator reset the account; logout with the retake message. */
    retake: {
      entry: ['clearExamCache', 'requestLogoutWithError'],
    },
    /** DURING_MAINTENANCE: outside test hours; logout with the message (answers stay in the outbox). */
    maintenance: {
      entry: ['clearExamCache', 'requestLogoutWithError'],
    },
    leaving: {
      entry: ['clearExamCache', 'requestLogout'],
    },
  },
});
