// @vitest-environment jsdom
/**
 * The UI level of the exam's and the retry dialog's model-based tests (ARCHITECTURE.md), the same
 * approach as app.model.test.tsx: an abstract model of what a pupil sees and does from
 * the moment the exam flow starts (the session is already stored on this terminal) to the end
 * screen or the login page, where the server's answers, the network, the clock and a reload of
 * the terminal are explicit events. Its shortest paths (every transition, self-transitions
 * included) drive the real app: the real kiosk, session, exam and retry machines, the router and
 * the screens, over an API whose calls wait for the path, an outbox that can refuse, an exam
 * cache that outlives a restart, an app shell installed already or still installing (a fresh
 * profile: Start waits with its step on screen, and after its time-out the pupil may start anyway), the page's signals (the clock's ticks, the page hidden or
 * shown again, a laptop waking after the deadline) sent by the path, and a SimulatedClock for
 * every machine's delays (the heartbeat's 10 s, the background save's backoff, the retry
 * machine's backoff), so time moves only when the path says so.
 *
 * A move between questions or a toggle of the view is kept in the stored session once the pupil
 * pauses (the exam's `position` child): each such step clicks, sees nothing stored yet, and lets
 * the pause pass; one step leafs through two questions and hides the window within the pause;
 * one makes every move and toggle within one pause, and sees it stored one pause later. A typed
 * answer is given by the same child once typing pauses (the clock passes it) or the box is left.
 *
 * Every state checks what is on screen, the URL, the calls waiting and what is stored. The exam,
 * retry and position machines' transitions taken are reported as `model coverage exam (through
 * the app)`, `model coverage retry (through the app)` and `model coverage position (through the
 * app)`, and must be all of them.
 */
import type { createMemoryHistory } from '@tanstack/react-router';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createMachine, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { SHELL_READY_TIMEOUT_MS } from '../../machines/exam/exam.rules.ts';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import type { ClockShared, ExamContext, ExamSession, TerminalPort, TerminalSignal } from '../../machines/exam/exam.types.ts';
import type { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { TEXT_COMMIT_DELAY_MS, positionMachine } from '../../machines/position/position.machine.ts';
import { retryMachine } from '../../machines/retry/retry.machine.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { createMemoryOutbox } from '../../machines/shared/memory-outbox.ts';
import { createMemoryExamCache } from '../../machines/exam/memory-exam-cache.ts';
import type { FailureCode, OutboxEntry, OutboxPort } from '../../machines/shared/ports.ts';
import { examineeKeys, readSession, readStoredErrorCode, readToken, writeSession } from '../../machines/shared/storage.ts';
import type { Question } from '../../contract/exam.ts';
import { createControlledApi, type ControlledApi } from '../helpers/controlled-api.ts';
import { demoExaminee, demoQuestions } from '../helpers/fake-api.ts';
import { renderKioskApp, serverAnswers } from '../helpers/render-app.tsx';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { CoverageRecorder, allTransitions, recordByMachine } from './harness.ts';

/** What the pupil sees and does during the exam; the server, the network, the clock and a reload are events too. */
const pupilExamModel = createMachine({
  id: 'pupilExam',
  initial: 'loadingDetails',
  states: {
    loadingDetails: {
      on: {
        'server.sendsDetails': 'confirming',
        'server.fails': 'detailsFailed',
        'server.refusesToken': 'signingOut',
        // A proctor moved the pupil to another terminal (this one's token revoked); nothing is kept here.
        'server.saysOtherTerminal': 'movedAwayAllSent',
        // Down for good: the backoff's one wait, a second failure, then the dialog.
        'network.fails': 'detailsOffline',
        // Down for a moment: back online during the backoff, the call runs again.
        'network.blips': 'loadingDetails',
      },
    },
    detailsOffline: {
      on: {
        'pupil.pressesOk': 'detailsFailed',
        'browser.goesOnline': 'loadingDetails',
      },
    },
    detailsFailed: {
      on: {
        'pupil.triesAgain': 'loadingDetails',
        'pupil.saysNotMe': 'signingOut',
      },
    },
    confirming: {
      on: {
        'pupil.confirms': 'tutorial',
        'pupil.saysNotMe': 'signingOut',
      },
    },
    tutorial: {
      on: {
        'pupil.continues': 'ready',
        'pupil.pressesBack': 'confirming',
      },
    },
    ready: {
      on: {
        // The app shell is installed already (every load after a terminal's first): Start goes straight on.
        'pupil.pressesStart': 'starting',
        // A fresh profile (a kiosk that wipes its own at boot): the shell is still being installed.
        'pupil.pressesStartOnFreshTerminal': 'preparingOffline',
        'pupil.pressesBack': 'tutorial',
      },
    },
    preparingOffline: {
      on: {
        'terminal.installsShell': 'starting',
        'clock.passesShellWait': 'offlineUnavailable',
      },
    },
    // Told this terminal is not ready to work offline: the pupil may start anyway, and the wait goes on.
    offlineUnavailable: {
      on: {
        'pupil.startsAnyway': 'starting',
        'terminal.installsShell': 'starting',
      },
    },
    starting: {
      on: {
        'server.startsExam': 'loadingQuestions',
        'network.fails': 'startFailed',
        'server.isInMaintenance': 'signingOutMaintenance',
      },
    },
    startFailed: { on: { 'pupil.pressesStart': 'starting' } },
    loadingQuestions: {
      on: {
        'server.sendsQuestions': 'answering',
        'network.fails': 'questionsOffline',
        'network.blips': 'loadingQuestions',
        'server.saysRetake': 'signingOutRetake',
        'server.saysAlreadyFinished': 'endedAlready',
        'server.saysOtherTerminal': 'movedAwayAllSent',
      },
    },
    questionsOffline: {
      on: {
        'pupil.pressesOk': 'questionsFailed',
        'browser.goesOnline': 'loadingQuestions',
      },
    },
    questionsFailed: { on: { 'pupil.triesAgain': 'loadingQuestions' } },
    // On question 1, every answer saved on the server, no call waiting.
    answering: {
      on: {
        'pupil.choosesAnswer': 'answerSaving',
        'pupil.answersWhileOffline': 'answerOnTerminal',
        'pupil.answersButTerminalCannotStore': 'answerOnlyInMemory',
        'pupil.goesToNextQuestion': 'onTextQuestion',
        'pupil.opensQuestionList': 'questionListOpen',
        'pupil.flagsQuestion': 'questionFlagged',
        'window.losesFocus': 'answering',
        'pupil.asksToFinish': 'confirmingFinish',
        'clock.reachesDeadline': 'finishing',
        // A laptop whose lid was closed past the deadline opens again: the exam finishes at once.
        'terminal.wakesAfterDeadline': 'finishing',
        'terminal.restarts': 'resuming',
        'clock.passesHeartbeatInterval': 'heartbeatSending',
        'window.hides': 'heartbeatSendingHidden',
        // Next, Next, and the window hidden before the pause: question 3 is stored at once.
        'pupil.leafsAheadAndLeavesWindow': 'awayOnLastQuestion',
        // Every move and toggle within one pause, ending on question 2 with the keyboard hidden:
        // stored once, a pause after the pause in which the burst ended.
        'pupil.browsesInABurst': 'keyboardHidden',
        // Another window of this exam on this terminal has a later answer to question 1 saved: shown here at once.
        'anotherWindow.savesLaterAnswer': 'answerFromAnotherWindow',
        // Another window measured the server's clock five minutes ahead of this window's estimate
        // (this terminal's clock was set back): this window times the exam by it.
        'anotherWindow.sharesNearerClock': 'answeringOnSharedClock',
        // Another window holds a looser estimate (it loaded slowly): it is told this window's.
        'anotherWindow.sharesLooserClock': 'answering',
      },
    },
    answeringOnSharedClock: {},
    // Question 1 shows the other window's answer, saved on the server (this window had none).
    answerFromAnotherWindow: { on: { 'anotherWindow.savesLaterAnswer': 'answerReplacedByAnotherWindow' } },
    // The other window changed it again: question 1 shows its new answer, as replaced (never as saved).
    answerReplacedByAnotherWindow: {},
    awayOnLastQuestion: { on: { 'server.acknowledgesHeartbeat': 'hiddenOnLastQuestion' } },
    hiddenOnLastQuestion: {},
    // The heartbeat is on its way (best effort: its failures are silent).
    heartbeatSending: {
      on: {
        'server.acknowledgesHeartbeat': 'answering',
        'server.extendsTime': 'answeringWithMoreTime',
        'network.failsQuietly': 'answering',
        // A proctor moved the pupil to another terminal, and nothing is left to send here.
        'server.saysOtherTerminal': 'movedAwayAllSent',
        'server.saysTimeIsUp': 'finishing',
      },
    },
    heartbeatSendingHidden: { on: { 'server.acknowledgesHeartbeat': 'answering' } },
    // A proctor gave five more minutes: the old deadline passes and the pupil goes on.
    answeringWithMoreTime: {
      on: {
        'clock.passesOldDeadline': 'answeringWithMoreTime',
        'clock.reachesDeadline': 'finishing',
      },
    },
    answerSaving: {
      on: {
        'server.savesAnswer': 'answering',
        // A proctor moved the pupil to another terminal: the answer given here is sent first.
        'server.saysOtherTerminal': 'movedAwaySending',
        'server.keepsLaterAnswerFromAnotherWindow': 'answerReplaced',
      },
    },
    // Question 1 shows the answer another window gave later, as replaced (never as saved here).
    answerReplaced: {
      on: {
        'pupil.returnsToWindow': 'rereadingAnswers',
        'pupil.choosesAnswer': 'answerSaving',
      },
    },
    // Back in this window: the server's answers are read again.
    rereadingAnswers: {
      on: {
        'server.sendsAnswersFromAnotherWindow': 'replacedAgain',
        'network.failsQuietly': 'heartbeatAfterReread',
        'server.refusesToken': 'signingOut',
        'server.saysAlreadyFinished': 'finishing',
      },
    },
    replacedAgain: { on: { 'server.acknowledgesHeartbeat': 'answerReplaced' } },
    heartbeatAfterReread: { on: { 'server.acknowledgesHeartbeat': 'answerReplaced' } },
    // The network is down: the answer is kept on this terminal and sent again later.
    answerOnTerminal: {
      on: {
        'clock.passesBackoff': 'answerResending',
        'browser.goesOnline': 'answerResending',
        'pupil.asksToFinish': 'confirmingFinishWithUnsent',
        // The terminal restarts while the network is down: it resumes from what it kept.
        'terminal.restartsOffline': 'resumingOffline',
        // The terminal restarts with the answer kept here, and the server says it was moved away meanwhile.
        'terminal.restarts': 'resumingWithUnsent',
      },
    },
    resumingWithUnsent: { on: { 'server.saysOtherTerminal': 'movedAwaySending' } },
    resumingOffline: { on: { 'network.isDown': 'resumingOfflineQuestions' } },
    resumingOfflineQuestions: { on: { 'network.isDown': 'resumedOffline' } },
    // The same question, the time left from the kept deadline, the answer still on this terminal (sent again).
    resumedOffline: { on: { 'network.isDown': 'answerOnTerminal' } },
    answerResending: {
      on: {
        'server.savesAnswer': 'answering',
        // Time is up on the server (the terminal's clock lagged): the exam finishes.
        'server.saysTimeIsUp': 'finishing',
        'server.refusesAnswer': 'answerRefused',
      },
    },
    answerRefused: { on: { 'pupil.asksToFinish': 'confirmingFinish' } },
    // This terminal could not store the answer (no IndexedDB): it is still sent.
    answerOnlyInMemory: { on: { 'server.savesAnswer': 'answering' } },
    questionListOpen: {
      on: {
        'pupil.jumpsToLastQuestion': 'lastQuestionFromList',
        'pupil.closesQuestionList': 'answering',
      },
    },
    lastQuestionFromList: { on: { 'pupil.jumpsToFirstQuestion': 'questionListOpen' } },
    questionFlagged: { on: { 'pupil.removesFlag': 'answering' } },
    // Question 2 is typed, with the on-screen alphabet keyboard.
    onTextQuestion: {
      on: {
        'pupil.goesToPreviousQuestion': 'answering',
        'pupil.hidesKeyboard': 'keyboardHidden',
        'pupil.switchesToCapitals': 'capitalsOn',
        // The typed answer is given once typing pauses, or at once when the box is left.
        'pupil.typesAndPauses': 'textAnswerSaving',
        'pupil.typesAndLeavesTheBox': 'textAnswerSaving',
      },
    },
    textAnswerSaving: { on: { 'server.savesAnswer': 'textAnswered' } },
    textAnswered: {},
    keyboardHidden: {
      on: {
        'pupil.showsKeyboard': 'onTextQuestion',
        'terminal.restarts': 'resumingKeyboardHidden',
      },
    },
    capitalsOn: {
      on: {
        'pupil.switchesToSmallLetters': 'onTextQuestion',
        'terminal.restarts': 'resumingCapitalsOn',
      },
    },
    resuming: { on: { 'server.sendsDetails': 'loadingQuestions' } },
    resumingKeyboardHidden: { on: { 'server.sendsDetails': 'reloadingKeyboardHidden' } },
    reloadingKeyboardHidden: { on: { 'server.sendsQuestions': 'keyboardHidden' } },
    resumingCapitalsOn: { on: { 'server.sendsDetails': 'reloadingCapitalsOn' } },
    reloadingCapitalsOn: { on: { 'server.sendsQuestions': 'capitalsOn' } },
    confirmingFinish: {
      on: {
        'pupil.keepsWorking': 'answering',
        'pupil.finishes': 'finishing',
      },
    },
    confirmingFinishWithUnsent: {
      on: {
        'pupil.keepsWorking': 'answerOnTerminal',
        'pupil.finishes': 'flushing',
      },
    },
    // Finishing first sends what the server does not hold yet.
    flushing: {
      on: {
        'server.savesAnswer': 'finishing',
        'server.fails': 'flushFailed',
        'server.refusesToken': 'signingOut',
        // Finish pressed after a proctor moved the pupil away: what is kept here is sent, then the moved-away end.
        'server.saysOtherTerminal': 'movedAwaySending',
        'network.fails': 'flushOffline',
        'network.blips': 'flushing',
      },
    },
    flushOffline: {
      on: {
        'pupil.retries': 'flushing',
        'browser.goesOnline': 'flushing',
      },
    },
    flushFailed: { on: { 'pupil.triesAgain': 'flushing' } },
    finishing: {
      on: {
        'server.finishesExam': 'ended',
        'server.fails': 'finishFailed',
        'server.saysOtherTerminal': 'movedAwayAllSent',
        'server.saysCancelled': 'endedCancelled',
        'server.saysRetake': 'signingOutRetake',
        'network.fails': 'finishOffline',
        'network.blips': 'finishing',
      },
    },
    finishOffline: {
      on: {
        'pupil.retries': 'finishing',
        'browser.goesOnline': 'finishing',
      },
    },
    finishFailed: {
      on: {
        'pupil.triesAgain': 'finishing',
        // The pupil's Finish outlives a reload: the reloaded terminal goes straight back to finishing.
        'terminal.restarts': 'resumingFinish',
      },
    },
    resumingFinish: { on: { 'server.sendsDetails': 'reloadingFinish' } },
    reloadingFinish: { on: { 'server.sendsQuestions': 'finishing' } },
    ended: {
      on: {
        'pupil.logsOut': 'signingOut',
        'terminal.restarts': 'resumingEnded',
      },
    },
    resumingEnded: { on: { 'server.sendsDetails': 'endedAfterReload' } },
    endedAfterReload: {},
    endedAlready: {},
    endedCancelled: { on: { 'pupil.logsOut': 'signingOut' } },
    // Moved to another terminal: the answer kept here is on its way (the server takes it when it was given before the move).
    movedAwaySending: {
      on: {
        'server.savesAnswer': 'movedAwayAllSent',
        'network.failsQuietly': 'movedAwayWaiting',
        // Refused for good (given after the move, or not an answer the server takes): nothing is left to send.
        'server.saysOtherTerminal': 'movedAwayOneRefused',
        'server.refusesAnswer': 'movedAwayOneRefused',
      },
    },
    // No network: the answer stays kept here, and is sent again after the backoff or once back online.
    movedAwayWaiting: {
      on: {
        'clock.passesBackoff': 'movedAwaySending',
        'browser.goesOnline': 'movedAwaySending',
        // Reloaded: the stored session says the pupil goes on elsewhere, so the answer is sent
        // again at once (never the exam's cache, never answering).
        'terminal.restarts': 'movedAwaySending',
      },
    },
    movedAwayAllSent: { on: { 'pupil.logsOut': 'signingOut' } },
    // Nothing is left to send, and the server did not take the answer given here; a reload
    // comes back to the same end, with the same count.
    movedAwayOneRefused: { on: { 'pupil.logsOut': 'signingOut', 'terminal.restarts': 'movedAwayOneRefused' } },
    signingOut: { on: { 'server.endsSession': 'loggedOut' } },
    signingOutRetake: { on: { 'server.endsSession': 'loggedOutRetake' } },
    signingOutMaintenance: { on: { 'server.endsSession': 'loggedOutMaintenance' } },
    loggedOut: {},
    loggedOutRetake: {},
    loggedOutMaintenance: {},
  },
});

/** An outbox that can be told to refuse the next write, as a browser without IndexedDB space does. */
function createTestOutbox(): OutboxPort & { refuseNext(): void; entries: Map<string, OutboxEntry> } {
  const inner = createMemoryOutbox();
  let refuse = false;
  return {
    ...inner,
    refuseNext: () => {
      refuse = true;
    },
    put: async (entry) => {
      if (refuse) {
        refuse = false;
        throw new Error('QuotaExceededError');
      }
      await inner.put(entry);
    },
  };
}

/** Question 2 offers the on-screen alphabet keyboard. */
function withAlphabetKeyboard(control: ControlledApi) {
  const load = control.server.examQuestions.bind(control.server);
  control.server.examQuestions = async (id) => {
    const loaded = await load(id);
    return {
      ...loaded,
      questions: loaded.questions.map((q): Question => (q.id === 102 ? { ...q, input: { kind: 'alphabet', upper_case: false } } : q)),
    };
  };
}

/**
 * The page's signals, sent when the path says so (the browser's are src/platform/terminal.ts),
 * and the app shell: installed already, unless the path makes this a fresh profile, whose
 * install then ends (or fails) when the path says so.
 */
function createTestTerminal(): TerminalPort & {
  emit(signal: TerminalSignal): void;
  freshProfile(): void;
  installsShell(): void;
  /** The clock offsets this window told the other windows of the sitting, in order. */
  shared: ClockShared[];
} {
  const listeners = new Set<(signal: TerminalSignal) => void>();
  let fresh = false;
  let install: { resolve(): void } | null = null;
  const shared: ClockShared[] = [];
  return {
    shared,
    shareClock: (clock) => void shared.push(clock),
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (signal) => {
      for (const listener of listeners) listener(signal);
    },
    shellReady: () => (fresh ? new Promise<void>((resolve) => (install = { resolve })) : Promise.resolve()),
    freshProfile: () => {
      fresh = true;
    },
    installsShell: () => {
      fresh = false;
      install?.resolve();
    },
  };
}

/** A retried call waits this long after its first network failure (the retry machine's backoff). */
const RETRY_WINDOW_MS = 1_000;

interface AppUnderTest {
  control: ControlledApi;
  storage: ReturnType<typeof memoryStorage>;
  outbox: ReturnType<typeof createTestOutbox>;
  examCache: ReturnType<typeof createMemoryExamCache>;
  terminal: ReturnType<typeof createTestTerminal>;
  clock: SimulatedClock;
  kiosk: Actor<ReturnType<typeof createKioskMachine>>;
  history: ReturnType<typeof createMemoryHistory>;
  user: ReturnType<typeof userEvent.setup>;
  stop: () => void;
}

const recorders = new Map([
  ['exam', new CoverageRecorder('exam', allTransitions(examMachine))],
  ['retry', new CoverageRecorder('retry', allTransitions(retryMachine))],
  ['position', new CoverageRecorder('position', allTransitions(positionMachine))],
]);
const record = recordByMachine(recorders);

let current: AppUnderTest | undefined;

/**
 * Boots the app the way src/main.tsx does, from what this terminal stored: the first time with
 * the session a code login stored, after a restart with whatever the last run left.
 */
async function boot(options: {
  url: string;
  storage?: AppUnderTest['storage'];
  control?: ControlledApi;
  outbox?: AppUnderTest['outbox'];
  examCache?: AppUnderTest['examCache'];
}) {
  const storage = options.storage ?? memoryStorage();
  const control = options.control ?? createControlledApi();
  const outbox = options.outbox ?? createTestOutbox();
  const examCache = options.examCache ?? createMemoryExamCache();
  const terminal = createTestTerminal();
  if (!options.storage) {
    withAlphabetKeyboard(control);
    writeSession(
      storage,
      sessionFromLogin({ access_token: 'token-1', examinee: demoExaminee, server_time: new Date().toISOString() }, '0f0e0d0c-0b0a-4908-8706-050403020100'),
    );
  }
  const clock = new SimulatedClock();
  const { kiosk, history, stopSync } = await renderKioskApp({
    deps: { api: control.api, storage, outbox, examCache, terminal, retryWindowMs: RETRY_WINDOW_MS },
    input: { storedSession: readSession(storage), storedToken: readToken(storage), storedErrorCode: readStoredErrorCode(storage) },
    url: options.url,
    inspect: record,
    clock,
  });
  const app: AppUnderTest = {
    control,
    storage,
    outbox,
    examCache,
    terminal,
    clock,
    kiosk,
    history,
    user: userEvent.setup(),
    stop: () => {
      stopSync();
      kiosk.stop();
    },
  };
  current = app;
  return app;
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });
const stored = (app: AppUnderTest) => readSession(app.storage);
const examContext = (app: AppUnderTest) => (app.kiosk.getSnapshot().children.exam?.getSnapshot() as { context: ExamContext } | undefined)?.context;
const saved = () => screen.getByRole('status').textContent;

/** The one call now waiting: calls run one after another (seed section 7). */
async function theCall(app: AppUnderTest): Promise<keyof ControlledApi['api']> {
  await waitFor(() => expect(app.control.waiting()).toHaveLength(1));
  return app.control.waiting()[0]!;
}

async function callWaits(app: AppUnderTest, method: keyof ControlledApi['api']) {
  await waitFor(() => expect(app.control.waiting()).toEqual([method]));
}

async function serverFails(app: AppUnderTest, code: FailureCode, status?: number) {
  const method = await theCall(app);
  await act(async () => app.control.fail(method, code, status));
}

/** The network fails the call once: a retried call waits for the backoff ("Connecting again…"). */
async function networkFailsOnce(app: AppUnderTest) {
  const method = await theCall(app);
  await act(async () => app.control.fail(method, 'NETWORK_ERROR'));
  return method;
}

async function seeConnectingAgain() {
  const dialog = await screen.findByRole('alertdialog', { name: 'Connecting again…' });
  expect(within(dialog).queryByRole('button')).toBeNull();
}

async function passTime(app: AppUnderTest, ms: number) {
  await act(async () => app.clock.increment(ms));
}

async function browserGoesOnline(app: AppUnderTest) {
  await act(async () => app.kiosk.getSnapshot().children.exam?.send({ type: 'connection.restored' }));
}

/** Clicks a choice of the question on screen that is not chosen yet. */
async function chooseAnotherChoice(app: AppUnderTest) {
  const radios = (await screen.findAllByRole('radio')) as HTMLInputElement[];
  const other = radios.find((radio) => !radio.checked)!;
  await app.user.click(other);
}

async function seeQuestion(n: number) {
  expect(await screen.findByText(`Question ${n} of 3`)).toBeTruthy();
}

const keyboard = () => screen.queryByRole('group', { name: 'Alphabet keyboard' });
const nothingOfThePupil = (app: AppUnderTest) => expect(examineeKeys.filter((key) => app.storage.items.has(key))).toEqual([]);

/**
 * A move or a toggle: nothing is stored on the click itself (no write on the swap's frame); the
 * pupil then pauses, and the exam reports it (the next state checks what is stored).
 */
async function movesAndPauses(app: AppUnderTest, click: () => Promise<void>) {
  const before = stored(app);
  await click();
  expect(stored(app)).toEqual(before);
  await passTime(app, POSITION_PAUSE_MS);
}

/** Types "cold" into the text answer's box: nothing is given while the pupil types. */
async function typeCold(app: AppUnderTest) {
  await app.user.type(screen.getByRole('textbox', { name: 'Your answer' }), 'cold');
  expect(app.control.waiting()).toEqual([]);
  expect(examContext(app)?.answers[102]).toBeUndefined();
}

/** The page tells the exam something (a tick, the page hidden or shown again), as the browser would. */
async function pageSignal(app: AppUnderTest, signal: TerminalSignal) {
  await act(async () => app.terminal.emit(signal));
}

/** This terminal's clock `ms` after the deadline the exam knows now (through its offset to the server's clock). */
function afterDeadline(app: AppUnderTest, ms: number): number {
  const context = examContext(app)!;
  return context.deadlineAt! - context.clockOffsetMs + ms;
}

/** The label of question 1's choice with this id (the value the server holds). */
const choiceLabel = (value: string) => demoQuestions[0]!.choices.find((choice) => choice.id === value)!.label;

/** Question 1 shows the server's answer from another window: chosen, and said to be replaced, not saved. */
async function seeReplacedByServer(app: AppUnderTest) {
  await waitFor(() => expect(saved()).toBe('Replaced by an answer from another window. The answer shown is the one the server keeps.'));
  const held = app.control.server.saved.get(101)!.value;
  expect((screen.getByRole('radio', { name: choiceLabel(held) }) as HTMLInputElement).checked).toBe(true);
  expect(examContext(app)?.answers[101]).toMatchObject({ value: held, status: 'replaced' });
}

/** Another window's answer to question 1, other than the one on screen, given `at` (ISO 8601). */
function anotherWindowAnswers(app: AppUnderTest, at: string) {
  const shown = examContext(app)!.answers[101]!.value;
  app.control.server.saved.set(101, { value: shown === 'a' ? 'b' : 'a', key: `another-window-${at}`, answeredAt: at });
}

const MINUTE = 60_000;

async function seeFinishFailure() {
  expect((await screen.findByRole('alert')).textContent).toContain('An error has occurred.');
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
}

/** Every transition of the abstract model, as `state via event`. */
const modelTransitions = new Set(
  Object.entries(pupilExamModel.config.states ?? {}).flatMap(([state, node]) =>
    Object.keys((node as { on?: Record<string, unknown> }).on ?? {}).map((event) => `${state} via ${event}`),
  ),
);
/** The model's transitions the paths walked (recorded while they run). */
const walked = new Set<string>();
/** The model's states the paths checked. */
const checked = new Set<string>();

type Steps = Record<string, () => Promise<unknown> | unknown>;

/** Wraps a path's state checks and event steps so the walk records which model transitions it took. */
function recording(states: Steps, events: Steps): { states: Record<string, () => Promise<void>>; events: Record<string, () => Promise<void>> } {
  let at = '';
  return {
    states: Object.fromEntries(
      Object.entries(states).map(([name, check]) => [
        name,
        async () => {
          at = name;
          checked.add(name);
          await check();
        },
      ]),
    ),
    events: Object.fromEntries(
      Object.entries(events).map(([type, step]) => [
        type,
        async () => {
          walked.add(`${at} via ${type}`);
          await step();
        },
      ]),
    ),
  };
}

const model = createTestModel(pupilExamModel, {
  // Always record the event, so self-transitions get paths of their own.
  serializeTransition: (_state, event, previous) => (event ? ` via ${event.type} from ${JSON.stringify(previous?.value ?? null)}` : ''),
});

const paths = model.getShortestPaths();

beforeAll(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});

afterEach(() => {
  current?.stop();
  current = undefined;
});

describe('a pupil through the exam in the app, every transition of the exam model', () => {
  for (const path of paths) {
    it(
      path.description,
      async () => {
        let app = await boot({ url: '/login-code' });
        /** The terminal reloads: a new app over the same storage, outbox and server. */
        const restart = async () => {
          // Only where nothing is on its way: the model restarts in settled states.
          expect(app.control.waiting()).toEqual([]);
          const { storage, control, outbox, examCache } = app;
          const url = app.history.location.pathname;
          app.stop();
          cleanup();
          app = await boot({ url, storage, control, outbox, examCache });
        };
        await path.test(
          recording(
            {
              loadingDetails: async () => {
                await callWaits(app, 'examDetails');
                // At most "Connecting again…" while the call runs again after a network failure.
                expect(screen.queryByRole('alertdialog', { name: 'Check your internet connection' })).toBeNull();
              },
              detailsOffline: async () => {
                const dialog = await screen.findByRole('alertdialog', { name: 'Check your internet connection' });
                expect(within(dialog).getByRole('button', { name: 'OK' })).toBeTruthy();
                expect(within(dialog).queryByRole('button', { name: 'Retry' })).toBeNull();
              },
              detailsFailed: async () => {
                await heading('Is this you?');
                expect((await screen.findByRole('alert')).textContent).toMatch(/Network error|An error has occurred/);
                expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
              },
              confirming: async () => {
                await heading('Is this you?');
                expect(screen.getByText('Aiko Tanaka')).toBeTruthy();
                expect(app.history.location.pathname).toBe('/login-confirm');
              },
              tutorial: async () => {
                await heading('How the test works');
                expect(app.history.location.pathname).toBe('/exam-tutorial');
              },
              ready: async () => {
                await heading('Ready to start');
                expect(app.history.location.pathname).toBe('/exam-start');
              },
              preparingOffline: async () => {
                await heading('Ready to start');
                const step = await screen.findByRole('button', { name: 'Preparing this terminal to work offline…' });
                expect(step.getAttribute('aria-busy')).toBe('true');
                // The server is not asked to start (the time limit has not begun) until the shell is there.
                expect(app.control.waiting()).toEqual([]);
                expect(app.history.location.pathname).toBe('/exam-start');
              },
              offlineUnavailable: async () => {
                await heading('Ready to start');
                expect((await screen.findByRole('alert')).textContent).toContain('This terminal could not get ready to work offline.');
                expect(screen.getByRole('button', { name: 'Start anyway' })).toBeTruthy();
                expect(app.control.waiting()).toEqual([]);
              },
              starting: async () => {
                await callWaits(app, 'startExam');
              },
              startFailed: async () => {
                await heading('Ready to start');
                expect((await screen.findByRole('alert')).textContent).toContain('Network error');
              },
              loadingQuestions: async () => {
                await callWaits(app, 'examQuestions');
                await waitFor(() => expect(app.history.location.pathname).toBe('/start'));
                expect(screen.queryByRole('alertdialog', { name: 'Check your internet connection' })).toBeNull();
              },
              questionsOffline: async () => {
                const dialog = await screen.findByRole('alertdialog', { name: 'Check your internet connection' });
                expect(within(dialog).getByRole('button', { name: 'OK' })).toBeTruthy();
                expect(app.history.location.pathname).toBe('/start');
              },
              questionsFailed: async () => {
                expect((await screen.findByRole('alert')).textContent).toContain('Network error');
                expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
              },
              answering: async () => {
                await seeQuestion(1);
                expect(screen.getByRole('timer')).toBeTruthy();
                expect(app.history.location.pathname).toBe('/start');
                expect(app.control.waiting()).toEqual([]);
                expect(stored(app)?.question_index).toBe(0);
                // A failed heartbeat is silent: no dialog over the exam.
                expect(screen.queryByRole('alertdialog')).toBeNull();
              },
              heartbeatSending: async () => {
                await callWaits(app, 'heartbeat');
                await seeQuestion(1);
                expect(examContext(app)?.visible).toBe(true);
              },
              awayOnLastQuestion: async () => {
                // Sent at once when the page is hidden, and the question on screen stored at once too.
                await callWaits(app, 'heartbeat');
                await seeQuestion(3);
                expect(examContext(app)?.visible).toBe(false);
                expect(stored(app)?.question_index).toBe(2);
              },
              hiddenOnLastQuestion: async () => {
                await seeQuestion(3);
                expect(app.control.waiting()).toEqual([]);
                expect(stored(app)?.question_index).toBe(2);
              },
              heartbeatSendingHidden: async () => {
                // Sent at once when the page is hidden, saying so.
                await callWaits(app, 'heartbeat');
                expect(examContext(app)?.visible).toBe(false);
              },
              answeringWithMoreTime: async () => {
                await seeQuestion(1);
                // Five more minutes: the timer counts down from 45:00, and the old deadline passed without finishing.
                expect(screen.getByText('/ 45:00')).toBeTruthy();
                expect(Number(screen.getByRole('timer').textContent!.split(':')[0])).toBeGreaterThanOrEqual(39);
                expect(app.history.location.pathname).toBe('/start');
                expect(app.control.waiting()).toEqual([]);
              },
              answerReplaced: async () => {
                await seeReplacedByServer(app);
                expect(app.control.waiting()).toEqual([]);
                // Acknowledged: nothing of it is left to send.
                expect(app.outbox.entries.size).toBe(0);
              },
              answerFromAnotherWindow: async () => {
                await waitFor(() => expect(saved()).toBe('Saved on the server'));
                const held = app.control.server.saved.get(101)!.value;
                expect((screen.getByRole('radio', { name: choiceLabel(held) }) as HTMLInputElement).checked).toBe(true);
                expect(examContext(app)?.answers[101]).toMatchObject({ value: held, status: 'saved' });
                // Nothing is sent from this window: the other one saved it.
                expect(app.control.waiting()).toEqual([]);
              },
              answeringOnSharedClock: async () => {
                // Five minutes fewer on the timer: 34:5x or 35:00, not 39 or 40.
                await waitFor(() => expect(Number(screen.getByRole('timer').textContent!.split(':')[0])).toBeLessThanOrEqual(35));
                expect(Number(screen.getByRole('timer').textContent!.split(':')[0])).toBeGreaterThanOrEqual(34);
                expect(app.history.location.pathname).toBe('/start');
              },
              answerReplacedByAnotherWindow: async () => {
                await seeReplacedByServer(app);
                expect(app.control.waiting()).toEqual([]);
                expect(app.outbox.entries.size).toBe(0);
              },
              rereadingAnswers: async () => {
                await callWaits(app, 'examQuestions');
                await seeReplacedByServer(app);
              },
              replacedAgain: async () => {
                await callWaits(app, 'heartbeat');
                await seeReplacedByServer(app);
              },
              heartbeatAfterReread: async () => {
                await callWaits(app, 'heartbeat');
                await seeReplacedByServer(app);
              },
              resumingOffline: async () => {
                await callWaits(app, 'examDetails');
                expect(app.outbox.entries.size).toBe(1);
              },
              resumingOfflineQuestions: async () => {
                // The details came from what this terminal kept: straight on to the questions, no dialog.
                await callWaits(app, 'examQuestions');
                expect(screen.queryByRole('alertdialog')).toBeNull();
              },
              resumedOffline: async () => {
                await seeQuestion(1);
                // The same answer, still only on this terminal, goes out again at once.
                await callWaits(app, 'saveAnswer');
                expect(saved()).toBe('Saved on this terminal');
                expect(app.outbox.entries.size).toBe(1);
                // The time left from the kept deadline, not a blank timer.
                expect(screen.getByRole('timer').textContent).toMatch(/^(40:00|39:[0-5]\d)$/);
                expect(app.history.location.pathname).toBe('/start');
              },
              answerSaving: async () => {
                await callWaits(app, 'saveAnswer');
                expect(saved()).toBe('Saved on this terminal');
              },
              answerOnTerminal: async () => {
                await waitFor(() => expect(saved()).toBe('Saved on this terminal'));
                expect(app.control.waiting()).toEqual([]);
                expect(screen.queryByRole('alertdialog')).toBeNull();
                expect(app.outbox.entries.size).toBe(1);
              },
              answerResending: async () => {
                await callWaits(app, 'saveAnswer');
                expect(saved()).toBe('Saved on this terminal');
              },
              answerRefused: async () => {
                // Refused for good (not an answer the server accepts): marked, and forgotten by the outbox.
                await waitFor(() => expect(saved()).toBe('Not saved'));
                await waitFor(() => expect(app.outbox.entries.size).toBe(0));
                expect(app.control.waiting()).toEqual([]);
              },
              answerOnlyInMemory: async () => {
                await callWaits(app, 'saveAnswer');
                expect(saved()).toBe('Not saved');
                expect(app.outbox.entries.size).toBe(0);
              },
              questionListOpen: async () => {
                const list = await screen.findByRole('navigation', { name: 'Question list' });
                expect(within(list).getAllByRole('button')).toHaveLength(3);
                await seeQuestion(1);
                expect(screen.getByRole('button', { name: 'Hide question list' }).getAttribute('aria-expanded')).toBe('true');
                expect(stored(app)?.question_list_flag).toBe(true);
              },
              lastQuestionFromList: async () => {
                await seeQuestion(3);
                const list = screen.getByRole('navigation', { name: 'Question list' });
                expect(within(list).getAllByRole('button')[2]!.getAttribute('aria-current')).toBe('step');
                expect(stored(app)?.question_index).toBe(2);
              },
              questionFlagged: async () => {
                expect((await screen.findByRole('button', { name: 'Remove flag' })).getAttribute('aria-pressed')).toBe('true');
                expect(stored(app)?.flagged_question_ids).toEqual([101]);
              },
              onTextQuestion: async () => {
                await seeQuestion(2);
                expect(keyboard()).toBeTruthy();
                expect(screen.getByRole('button', { name: 'Capital letters', pressed: false })).toBeTruthy();
                expect(screen.getByRole('textbox', { name: 'Your answer' }).getAttribute('inputmode')).toBe('none');
                expect(stored(app)).toMatchObject({ question_index: 1, alphabets_keyboard_flag: true, mode_upper_case_flag: false });
              },
              textAnswerSaving: async () => {
                await seeQuestion(2);
                await callWaits(app, 'saveAnswer');
                expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('cold');
                await waitFor(() => expect(saved()).toBe('Saved on this terminal'));
                expect(examContext(app)?.answers[102]?.value).toBe('cold');
              },
              textAnswered: async () => {
                await waitFor(() => expect(saved()).toBe('Saved on the server'));
                expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('cold');
                expect(app.control.waiting()).toEqual([]);
              },
              keyboardHidden: async () => {
                await seeQuestion(2);
                await screen.findByRole('button', { name: 'Show alphabet keyboard' });
                expect(keyboard()).toBeNull();
                // The device's own keyboard is back.
                expect(screen.getByRole('textbox', { name: 'Your answer' }).getAttribute('inputmode')).toBeNull();
                expect(stored(app)).toMatchObject({ question_index: 1, alphabets_keyboard_flag: false, mode_upper_case_flag: false });
              },
              capitalsOn: async () => {
                await seeQuestion(2);
                expect(await screen.findByRole('button', { name: 'Capital letters', pressed: true })).toBeTruthy();
                expect(within(keyboard()!).getByRole('button', { name: 'Q' })).toBeTruthy();
                expect(within(keyboard()!).queryByRole('button', { name: 'q' })).toBeNull();
                expect(stored(app)).toMatchObject({ question_index: 1, alphabets_keyboard_flag: true, mode_upper_case_flag: true });
              },
              resuming: async () => {
                // The reloaded terminal resumes the stored session: no login, the exam asks for its details.
                await callWaits(app, 'examDetails');
                expect(stored(app)?.token).toBe('token-1');
              },
              resumingKeyboardHidden: async () => {
                await callWaits(app, 'examDetails');
                expect(stored(app)?.alphabets_keyboard_flag).toBe(false);
              },
              reloadingKeyboardHidden: async () => {
                await callWaits(app, 'examQuestions');
              },
              resumingCapitalsOn: async () => {
                await callWaits(app, 'examDetails');
                expect(stored(app)?.mode_upper_case_flag).toBe(true);
              },
              reloadingCapitalsOn: async () => {
                await callWaits(app, 'examQuestions');
              },
              confirmingFinish: async () => {
                const dialog = await screen.findByRole('dialog', { name: 'Finish the test?' });
                expect(within(dialog).getByRole('button', { name: 'Finish' })).toBeTruthy();
              },
              confirmingFinishWithUnsent: async () => {
                await screen.findByRole('dialog', { name: 'Finish the test?' });
                expect(app.outbox.entries.size).toBe(1);
              },
              flushing: async () => {
                await callWaits(app, 'saveAnswer');
                expect(screen.getByRole('button', { name: 'Sending your answers…' })).toBeTruthy();
                expect(screen.queryByRole('alertdialog', { name: 'Check your internet connection' })).toBeNull();
              },
              flushOffline: async () => {
                const dialog = await screen.findByRole('alertdialog', { name: 'Check your internet connection' });
                expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeTruthy();
                expect(within(dialog).queryByRole('button', { name: 'OK' })).toBeNull();
                expect(app.outbox.entries.size).toBe(1);
              },
              flushFailed: async () => {
                await seeFinishFailure();
                expect(app.outbox.entries.size).toBe(1);
              },
              finishing: async () => {
                await callWaits(app, 'finishExam');
                expect(screen.queryByRole('alertdialog', { name: 'Check your internet connection' })).toBeNull();
                expect(app.history.location.pathname).toBe('/start');
              },
              finishOffline: async () => {
                const dialog = await screen.findByRole('alertdialog', { name: 'Check your internet connection' });
                expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeTruthy();
                expect(app.history.location.pathname).toBe('/start');
              },
              finishFailed: async () => {
                await seeFinishFailure();
              },
              resumingFinish: async () => {
                await callWaits(app, 'examDetails');
                // The Finish the pupil confirmed is in the stored session (finish_pending).
                expect((stored(app) as ExamSession | null)?.finish_pending).toBe(true);
              },
              reloadingFinish: async () => {
                await callWaits(app, 'examQuestions');
              },
              ended: async () => {
                await heading('Test complete');
                expect(screen.getByText('Your answer data has been sent.')).toBeTruthy();
                expect(screen.getAllByRole('term').map((term) => term.textContent)).toEqual(['Answers received', 'Receipt']);
                expect(app.history.location.pathname).toBe('/exam-end');
                expect(stored(app)).toMatchObject({ is_completed: true, error_code: null });
              },
              resumingEnded: async () => {
                // The reloaded terminal asks the server where the exam stands before it shows anything.
                await callWaits(app, 'examDetails');
                expect(stored(app)?.is_completed).toBe(true);
              },
              endedAfterReload: async () => {
                // Seed section 2, rule 6: a completed exam shows the end screen again (no receipt to show).
                await heading('Test complete');
                expect(screen.queryByRole('term')).toBeNull();
                expect(app.history.location.pathname).toBe('/exam-end');
              },
              endedAlready: async () => {
                await heading('Test complete');
                expect(app.history.location.pathname).toBe('/exam-end');
              },
              endedCancelled: async () => {
                await heading('The test was cancelled');
                expect(screen.getByText('Your answers could not be sent.')).toBeTruthy();
                expect(stored(app)).toMatchObject({ is_completed: true, error_code: 'ER_SCHEDULE_HISTORY_CANCELLED' });
              },
              movedAwaySending: async () => {
                await heading('Your test goes on at another terminal');
                expect(screen.getByRole('status').textContent).toBe('Answers given on this terminal and not sent yet: 1');
                expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
                expect(app.history.location.pathname).toBe('/exam-end');
                await callWaits(app, 'saveAnswer');
              },
              resumingWithUnsent: async () => {
                await callWaits(app, 'examDetails');
                expect(app.outbox.entries.size).toBe(1);
              },
              movedAwayOneRefused: async () => {
                await heading('Your test goes on at another terminal');
                expect((await screen.findByRole('status')).textContent).toBe('Your teacher moved your test to another terminal.');
                expect(screen.getByText('1 answer given on this terminal could not be kept. Please tell your teacher.')).toBeTruthy();
                expect(screen.queryByText(/were sent/)).toBeNull();
                expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
                expect(app.history.location.pathname).toBe('/exam-end');
                await waitFor(() => expect(app.outbox.entries.size).toBe(0));
              },
              movedAwayWaiting: async () => {
                await heading('Your test goes on at another terminal');
                expect(screen.getByRole('status').textContent).toBe('Answers given on this terminal and not sent yet: 1');
                expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
                // The stored session knows of the move: a reload comes back here.
                expect((stored(app) as ExamSession | null)?.moved_away_refused).toBe(0);
              },
              movedAwayAllSent: async () => {
                await heading('Your test goes on at another terminal');
                expect((await screen.findByRole('status')).textContent).toBe(
                  'Your teacher moved your test to another terminal. The answers given on this terminal were sent.',
                );
                expect(screen.queryByText(/could not be kept/)).toBeNull();
                expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
                expect(app.history.location.pathname).toBe('/exam-end');
                // Not an exam this terminal completed (nor cancelled): the test goes on elsewhere.
                expect(stored(app)).toMatchObject({ is_completed: false, error_code: null });
                await waitFor(() => expect(app.outbox.entries.size).toBe(0));
              },
              signingOut: async () => {
                await callWaits(app, 'logout');
                // POST /logout carries the token: nothing is wiped before the server answered.
                expect(readToken(app.storage)).not.toBeNull();
              },
              signingOutRetake: async () => {
                await callWaits(app, 'logout');
                // POST /logout carries the token: nothing is wiped before the server answered.
                expect(readToken(app.storage)).not.toBeNull();
              },
              signingOutMaintenance: async () => {
                await callWaits(app, 'logout');
                // POST /logout carries the token: nothing is wiped before the server answered.
                expect(readToken(app.storage)).not.toBeNull();
              },
              loggedOut: async () => {
                await heading('Log in with your login code');
                expect(app.history.location.pathname).toBe('/login-code');
                nothingOfThePupil(app);
              },
              loggedOutRetake: async () => {
                await heading('Log in with your login code');
                nothingOfThePupil(app);
                expect(`${app.history.location.pathname}${app.history.location.search}`).toBe('/login-code?error_code=ER_SCHEDULE_HISTORY_RETAKE');
                expect((await screen.findByRole('alert')).textContent).toContain('An administrator has reset this account. Please log in again.');
              },
              loggedOutMaintenance: async () => {
                await heading('Log in with your login code');
                expect(`${app.history.location.pathname}${app.history.location.search}`).toBe('/login-code?error_code=DURING_MAINTENANCE');
                nothingOfThePupil(app);
                expect((await screen.findByRole('alert')).textContent).toContain('This is outside test hours.');
              },
            },
            {
              'server.sendsDetails': () => serverAnswers(app.control, 'examDetails'),
              'server.startsExam': () => serverAnswers(app.control, 'startExam'),
              'server.sendsQuestions': () => serverAnswers(app.control, 'examQuestions'),
              'server.savesAnswer': () => serverAnswers(app.control, 'saveAnswer'),
              'server.finishesExam': () => serverAnswers(app.control, 'finishExam'),
              'server.endsSession': () => serverAnswers(app.control, 'logout'),
              'server.fails': () => serverFails(app, 'GENERIC_ERROR', 500),
              'server.refusesToken': () => serverFails(app, 'NOT_LOGGED_IN', 401),
              'server.isInMaintenance': () => serverFails(app, 'DURING_MAINTENANCE', 401),
              'server.saysRetake': () => serverFails(app, 'ER_SCHEDULE_HISTORY_RETAKE', 401),
              'server.saysAlreadyFinished': () => serverFails(app, 'ER_SCHEDULE_HISTORY_COMPLETED', 403),
              'server.saysCancelled': () => serverFails(app, 'ER_SCHEDULE_HISTORY_CANCELLED', 403),
              'server.saysOtherTerminal': () => serverFails(app, 'INCORRECT_DEVICE', 403),
              'server.saysTimeIsUp': () => serverFails(app, 'TIME_END', 403),
              'network.fails': async () => {
                const method = await networkFailsOnce(app);
                // Start is not retried: its failure shows at once.
                if (method === 'startExam') return;
                await seeConnectingAgain();
                await passTime(app, RETRY_WINDOW_MS);
                await callWaits(app, method);
                await act(async () => app.control.fail(method, 'NETWORK_ERROR'));
              },
              'network.blips': async () => {
                const method = await networkFailsOnce(app);
                await seeConnectingAgain();
                await browserGoesOnline(app);
                await callWaits(app, method);
              },
              'browser.goesOnline': () => browserGoesOnline(app),
              'clock.passesBackoff': () => passTime(app, 1_000),
              // The page's tick, one second after the deadline.
              'clock.reachesDeadline': () => pageSignal(app, { type: 'clock.ticked', now: afterDeadline(app, 1_000) }),
              'clock.passesOldDeadline': () => pageSignal(app, { type: 'clock.ticked', now: afterDeadline(app, -4 * MINUTE) }),
              'clock.passesHeartbeatInterval': () => passTime(app, 10_000),
              // The lid opens a minute after the deadline: the page shows again before any timer runs.
              'terminal.wakesAfterDeadline': () =>
                pageSignal(app, { type: 'page.changed', now: afterDeadline(app, MINUTE), visible: true, cause: 'visibilitychange' }),
              'window.hides': () => pageSignal(app, { type: 'page.changed', now: Date.now(), visible: false, cause: 'visibilitychange' }),
              'pupil.returnsToWindow': () => pageSignal(app, { type: 'page.changed', now: Date.now(), visible: true, cause: 'focus' }),
              'server.acknowledgesHeartbeat': () => serverAnswers(app.control, 'heartbeat'),
              'server.extendsTime': async () => {
                app.control.server.setDeadline(examContext(app)!.deadlineAt! + 5 * MINUTE);
                await serverAnswers(app.control, 'heartbeat');
              },
              'network.failsQuietly': () => networkFailsOnce(app),
              'network.isDown': () => networkFailsOnce(app),
              'server.refusesAnswer': () => serverFails(app, 'VALIDATION_ERROR', 422),
              'server.keepsLaterAnswerFromAnotherWindow': async () => {
                await callWaits(app, 'saveAnswer');
                // Another window of this exam answered question 1 a moment after this one.
                const mine = examContext(app)!.answers[101]!;
                anotherWindowAnswers(app, new Date(Date.parse(mine.answeredAt) + 1).toISOString());
                await act(async () => app.control.answer('saveAnswer'));
              },
              'anotherWindow.sharesNearerClock': async () => {
                const context = examContext(app)!;
                const clockOffsetMs = context.clockOffsetMs + 5 * MINUTE;
                await pageSignal(app, { type: 'clock.shared', clock: { scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed, clockOffsetMs } });
                expect(examContext(app)?.clockOffsetMs).toBe(clockOffsetMs);
              },
              'anotherWindow.sharesLooserClock': async () => {
                const context = examContext(app)!;
                const told = app.terminal.shared.length;
                const clock = { scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed, clockOffsetMs: context.clockOffsetMs - 500 };
                await pageSignal(app, { type: 'clock.shared', clock });
                expect(examContext(app)?.clockOffsetMs).toBe(context.clockOffsetMs);
                expect(app.terminal.shared.slice(told)).toEqual([{ ...clock, clockOffsetMs: context.clockOffsetMs }]);
              },
              'anotherWindow.savesLaterAnswer': async () => {
                // The other window's answer, other than the one on screen, a minute later than it (or than now).
                const context = examContext(app)!;
                const shown = context.answers[101];
                const value = shown?.value === 'a' ? 'b' : 'a';
                const at = new Date((shown ? Date.parse(shown.answeredAt) : Date.now() + context.clockOffsetMs) + MINUTE).toISOString();
                const key = `another-window-${at}`;
                app.control.server.saved.set(101, { value, key, answeredAt: at });
                await pageSignal(app, {
                  type: 'answer.savedElsewhere',
                  answer: { scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed, questionId: 101, value, answeredAt: at, key },
                });
              },
              'server.sendsAnswersFromAnotherWindow': async () => {
                await callWaits(app, 'examQuestions');
                anotherWindowAnswers(app, new Date().toISOString());
                await act(async () => app.control.answer('examQuestions'));
              },
              'terminal.restartsOffline': () => restart(),
              'terminal.restarts': () => restart(),
              'window.losesFocus': async () => {
                const before = examContext(app)?.focusLosses ?? 0;
                await act(async () => void window.dispatchEvent(new Event('blur')));
                // Counted (and reported to the server), never blocking: the question stays.
                expect(examContext(app)?.focusLosses).toBe(before + 1);
              },
              'pupil.pressesOk': () => app.user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'OK' })),
              'pupil.retries': () => app.user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Retry' })),
              'pupil.triesAgain': () => app.user.click(screen.getByRole('button', { name: 'Try again' })),
              'pupil.saysNotMe': () => app.user.click(screen.getByRole('button', { name: 'No, log out' })),
              'pupil.confirms': () => app.user.click(screen.getByRole('button', { name: 'Yes, continue' })),
              'pupil.continues': () => app.user.click(screen.getByRole('button', { name: 'Continue' })),
              'pupil.pressesBack': async () => {
                await act(async () => app.history.back());
              },
              'pupil.pressesStart': () => app.user.click(screen.getByRole('button', { name: 'Start the test' })),
              'pupil.pressesStartOnFreshTerminal': () => {
                app.terminal.freshProfile();
                return app.user.click(screen.getByRole('button', { name: 'Start the test' }));
              },
              'terminal.installsShell': () => act(async () => app.terminal.installsShell()),
              'clock.passesShellWait': () => passTime(app, SHELL_READY_TIMEOUT_MS),
              'pupil.startsAnyway': () => app.user.click(screen.getByRole('button', { name: 'Start anyway' })),
              'pupil.choosesAnswer': () => chooseAnotherChoice(app),
              'pupil.answersWhileOffline': async () => {
                await chooseAnotherChoice(app);
                await callWaits(app, 'saveAnswer');
                await act(async () => app.control.fail('saveAnswer', 'NETWORK_ERROR'));
              },
              'pupil.answersButTerminalCannotStore': async () => {
                app.outbox.refuseNext();
                await chooseAnotherChoice(app);
              },
              'pupil.goesToNextQuestion': () => movesAndPauses(app, () => app.user.click(screen.getByRole('button', { name: /Next/ }))),
              'pupil.goesToPreviousQuestion': () => movesAndPauses(app, () => app.user.click(screen.getByRole('button', { name: /Previous/ }))),
              'pupil.opensQuestionList': () => movesAndPauses(app, () => app.user.click(screen.getByRole('button', { name: 'Question list' }))),
              'pupil.closesQuestionList': () => movesAndPauses(app, () => app.user.click(screen.getByRole('button', { name: 'Hide question list' }))),
              'pupil.jumpsToLastQuestion': () =>
                movesAndPauses(app, () => app.user.click(within(screen.getByRole('navigation', { name: 'Question list' })).getAllByRole('button')[2]!)),
              'pupil.jumpsToFirstQuestion': () =>
                movesAndPauses(app, () => app.user.click(within(screen.getByRole('navigation', { name: 'Question list' })).getAllByRole('button')[0]!)),
              'pupil.leafsAheadAndLeavesWindow': async () => {
                const before = stored(app);
                await app.user.click(screen.getByRole('button', { name: /Next/ }));
                await seeQuestion(2);
                await passTime(app, POSITION_PAUSE_MS - 1);
                await app.user.click(screen.getByRole('button', { name: /Next/ }));
                await seeQuestion(3);
                await passTime(app, POSITION_PAUSE_MS - 1);
                // The pause its first move began is not over: nothing stored yet.
                expect(stored(app)).toEqual(before);
                await pageSignal(app, { type: 'page.changed', now: Date.now(), visible: false, cause: 'visibilitychange' });
              },
              'pupil.browsesInABurst': async () => {
                const before = stored(app);
                const click = (name: string | RegExp, pressed?: boolean) =>
                  app.user.click(screen.getByRole('button', { name, ...(pressed === undefined ? {} : { pressed }) }));
                await click(/Next/);
                await seeQuestion(2);
                await click(/Previous/);
                await click('Question list');
                await app.user.click(within(screen.getByRole('navigation', { name: 'Question list' })).getAllByRole('button')[1]!);
                await click('Hide question list');
                await click('Capital letters', false);
                await click('Capital letters', true);
                await click('Hide alphabet keyboard');
                await seeQuestion(2);
                // The burst ended within the pause that its first move began: that pause begins again.
                await passTime(app, POSITION_PAUSE_MS);
                expect(stored(app)).toEqual(before);
                await passTime(app, POSITION_PAUSE_MS);
              },
              'pupil.flagsQuestion': () => app.user.click(screen.getByRole('button', { name: 'Flag for review' })),
              'pupil.removesFlag': () => app.user.click(screen.getByRole('button', { name: 'Remove flag' })),
              'pupil.typesAndPauses': async () => {
                await typeCold(app);
                // Given only once typing has paused.
                await passTime(app, TEXT_COMMIT_DELAY_MS - 1);
                expect(app.control.waiting()).toEqual([]);
                await passTime(app, 1);
              },
              'pupil.typesAndLeavesTheBox': async () => {
                await typeCold(app);
                await app.user.tab();
              },
              'pupil.hidesKeyboard': () => movesAndPauses(app, () => app.user.click(screen.getByRole('button', { name: 'Hide alphabet keyboard' }))),
              'pupil.showsKeyboard': () => movesAndPauses(app, () => app.user.click(screen.getByRole('button', { name: 'Show alphabet keyboard' }))),
              'pupil.switchesToCapitals': () => movesAndPauses(app, () => app.user.click(screen.getByRole('button', { name: 'Capital letters', pressed: false }))),
              'pupil.switchesToSmallLetters': () => movesAndPauses(app, () => app.user.click(screen.getByRole('button', { name: 'Capital letters', pressed: true }))),
              'pupil.asksToFinish': () => app.user.click(screen.getByRole('button', { name: 'Finish the test' })),
              'pupil.keepsWorking': () => app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Keep working' })),
              'pupil.finishes': () => app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Finish' })),
              'pupil.logsOut': () => app.user.click(screen.getByRole('button', { name: 'Log out' })),
            },
          ),
        );
      },
      30_000,
    );
  }

  it('walks every transition of the abstract model and checks every state', () => {
    expect([...modelTransitions].filter((t) => !walked.has(t))).toEqual([]);
    expect(Object.keys(pupilExamModel.config.states ?? {}).filter((state) => !checked.has(state))).toEqual([]);
  });

  it('takes every transition of the exam and retry machines through the app', () => {
    for (const recorder of recorders.values()) recorder.report('ui');
    for (const recorder of recorders.values()) {
      expect(recorder.missing(), `${recorder.name}: transitions not taken through the app`).toEqual([]);
      expect(recorder.taken.size).toBe(recorder.all.size);
    }
  });
});
