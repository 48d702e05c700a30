/**
 * The exam machine's vocabulary, by name: its types, the actors the edge provides (exam.actors.ts
 * gives the real ones; these stand-ins only say what each call is), the actions, the guards
 * (questions about the context or a call's result, decided by exam.rules.ts) and the delays.
 * exam.machine.ts and its parts (exam.saving.ts, exam.presence.ts, exam.finishing.ts,
 * exam.moved-away.ts) are built from this setup, so every name they use is checked against it.
 */
import { assign, fromCallback, raise, sendParent, setup } from 'xstate';
import { unprovided } from '../shared/unprovided.ts';
import { PRESENCE_INTERVAL_MS, type HeartbeatRequest, type HeartbeatResponse } from '../../contract/presence.ts';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { ExamDetails, ExamQuestions, StartExamResponse } from '../../contract/exam.ts';
import { backoffMs } from '../shared/backoff.ts';
import type { RetryInput, RetryOutput } from '../retry/retry.types.ts';
import { tutorialMachine } from '../tutorial/tutorial.machine.ts';
import { positionMachine } from '../position/position.machine.ts';
import type { FailureCode, OutboxEntry } from '../shared/ports.ts';
import {
  SAVE_RETRY_MAX_MS,
  SHELL_READY_TIMEOUT_MS,
  allNotSaved,
  endingCodes,
  examOverCodes,
  finalSaveRefusals,
  firstUnsent,
  firstUnwritten,
  isPastDeadlineAt,
  nearerOffset,
  offsetFrom,
  refusedOnThisTerminal,
  withAnswerSavedElsewhere,
  withStatus,
} from './exam.rules.ts';
import type {
  AnswerToSave,
  ExamContext,
  ExamEvent,
  ExamInput,
  ExamParentEvent,
  SaveAcknowledgement,
  TerminalSignal,
  WatchedSitting,
} from './exam.types.ts';

export { POSITION_PAUSE_MS } from '../position/position.machine.ts';

export const examSetup = setup({
  types: {
    context: {} as ExamContext,
    events: {} as ExamEvent,
    input: {} as ExamInput,
  },
  actors: {
    /** GET /exam-details inside the retry machine (checkConnection); its output's value is the details. */
    loadExamDetails: unprovided<RetryOutput, RetryInput>('loadExamDetails'),
    /** POST /exam/start: the server fixes the deadline. */
    startExam: unprovided<StartExamResponse, { scheduleHistoryId: number }>('startExam'),
    /**
     * GET /exam/questions, with the answers the server already holds and the outbox's unsent
     * ones, inside the retry machine (checkConnection); its output's value is a LoadedExam.
     */
    loadQuestions: unprovided<RetryOutput, RetryInput>('loadQuestions'),
    /**
     * What this terminal's outbox holds of the sitting, unsent: all a terminal moved away from has
     * of its exam after a reload (the server no longer answers it). An outbox that cannot be read
     * holds nothing this page can send.
     */
    loadUnsentAnswers: unprovided<OutboxEntry[], { scheduleHistoryId: number }>('loadUnsentAnswers'),
    /** Writes one answer to the outbox; resolves with its key once it is durable. */
    storeAnswer: unprovided<string, OutboxEntry>('storeAnswer'),
    /** POST /exam/answers for one answer; resolves with how the server took it. */
    saveAnswer: unprovided<SaveAcknowledgement, AnswerToSave>('saveAnswer'),
    /** POST /exam/heartbeat: this terminal is present; answers the current deadline and server time. */
    sendHeartbeat: unprovided<HeartbeatResponse, HeartbeatRequest>('sendHeartbeat'),
    /** GET /exam/questions once more, for the answers the server holds now (a tab switch). */
    loadServerAnswers: unprovided<ExamQuestions, { scheduleHistoryId: number }>('loadServerAnswers'),
    /**
     * Whether a reload without the network would bring the exam back: `shell.installed` once the
     * app shell is installed and controls the page (TerminalPort.shellReady, which tries a failed
     * install again meanwhile). With no edge to ask there is nothing to wait for: installed at once.
     */
    watchOfflineShell: fromCallback<ExamEvent>(({ sendBack }) => {
      sendBack({ type: 'shell.installed' });
    }),
    /** The page's ticks and wake-up signals (TerminalPort); none unless the edge provides them. */
    watchTerminal: fromCallback<TerminalSignal, WatchedSitting>(() => undefined),
    /**
     * Sends every answer not saved yet, in order, inside the retry machine (autoConnect, see
     * exam.actors.ts); its output's value is a FlushResult: the keys acknowledged, and those
     * refused for good (given after the deadline), which must not keep Finish from completing.
     */
    flushAnswers: unprovided<RetryOutput, RetryInput>('flushAnswers'),
    /** POST /exam/finish inside the retry machine (autoConnect); its output's value is the receipt. */
    finishExam: unprovided<RetryOutput, RetryInput>('finishExam'),
    /** The tutorial and its practice, the `tutorial` state's child (its GET is provided by the edge). */
    tutorial: tutorialMachine,
    /** Where the pupil is and what the pupil arranged, while answering: the `position` child. */
    position: positionMachine,
  },
  actions: {
    /**
     * What the pupil arranged (the question on screen, the list, the flags, the keyboard and its
     * capitals) to the kiosk, which keeps it in the stored session (seed section 3) for a
     * reload. Start reports at once; while answering, what the `position` child reports (a move or
     * a toggle once the pupil pauses, a flag at once), and what the exam takes from it when the page
     * is hidden or goes away and when answering ends.
     */
    reportProgress: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.progressed',
      change: {
        question_index: context.questionIndex,
        question_list_flag: context.view.listOpen,
        flagged_question_ids: context.view.flagged,
        alphabets_keyboard_flag: context.view.keyboardOpen,
        mode_upper_case_flag: context.view.upperCase,
      },
    })),
    /** The exam flow ended with the exam completed: a pending Finish (finish_pending) is done with. */
    reportCompleted: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.progressed',
      change: {
        is_completed: true,
        error_code: context.outcome === 'cancelled' ? (context.error as never) : null,
        ...(context.stored?.finishPending ? { finish_pending: false } : {}),
      },
    })),
    /**
     * Finishing was entered (Finish confirmed, time up, the server's word that the exam is over):
     * reported at once to the kiosk, which keeps it in the stored session (finish_pending, a
     * synchronous write), so a reload, online or offline, resumes finishing, not answering.
     * `pending` false: a new Start, after which no earlier Finish is pending.
     */
    reportFinishing: sendParent(
      (_, params: { pending: boolean }): ExamParentEvent => ({ type: 'exam.progressed', change: { finish_pending: params.pending } }),
    ),
    /**
     * Moved away, and each answer refused since: reported to the kiosk, which keeps it in the
     * stored session (moved_away_refused, with the refusals counted so far), so a reload, online
     * or not, goes back to the moved-away end screen with the same count.
     */
    reportMovedAway: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.progressed',
      change: { moved_away_refused: refusedOnThisTerminal(context) },
    })),
    requestLogout: sendParent((): ExamParentEvent => ({ type: 'exam.logoutRequested' })),
    reportUnauthorized: sendParent((): ExamParentEvent => ({ type: 'exam.unauthorized' })),
    /** Logout to the login page with the reason in the query (retake, maintenance). */
    requestLogoutWithError: sendParent(({ context }): ExamParentEvent => ({
      type: 'exam.logoutRequested',
      errorCode: context.error ?? 'GENERIC_ERROR',
    })),
    /** Raises the exam-level event that a call's ending failure stands for (machines/exam/README.md). */
    raiseEnding: raise((_, code: FailureCode | null): ExamEvent => {
      if (code === 'ER_SCHEDULE_HISTORY_RETAKE') return { type: 'UPDATE_FLAG_RETAKE' };
      if (code === 'DURING_MAINTENANCE') return { type: 'DURING_MAINTENANCE' };
      if (code === 'INCORRECT_DEVICE') return { type: 'FINISH_WITH_ERROR', code };
      return { type: 'UNAUTHORIZED' };
    }),
    assignFailure: assign((_, code: FailureCode | null) => ({ error: code ?? 'GENERIC_ERROR' })),
    clearError: assign({ error: null }),
    assignDetails: assign((_, details: ExamDetails | undefined) => {
      return details
        ? {
            details,
            clockOffsetMs: offsetFrom(details.server_time),
            startedAt: details.started_at ? Date.parse(details.started_at) : null,
            // Moved to this terminal by a proctor: resume where the server last saw the pupil.
            ...(details.resume_question_index != null ? { questionIndex: details.resume_question_index } : {}),
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
    /**
     * Keeps the question on screen in the cache, later: when the page is idle, not on the swap's
     * frame (a reload resumes the question from the stored session, which `reportProgress` writes
     * once the pupil pauses or the page is hidden); a `cacheExam` meanwhile carries it. Fire and
     * forget, the edge provides it.
     */
    cachePosition: () => {},
    /**
     * Tells the other windows of this sitting on this terminal that the server acknowledged the
     * answer with this key (`savedElsewhereOf(context, key)`: after the assignment before it);
     * fire and forget, the edge provides it (TerminalPort.announce).
     */
    announceSaved: (_, _params: { key: string }) => {},
    /**
     * Tells the other windows of this sitting on this terminal the clock offset this window holds
     * (after the assignment before it); fire and forget, the edge provides it (TerminalPort.shareClock).
     */
    shareClock: () => {},
    /** Another window's offset is the nearer one (see nearerOffset): this window takes it. */
    takeSharedClock: assign({
      clockOffsetMs: ({ context, event }) =>
        event.type === 'clock.shared' ? nearerOffset(event.clock.clockOffsetMs, context.clockOffsetMs) : context.clockOffsetMs,
    }),
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
    isDoing: (_, details: ExamDetails | undefined) => details?.status === ScheduleHistoryStatus.DOING,
    isCompleted: (_, details: ExamDetails | undefined) => {
      const status = details?.status;
      return status !== undefined && status !== ScheduleHistoryStatus.PENDING && status !== ScheduleHistoryStatus.DOING;
    },
    /** A failure that ends the exam flow (machines/exam/README.md): NOT_LOGGED_IN, RETAKE, maintenance, another device. */
    isUnauthorized: (_, code: FailureCode | null) => endingCodes.has(code ?? 'GENERIC_ERROR'),
    isAlreadyFinished: (_, code: FailureCode | null) => code === 'ER_SCHEDULE_HISTORY_COMPLETED',
    isCancelled: (_, code: FailureCode | null) => code === 'ER_SCHEDULE_HISTORY_CANCELLED',
    isFinalRefusal: (_, code: FailureCode | null) => finalSaveRefusals.has(code ?? 'GENERIC_ERROR'),
    hasFailed: (_, code: FailureCode | null) => code !== null,
    /** TIME_END (or finished from another window): the running exam finishes. */
    isExamOver: (_, code: FailureCode | null) => examOverCodes.has(code ?? 'GENERIC_ERROR'),
    /** The terminal's time in the event is at or past the server's deadline. */
    isPastDeadline: ({ context, event }) =>
      (event.type === 'clock.ticked' || event.type === 'page.changed') && isPastDeadlineAt(context, event.now),
    isPageVisible: ({ event }) => event.type === 'page.changed' && event.visible,
    /**
     * The page is hidden or going away while the exam runs on (past the deadline the page change
     * finishes the exam instead, and leaving `answering` reports the position anyway).
     */
    isPageHiddenInTime: ({ context, event }) =>
      event.type === 'page.changed' && !event.visible && !isPastDeadlineAt(context, event.now),
    wasSuperseded: (_, acknowledgement: SaveAcknowledgement) => acknowledgement.outcome === 'superseded',
    /** Another window of this sitting had a later answer acknowledged than this window's (see withAnswerSavedElsewhere). */
    isLaterAnswerSavedElsewhere: ({ context, event }) =>
      event.type === 'answer.savedElsewhere' && withAnswerSavedElsewhere(context, event.answer) !== null,
    /** Another window of this sitting (this login) shares an offset nearer than this window's, or a changed clock. */
    isNearerClockShared: ({ context, event }) =>
      event.type === 'clock.shared' &&
      event.clock.owner === context.answerSeed &&
      nearerOffset(event.clock.clockOffsetMs, context.clockOffsetMs) !== context.clockOffsetMs,
    /**
     * Another window of this sitting shares an offset this window's is nearer than: it is told
     * this one (a window that just loaded hears the nearest at once, not at the next response).
     */
    isLooserClockShared: ({ context, event }) =>
      event.type === 'clock.shared' && event.clock.owner === context.answerSeed && event.clock.clockOffsetMs < context.clockOffsetMs,
    /**
     * The server says another terminal holds the sitting under way (INCORRECT_DEVICE): a proctor
     * moved the pupil there. Asked where the sitting is under way; Start's refusal (another
     * terminal started first) ends as cancelled.
     */
    isMovedElsewhere: ({ event }) => event.type === 'FINISH_WITH_ERROR' && event.code === 'INCORRECT_DEVICE',
    isKnownQuestion: ({ context, event }) =>
      event.type === 'answer.given' && context.questions.some((q) => q.id === event.questionId),
    hasUnsentAnswer: ({ context }) => firstUnsent(context) !== undefined,
    hasUnwrittenAnswer: ({ context }) => firstUnwritten(context) !== undefined,
    hasAnswerNotSaved: ({ context }) => allNotSaved(context).length > 0,
    /** The stored session says the pupil's Finish is still pending (a reload during finishing). */
    isFinishPending: ({ context }) => context.stored?.finishPending === true,
    /** The stored session says a proctor moved the pupil away from this terminal (moved_away_refused). */
    wasMovedAway: ({ context }) => context.stored?.movedAwayRefused != null,
  },
  delays: {
    /** Start's wait for the app shell before the pupil may start without it. */
    shellReadyTimeout: SHELL_READY_TIMEOUT_MS,
    /** Between heartbeats while answering (contract/presence.ts). */
    heartbeatInterval: PRESENCE_INTERVAL_MS,
    /** 1 s, doubling, at most SAVE_RETRY_MAX_MS (seed section 7). */
    saveBackoff: ({ context }) => backoffMs(context.saveAttempts, { maxMs: SAVE_RETRY_MAX_MS }),
  },
});
