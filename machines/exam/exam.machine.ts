/**
 * The exam machine: one examinee's exam, from INIT_TEST to FINISH or FINISH_WITH_ERROR.
 *
 * Top states: idle -> loadingDetails -> confirming (login-confirm) -> tutorial -> ready
 * (exam-start) -> preparingOffline (exam-start: the app shell installed for an offline reload)
 * -> starting -> loadingQuestions -> (loaded, transient) -> answering (/start) ->
 * finishing -> finished (exam-end); a reload while finishing goes loaded -> finishing; loading,
 * answering and finishing -> movedAway (exam-end) when the server says a proctor moved the pupil
 * to another terminal: what this terminal holds is sent first (exam.moved-away.ts);
 * detailsFailed, questionsFailed and finishFailed offer a retry; unauthorized and leaving hand
 * control back to the kiosk. While answering, five regions run side by side:
 * view (the finish dialog), outbox (writes each answer to this terminal's outbox), sync
 * (sends what the outbox holds, quietly trying again with backoff while the network fails),
 * presence (the heartbeat every PRESENCE_INTERVAL_MS and at once when the page changes, and the
 * server's answers read again when the page comes back: another window may have replaced one)
 * and position (what the `position` child reports once the pupil pauses, taken from the child at
 * once when the page is hidden or goes away and when answering ends; see the invariants). The
 * child (machines/position) holds the question on screen and the view around it while the pupil
 * answers; the screen sends it the moves directly, so a question swap never reaches this machine.
 * The page's edge (`watchTerminal`) ticks every second and reports visibilitychange, focus,
 * online and pagehide; each re-derives the time left from the server's deadline, and past it the
 * exam finishes the normal way (never one long timer: a sleeping laptop pauses timers). It also
 * brings the answers the other windows of this sitting on this terminal had saved
 * (`answer.savedElsewhere`).
 * What the pupil arranged on screen, as last reported, is context reported to the kiosk (which
 * persists it in the stored session, seed section 3) and read back after a reload: the question index
 * (question_index), the question list (question_list_flag), the flags for review, the on-screen
 * alphabet keyboard (alphabets_keyboard_flag) and its capital letters (mode_upper_case_flag).
 *
 * Ending calls (any call of the exam): 401 NOT_LOGGED_IN raises UNAUTHORIZED (the kiosk logs out);
 * 401 ER_SCHEDULE_HISTORY_RETAKE (an administrator reset the account) raises UPDATE_FLAG_RETAKE:
 * state `retake` asks the kiosk to log out to the login page with error_code (the seed's "An
 * administrator has reset this account. Please log in again."); 403 INCORRECT_DEVICE raises
 * FINISH_WITH_ERROR: refusing Start (another terminal pressed Start first), the end screen with
 * "An exam was already started for this account", error_code kept so rule 5 keeps /exam-end; from
 * any call of a sitting under way (loading it, a save, the heartbeat, finishing), another terminal
 * holds it (a proctor moved the pupil there): `movedAway`; 401 DURING_MAINTENANCE
 * raises DURING_MAINTENANCE. Decision: maintenance ENDS the exam flow with the outside-test-hours
 * message (state `maintenance`: logout to the login page with error_code=DURING_MAINTENANCE);
 * unsent answers stay in this terminal's IndexedDB outbox (logout never clears it) and go out on
 * the next login and start, within the server's upload window; the deadline keeps running on the
 * server, so nothing is gained by waiting on a frozen screen.
 *
 * Invariants:
 * - answers are accepted only while answering;
 * - Start asks the server only once this terminal can reload the exam without the network (the
 *   app shell installed and in control), or once the pupil, told it cannot, chose to start anyway;
 * - the deadline is the server's (fixed at Start, seed section 4; moved only by the server: an
 *   extension or a time credit, learnt from the heartbeat and every save); the machine tracks the
 *   offset between the server's clock and this terminal's, and time left is always deadline −
 *   (terminal now + offset), re-derived on every tick and page change;
 * - past the deadline (a tick, a page change, or the server's TIME_END on any call of the
 *   running exam) the exam finishes through `finishing`, as Finish does;
 * - an answer the server holds differently (a later one from another window) is `replaced` and
 *   shows the server's value, never as saved; the windows of one sitting on this terminal tell
 *   each other of every answer the server acknowledged (`announceSaved`, heard as
 *   `answer.savedElsewhere`), and a later one than this window's replaces it at once; they share
 *   the nearest clock offset any of them measured (`shareClock`, heard as `clock.shared`), so two
 *   windows order their answers as the pupil gave them;
 * - what the exam needs to resume (questions, deadline, offset, index, answers the server holds)
 *   is cached on this terminal for this login only (`cacheExam`), and forgotten when the exam
 *   flow ends (`clearExamCache`); a reload whose loading fails on the network resumes from it;
 * - a reload resumes the question on screen from the stored session, which the kiosk writes when
 *   the exam reports its position (`reportProgress`). A move or a toggle of the view is reported
 *   once the pupil pauses (the `position` child: between one and two POSITION_PAUSE_MS after the
 *   last move, a burst of moves is one write, and no write is on a swap's frame), and at once when
 *   the page is hidden or goes away (pagehide: a reload, the window closed) and whenever
 *   `answering` is left (Finish, time up, a logout, an error); Start and a flag for review are
 *   reported at once. Until it is reported, the context holds the position last reported: what
 *   the heartbeat sends and what a whole-exam cache write (`cacheExam`) keeps. So a reload, a hidden
 *   page or the end of answering never loses the position; only a crash within the pause (the
 *   browser or the terminal dying with no pagehide) resumes on the position last reported.
 *   The exam cache takes the position whenever it is reported: when the page is next idle
 *   after the pause (`cachePosition`: an IndexedDB write of the whole exam, never near a swap's
 *   frame, one for a burst of moves), at once when the page is hidden or goes away (`cacheExam`);
 *   answers are never affected (the outbox writes each one before it is shown as saved);
 * - an answer is "saved on this terminal" only once the outbox wrote it (`storeAnswer`), and
 *   "saved" only after the server acknowledged its idempotency key; only then is it removed
 *   from the outbox (`removeFromOutbox`);
 * - after a reload the outbox's unsent answers are merged over the server's (the later
 *   answered_at wins) and sent again;
 * - finishing first sends every answer not yet saved, then asks the server to finish; both
 *   calls run in the retry machine, so a network failure opens the retry dialog, never a dead
 *   end; at 00:00 the exam finishes by itself the same way;
 * - once `finishing` is entered (Finish confirmed, time up, the server's word that the exam is
 *   over), the pupil's Finish outlives a reload: it is reported at once to the kiosk, which keeps
 *   it in the stored session (finish_pending, read back as `stored.finishPending`), and a resume,
 *   online or offline, loads the questions and the outbox and goes straight back to finishing
 *   (`loaded`), never to answering; it is cleared when the exam is completed (`reportCompleted`)
 *   or a new attempt starts, and goes with the stored session at a logout;
 * - once started, nothing leads back to the start screen (the exam cannot be restarted);
 *   Back and typed URLs are honoured only before Start (tutorial <-> login-confirm/start).
 *
 * Where each part lives: this file has the top states and the `answering` state's own events
 * (answers, moving between questions, the view and position regions, the clock);
 * `exam.saving.ts` the outbox and sync regions; `exam.presence.ts` the presence region;
 * `exam.finishing.ts` the finishing state; `exam.setup.ts` the actors, actions, guards and
 * delays by name; `exam.rules.ts` the pure rules they decide with; `exam.connect.ts` what the
 * screens render and may send.
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
          { guard: 'isUnauthorized', actions: 'raiseEnding' },
          { target: 'ready', actions: 'assignFailure' },
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
          { guard: 'isUnauthorized', actions: 'raiseEnding' },
          { guard: 'isAlreadyFinished', target: 'finished', actions: assign({ outcome: 'sent' }) },
          { guard: 'hasFailed', target: 'questionsFailed', actions: 'assignFailure' },
          {
            target: 'loaded',
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
