/**
 * The exam machine: one examinee's exam, from INIT_TEST to FINISH or FINISH_WITH_ERROR.
 *
 * Top states: idle -> loadingDetails -> confirming (login-confirm) -> tutorial -> ready
 * (exam-start) -> preparingOffline (exam-start) -> starting -> loadingQuestions -> (loaded,
 * transient) -> answering (/start; five parallel regions: view, outbox, sync, presence and
 * position) -> finishing -> finished (exam-end); a reload while finishing goes loaded ->
 * finishing; loading, answering and finishing -> movedAway (exam-end) when the server says a
 * proctor moved the pupil to another terminal; detailsFailed, questionsFailed and finishFailed
 * offer a retry; unauthorized, retake, maintenance and leaving hand control back to the kiosk.
 *
 * Where each part lives: this file has the top states and the `answering` state's own events
 * (answers, the `position` child's reports, the other windows' answers and clock, the clock,
 * focus losses) and its view and position regions; `exam.saving.ts` the outbox and sync regions;
 * `exam.presence.ts` the presence region; `exam.finishing.ts` the finishing state;
 * `exam.moved-away.ts` the movedAway state; `exam.setup.ts` the actors, actions, guards and
 * delays by name; `exam.rules.ts` the pure rules they decide with (`exam.constants.ts` the two
 * facts the shell reads before the exam loads); `exam.types.ts` the context, events and input;
 * `exam.actors.ts` the real calls; `memory-exam-cache.ts` the exam cache in memory;
 * `exam.selectors.ts` snapshot to view; `exam.connect.ts` what the screens render and may send.
 *
 * The regions and the page's edge in detail, the calls that end the exam, and the invariants:
 * machines/exam/README.md.
 */
import { assign, enqueueActions, raise, sendTo, stateIn, type ActorRefFrom } from 'xstate';
import type { positionMachine } from '../position/position.machine.ts';
import { finishingState } from './exam.finishing.ts';
import { movedAwayState } from './exam.moved-away.ts';
import { presenceRegion } from './exam.presence.ts';
import {
  DEFAULT_TIME_LIMIT_SECONDS,
  answerKey,
  detailsOf,
  failureOfError,
  failureOfOutput,
  loadInputOf,
  mergeAnswers,
  offsetFrom,
  valueOf,
  withAnswerSavedElsewhere,
} from './exam.rules.ts';
import { outboxRegion, syncRegion } from './exam.saving.ts';
import { examSetup } from './exam.setup.ts';
import type { LoadedExam } from './exam.types.ts';

type PositionActor = ActorRefFrom<typeof positionMachine>;

/**
 * The position as the `position` child holds it now, taken into the context and reported (with
 * the exam cache: at once when `urgent`, the page may be going away; else when the page is idle),
 * if a move or a toggle there waits for the pupil's pause. Read from the child's snapshot, in the
 * same step: the page may be gone, or the child stopped, before it could report by itself.
 */
const takePosition = (urgent: boolean) =>
  examSetup.enqueueActions(({ self, enqueue }) => {
    const position = (self.getSnapshot() as { children?: { position?: PositionActor } } | undefined)?.children?.position;
    const live = position?.getSnapshot();
    if (!position || !live?.matches('unreported')) return;
    const { questionIndex, view } = live.context;
    enqueue.assign({ questionIndex, view });
    enqueue('reportProgress');
    enqueue(urgent ? 'cacheExam' : 'cachePosition');
    if (urgent) enqueue.sendTo(position, { type: 'position.taken' });
  });

export const examMachine = examSetup.createMachine({
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
    view: {
      listOpen: input.session.question_list_flag,
      flagged: input.session.flagged_question_ids ?? [],
      keyboardOpen: input.session.alphabets_keyboard_flag,
      upperCase: input.session.mode_upper_case_flag,
    },
    focusLosses: 0,
    stored: { finishPending: input.session.finish_pending ?? false, movedAwayRefused: input.session.moved_away_refused ?? null },
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
      on: {
        INIT_TEST: [
          // A reload of a terminal a proctor moved the pupil away from: what the outbox holds is
          // sent, even without the network, and the exam is never answered here again.
          { guard: 'wasMovedAway', target: 'movedAway.reading' },
          { target: 'loadingDetails' },
        ],
      },
    },
    loadingDetails: {
      tags: ['busy'],
      meta: { screen: 'booting' },
      invoke: {
        id: 'loadExamDetails',
        src: 'loadExamDetails',
        input: ({ context }) => ({ variant: 'checkConnection' as const, input: loadInputOf(context) }),
        onDone: [
          { guard: { type: 'isUnauthorized', params: failureOfOutput }, actions: { type: 'raiseEnding', params: failureOfOutput } },
          { guard: { type: 'hasFailed', params: failureOfOutput }, target: 'detailsFailed', actions: { type: 'assignFailure', params: failureOfOutput } },
          // Seed section 2, rule 6: a completed exam goes to the end screen.
          {
            guard: { type: 'isCompleted', params: ({ event }) => detailsOf(event.output) },
            target: 'finished',
            actions: assign({ details: ({ event }) => detailsOf(event.output) ?? null, outcome: 'sent' }),
          },
          {
            guard: { type: 'isDoing', params: ({ event }) => detailsOf(event.output) },
            target: 'loadingQuestions',
            actions: { type: 'assignDetails', params: ({ event }) => detailsOf(event.output) },
          },
          { target: 'confirming', actions: { type: 'assignDetails', params: ({ event }) => detailsOf(event.output) } },
        ],
      },
      on: {
        // The retry dialog's OK, and the browser back online: the retry machine decides.
        'dialog.closed': { actions: sendTo('loadExamDetails', { type: 'dialog.closed' }) },
        'connection.restored': { actions: sendTo('loadExamDetails', { type: 'connection.restored' }) },
        // A reload after a proctor moved the pupil away (the move revoked this terminal's token):
        // what the outbox holds is sent before the end says so.
        FINISH_WITH_ERROR: { guard: 'isMovedElsewhere', target: '#exam.movedAway.reading' },
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
      // The tutorial and its practice (machines/tutorial): its Continue sends tutorial.completed.
      invoke: {
        id: 'tutorial',
        src: 'tutorial',
        input: ({ context }) => ({
          scheduleHistoryId: context.scheduleHistoryId,
          questionCount: context.details?.exam.question_count ?? 0,
          // The exam's own limit; the seed's 40 minutes until its details say otherwise (as the start screen).
          timeLimitSeconds: context.details?.exam.time_limit_seconds ?? DEFAULT_TIME_LIMIT_SECONDS,
        }),
      },
      on: { 'tutorial.completed': 'ready' },
    },
    ready: {
      meta: { path: '/exam-start', screen: 'exam-start' },
      on: { 'start.confirmed': { target: 'preparingOffline', actions: ['clearError', 'requestFullscreen'] } },
    },
    /**
     * Start was pressed; before the server is asked (the time limit has not begun), this terminal
     * gets ready for a reload without the network: the app shell installed and in control of the
     * page. On a fresh profile (kiosks that wipe theirs at boot) the first install takes a few
     * seconds, and a reload before it ends shows the browser's error page instead of the exam.
     * Already installed (every later load), or nothing to wait for: straight on to `starting`.
     * The edge tries a failed install again. If the shell is not there within
     * SHELL_READY_TIMEOUT_MS, the pupil is told, and may start without it (the exam works online
     * as always; only a reload while offline would fail), while the wait goes on: once
     * installed, the exam starts by itself. A kiosk never strands a pupil at Start for a cache,
     * and never hides that it is missing.
     */
    preparingOffline: {
      meta: { path: '/exam-start', screen: 'exam-start' },
      invoke: { id: 'watchOfflineShell', src: 'watchOfflineShell' },
      on: { 'shell.installed': 'starting' },
      initial: 'waiting',
      states: {
        waiting: {
          tags: ['busy'],
          after: { shellReadyTimeout: 'unavailable' },
        },
        unavailable: {
          on: { 'shell.skipped': '#exam.starting' },
        },
      },
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
              view: ({ context }) => ({ ...context.view, keyboardOpen: true, upperCase: false }),
            }),
            raise({ type: 'START_SUCCESSFULLY' }),
          ],
        },
        onError: [
          { guard: { type: 'isUnauthorized', params: failureOfError }, actions: { type: 'raiseEnding', params: failureOfError } },
          { target: 'ready', actions: { type: 'assignFailure', params: failureOfError } },
        ],
      },
      on: {
        START_SUCCESSFULLY: {
          target: 'loadingQuestions',
          actions: [
            'reportProgress',
            // A new attempt: no Finish of an earlier one is pending (reported only when one was).
            enqueueActions(({ context, enqueue }) => {
              if (!context.stored?.finishPending) return;
              enqueue.assign({ stored: { ...context.stored, finishPending: false } });
              enqueue({ type: 'reportFinishing', params: { pending: false } });
            }),
          ],
        },
      },
    },
    loadingQuestions: {
      tags: ['busy'],
      meta: { path: '/start', screen: 'exam' },
      invoke: {
        id: 'loadQuestions',
        src: 'loadQuestions',
        input: ({ context }) => ({ variant: 'checkConnection' as const, input: loadInputOf(context) }),
        onDone: [
          { guard: { type: 'isUnauthorized', params: failureOfOutput }, actions: { type: 'raiseEnding', params: failureOfOutput } },
          { guard: { type: 'isAlreadyFinished', params: failureOfOutput }, target: 'finished', actions: assign({ outcome: 'sent' }) },
          { guard: { type: 'hasFailed', params: failureOfOutput }, target: 'questionsFailed', actions: { type: 'assignFailure', params: failureOfOutput } },
          {
            target: 'loaded',
            actions: enqueueActions(({ context, event, enqueue }) => {
              const loaded = valueOf<LoadedExam>(event.output);
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
        // Another terminal holds the sitting (a proctor moved the pupil there): the outbox goes first.
        FINISH_WITH_ERROR: { guard: 'isMovedElsewhere', target: '#exam.movedAway.reading' },
      },
    },
    /**
     * The questions and answers are in hand (never at rest here): a Finish the pupil confirmed
     * (or time up) before a reload goes straight back to finishing, with the answers just merged
     * (the outbox's unsent ones are flushed first); otherwise the pupil answers.
     */
    loaded: {
      always: [{ guard: 'isFinishPending', target: 'finishing', actions: 'cacheExam' }, { target: 'answering' }],
    },
    questionsFailed: {
      meta: { path: '/start', screen: 'exam' },
      on: { 'retry.requested': { target: 'loadingQuestions', actions: 'clearError' } },
    },
    answering: {
      meta: { path: '/start', screen: 'exam' },
      type: 'parallel',
      // What is on screen is what a reload without the network resumes from; the other windows of
      // this sitting hear this window's clock offset (and a nearer one is told back).
      entry: ['cacheExam', 'shareClock'],
      invoke: [
        // The page's ticks and wake-up signals (clock.ticked, page.changed), for as long as the pupil answers.
        {
          id: 'watchTerminal',
          src: 'watchTerminal',
          input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed }),
        },
        // Where the pupil is and what the pupil arranged: the screen sends it the moves directly.
        {
          id: 'position',
          src: 'position',
          input: ({ context }) => ({
            questionIndex: context.questionIndex,
            view: context.view,
            questionIds: context.questions.map((question) => question.id),
          }),
        },
      ],
      on: {
        // A save or the heartbeat told INCORRECT_DEVICE: a proctor moved the pupil to another terminal.
        FINISH_WITH_ERROR: { guard: 'isMovedElsewhere', target: '#exam.movedAway' },
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
        // Another window of this sitting on this terminal had a later answer saved: it replaces this
        // window's (shown as replaced where this window showed another value); an earlier one is ignored.
        'answer.savedElsewhere': {
          guard: 'isLaterAnswerSavedElsewhere',
          actions: enqueueActions(({ context, event, enqueue }) => {
            const taken = withAnswerSavedElsewhere(context, event.answer);
            if (!taken) return;
            enqueue.assign({ answers: taken.answers });
            if (taken.stale.length) enqueue({ type: 'removeFromOutbox', params: { keys: taken.stale } });
            enqueue('cacheExam');
          }),
        },
        // Another window of this sitting measured the server's clock: a nearer offset (or a changed
        // clock) is taken; a window holding a looser one is told this window's.
        'clock.shared': [
          { guard: 'isNearerClockShared', actions: 'takeSharedClock' },
          { guard: 'isLooserClockShared', actions: 'shareClock' },
        ],
        // The `position` child's report: the pupil paused after moves or toggles, or flagged a question.
        'position.reported': {
          actions: [
            assign({ questionIndex: ({ event }) => event.position.questionIndex, view: ({ event }) => event.position.view }),
            'reportProgress',
            'cachePosition',
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
        outbox: outboxRegion,
        sync: syncRegion,
        presence: presenceRegion,
        /**
         * The position (the question on screen, the list, the flags, the keyboard and its capitals)
         * lives in the `position` child, which reports it once the pupil pauses (a flag at once).
         * The stored session (localStorage, synchronous: about 4 ms at 4x CPU throttle) is written
         * then, not on every move: the swap's frame stays the screen's. This region takes what
         * waits for the pause from the child at once when the page is hidden or goes away (a reload
         * fires pagehide first) and when answering ends, whichever way (its exit).
         */
        position: {
          exit: takePosition(false),
          on: {
            // The page may go away: the cache takes the position now, not when the page is idle.
            'page.changed': { guard: 'isPageHiddenInTime', actions: takePosition(true) },
          },
        },
      },
    },
    finishing: finishingState,
    movedAway: movedAwayState,
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
