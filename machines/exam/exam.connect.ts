/**
 * The exam's screens' binding, in the chakra-ui/zag style: `connect(snapshot, send)` turns a
 * snapshot of the exam machine into exactly what its screens render and the events they may
 * send, and nothing else. Pure: no React, no DOM, no clock of its own (the timer reads the
 * deadline and the offset given here). Strings are the screens' (Lingui); this gives them facts
 * and codes.
 *
 * One part per screen: login-confirm, exam-start, exam (/start), exam-end, and the retry dialog
 * the shell shows over them while one of the exam's calls waits for the network (the retry
 * machine's own binding, machines/retry/retry.connect.ts). The tutorial
 * (exam-tutorial) has its own binding. `examEndWithoutExam` is the end screen kept without a login
 * (seed section 2, rule 5), when no exam runs.
 *
 * While the pupil answers, the question on screen and the view around it (the list, the flags,
 * the keyboard and its capitals) are the exam's `position` child's (machines/position): `position`
 * is that child's snapshot and `send`, and the exam screen's moves, toggles and keystrokes go to it
 * directly (a question swap is a transition of that small machine alone; a typed answer reaches the
 * exam from it once typing pauses or the screen commits it). Without it (loading,
 * finishing) the screen shows the position the exam last took, and moves do nothing.
 *
 * `connectLazily` gives the same, each part made only when first read (a screen reads one).
 * What does not change between snapshots stays the same object (the handlers of one `send`, the
 * answers' view of one `answers` record, each dialog kind), so a screen's memoised parts see equal
 * props when only something else moved.
 */
import type { ExamDetails, Question } from '../../contract/exam.ts';
import { connectRetryDialog, type RetryDialogApi } from '../retry/retry.connect.ts';
import type { FailureCode } from '../shared/ports.ts';
import { memoizeByKey } from '../shared/memoize-by-key.ts';
import { allNotSaved, refusedOnThisTerminal } from './exam.rules.ts';
import {
  selectAnswersKept,
  selectRetryCall,
  selectSaveState,
  selectTimeLimitMinutes,
  selectTimeLimitSeconds,
  type ExamSnapshot,
  type SaveState,
} from './exam.selectors.ts';
import type { AnswerEntry, ExamContext, ExamEvent } from './exam.types.ts';
import type { Draft, Position, PositionEvent } from '../position/position.types.ts';

export type { ExamSnapshot, SaveState } from './exam.selectors.ts';

export interface ExamApi {
  loginConfirm: LoginConfirmApi;
  examStart: ExamStartApi;
  exam: ExamScreenApi;
  examEnd: ExamEndApi;
  /** The tutorial's points while its practice (machines/tutorial) does not run. */
  tutorial: TutorialPointsApi;
  /** The retry dialog over the screen (one of the exam's calls waits for the network), or null. */
  retryDialog: RetryDialogApi | null;
}

/** "Is this you?" (login-confirm). */
export interface LoginConfirmApi {
  /** loading: the details are on their way; error: they could not be loaded (`error` says why). */
  status: 'loading' | 'ready' | 'error';
  details: ExamDetails | null;
  error: FailureCode | null;
  /** "Yes, continue". */
  confirm(): void;
  /** "No, log out". */
  reject(): void;
  /** "Try again" after a failed load. */
  retry(): void;
}

/** The tutorial's four points, from the exam's details (null until they are loaded). */
export interface TutorialPointsApi {
  questionCount: number | null;
  timeLimitMinutes: number;
  /** "Continue": on to Start. */
  complete(): void;
}

/** "Ready to start" (exam-start). */
export interface ExamStartApi {
  /** Start was pressed and the server has not answered yet (or this terminal is getting ready to work offline). */
  busy: boolean;
  /**
   * After Start, before the server is asked: `preparing` while the app shell is being installed
   * for an offline reload, `unavailable` when it could not be (the pupil may start anyway); null otherwise.
   */
  offline: 'preparing' | 'unavailable' | null;
  /** Why the last Start failed, if it did. */
  error: FailureCode | null;
  /** The exam's own time limit, in whole minutes (40 until the exam says otherwise, seed section 9). */
  timeLimitMinutes: number;
  start(): void;
  /** Starts without waiting any longer for the app shell (only while `offline` is `unavailable`). */
  startAnyway(): void;
}

/** One answer as the exam screen shows it. */
export interface AnswerView {
  value: string;
  /** Where it is kept (exam.selectors.ts, SaveState). */
  saved: SaveState;
}

/** The exam itself (/start). */
export interface ExamScreenApi {
  /** loading: no questions yet (or they failed); answering; finishing: the answers are being sent. */
  status: 'loading' | 'answering' | 'finishing';
  questions: Question[];
  /** 0-based index of the question on screen. */
  index: number;
  /** By question id. */
  answers: Record<number, AnswerView>;
  /** The server's deadline, epoch ms on the server's clock; 0 while not known yet. */
  deadlineAt: number;
  /** Server clock minus this terminal's, in ms. */
  clockOffsetMs: number;
  /** What the timer counts down from: the exam's own limit, or longer after an extension. */
  timeLimitSeconds: number;
  /** The "Finish the test?" dialog is open. */
  confirmingFinish: boolean;
  /** Loading the questions or finishing failed ("Try again"); null otherwise. */
  error: FailureCode | null;
  /** Question ids flagged for review, in the order flagged. */
  flagged: readonly number[];
  /** The question list overview is open (question_list_flag). */
  listOpen: boolean;
  /** The on-screen alphabet keyboard is shown where a question offers it (alphabets_keyboard_flag). */
  keyboardOpen: boolean;
  /** The alphabet keyboard types capitals (mode_upper_case_flag). */
  upperCase: boolean;
  /** The text answer being typed and not given yet (the position child's; null when none is). */
  draft: Pick<Draft, 'questionId' | 'value'> | null;
  retry(): void;
  answer(questionId: number, value: string): void;
  /** A keystroke in a text answer: the text so far (given by the position child once typing pauses). */
  type(questionId: number, value: string): void;
  /** Gives the draft now (the field left, Enter, before a move or Finish). */
  commitDraft(): void;
  next(): void;
  previous(): void;
  /** Jump to the question at this 0-based index (the question list). */
  select(index: number): void;
  /** Flag the question for review, or remove its flag. */
  flag(questionId: number): void;
  toggleList(): void;
  toggleKeyboard(): void;
  toggleUpperCase(): void;
  requestFinish(): void;
  confirmFinish(): void;
  cancelFinish(): void;
  /** The window lost focus while answering (kiosk: counted and reported, never blocking). */
  focusLost(): void;
}

/** The end of the test (exam-end). */
export interface ExamEndApi {
  outcome: 'sent' | 'cancelled';
  /** What the server acknowledged at finish; null when it is not known (after a reload). */
  receipt: { answer_count: number; digest: string } | null;
  /** Why the test was cancelled, when it was; null otherwise. */
  errorCode: FailureCode | null;
  /**
   * A proctor moved the pupil to another terminal (the exam's `movedAway`): `waiting`, the answers
   * this terminal still holds and sends once it can; `refused`, those given here the server
   * refused for good (given after the move, past the deadline...); null otherwise. While some
   * wait, Log out is not offered (`canLogout`).
   */
  movedAway: { waiting: number; refused: number } | null;
  /** Log out is offered: never while answers of a terminal moved away from wait to be sent. */
  canLogout: boolean;
  logout(): void;
}

type Send = (event: ExamEvent) => void;
type SendPosition = (event: PositionEvent) => void;

/** The exam's `position` child while it runs: what it holds, and where its events go. */
export interface PositionLink {
  snapshot: { context: Position & { draft?: Draft | null } };
  send: SendPosition;
}

/** Every event the exam's screens send, made once per `send` (the same functions on every snapshot). */
function handlersOf(send: Send) {
  return {
    confirm: () => send({ type: 'identity.confirmed' }),
    reject: () => send({ type: 'identity.rejected' }),
    retry: () => send({ type: 'retry.requested' }),
    start: () => send({ type: 'start.confirmed' }),
    startAnyway: () => send({ type: 'shell.skipped' }),
    completeTutorial: () => send({ type: 'tutorial.completed' }),
    answer: (questionId: number, value: string) => send({ type: 'answer.given', questionId, value }),
    requestFinish: () => send({ type: 'finish.requested' }),
    confirmFinish: () => send({ type: 'finish.confirmed' }),
    cancelFinish: () => send({ type: 'finish.cancelled' }),
    focusLost: () => send({ type: 'focus.lost' }),
    logout: () => send({ type: 'logout.requested' }),
  };
}

const handlers = memoizeByKey(handlersOf);

/** The moves and toggles, made once per position `send` (the same functions on every snapshot). */
function movesOf(send: SendPosition) {
  return {
    next: () => send({ type: 'question.next' }),
    previous: () => send({ type: 'question.previous' }),
    select: (index: number) => send({ type: 'question.selected', index }),
    flag: (questionId: number) => send({ type: 'question.flagged', questionId }),
    toggleList: () => send({ type: 'questionList.toggled' }),
    toggleKeyboard: () => send({ type: 'keyboard.toggled' }),
    toggleUpperCase: () => send({ type: 'upperCase.toggled' }),
    type: (questionId: number, value: string, held: string) => send({ type: 'answer.typed', questionId, value, held }),
    commitDraft: () => send({ type: 'draft.committed' }),
  };
}

/** No position child runs (loading, finishing): a move has nowhere to go. */
const noMoves: ReturnType<typeof movesOf> = movesOf(() => {});

const movesBySend = memoizeByKey(movesOf);
function moves(send: SendPosition | undefined): ReturnType<typeof movesOf> {
  return send ? movesBySend(send) : noMoves;
}

/** The answers as the screen shows them; the same object for the same `answers` record. */
const answersView = memoizeByKey(
  (answers: Record<number, AnswerEntry>): Record<number, AnswerView> =>
    Object.fromEntries(Object.entries(answers).map(([id, entry]) => [id, { value: entry.value, saved: selectSaveState(entry) }])),
);

function loginConfirmOf(snapshot: ExamSnapshot, send: Send): LoginConfirmApi {
  const { context } = snapshot;
  const { confirm, reject, retry } = handlers(send);
  return {
    status: snapshot.matches('detailsFailed') ? 'error' : snapshot.matches('confirming') ? 'ready' : 'loading',
    details: context.details,
    error: context.error,
    confirm,
    reject,
    retry,
  };
}

function tutorialOf(snapshot: ExamSnapshot, send: Send): TutorialPointsApi {
  return {
    questionCount: snapshot.context.details?.exam.question_count ?? null,
    timeLimitMinutes: selectTimeLimitMinutes(snapshot.context),
    complete: handlers(send).completeTutorial,
  };
}

function examStartOf(snapshot: ExamSnapshot, send: Send): ExamStartApi {
  return {
    busy: snapshot.matches('starting') || snapshot.matches({ preparingOffline: 'waiting' }),
    offline: snapshot.matches({ preparingOffline: 'waiting' })
      ? 'preparing'
      : snapshot.matches({ preparingOffline: 'unavailable' })
        ? 'unavailable'
        : null,
    error: snapshot.context.error,
    timeLimitMinutes: selectTimeLimitMinutes(snapshot.context),
    start: handlers(send).start,
    startAnyway: handlers(send).startAnyway,
  };
}

/**
 * A keystroke typed beside the answer the exam holds, so a draft typed back to it is not given
 * again: the same function for the same moves and answers (what a swap leaves alone stays the
 * same object). `typeBeside(moves)(answers)`.
 */
const typeBeside = memoizeByKey((m: ReturnType<typeof movesOf>) =>
  memoizeByKey(
    (answers: Record<number, AnswerView>): ExamScreenApi['type'] =>
      (questionId, value) =>
        m.type(questionId, value, answers[questionId]?.value ?? ''),
  ),
);

function examOf(snapshot: ExamSnapshot, send: Send, position: PositionLink | undefined): ExamScreenApi {
  const context: ExamContext = snapshot.context;
  const h = handlers(send);
  const m = moves(position?.send);
  const { questionIndex, view } = position?.snapshot.context ?? context;
  const answers = answersView(context.answers);
  const finishing = snapshot.matches('finishing') || snapshot.matches('finishFailed');
  return {
    status: snapshot.matches('answering') ? 'answering' : finishing ? 'finishing' : 'loading',
    questions: context.questions,
    index: questionIndex,
    answers,
    deadlineAt: context.deadlineAt ?? 0,
    clockOffsetMs: context.clockOffsetMs,
    timeLimitSeconds: selectTimeLimitSeconds(context),
    confirmingFinish: snapshot.matches({ answering: { view: 'confirmingFinish' } }),
    error: snapshot.matches('questionsFailed') || snapshot.matches('finishFailed') ? context.error : null,
    flagged: view.flagged,
    listOpen: view.listOpen,
    keyboardOpen: view.keyboardOpen,
    upperCase: view.upperCase,
    draft: position?.snapshot.context.draft ?? null,
    retry: h.retry,
    answer: h.answer,
    type: typeBeside(m)(answers),
    commitDraft: m.commitDraft,
    next: m.next,
    previous: m.previous,
    select: m.select,
    flag: m.flag,
    toggleList: m.toggleList,
    toggleKeyboard: m.toggleKeyboard,
    toggleUpperCase: m.toggleUpperCase,
    requestFinish: h.requestFinish,
    confirmFinish: h.confirmFinish,
    cancelFinish: h.cancelFinish,
    focusLost: h.focusLost,
  };
}

function examEndOf(snapshot: ExamSnapshot, send: Send): ExamEndApi {
  const { context } = snapshot;
  return {
    outcome: context.outcome ?? 'sent',
    receipt: context.receipt ? { answer_count: context.receipt.answer_count, digest: context.receipt.digest } : null,
    errorCode: context.outcome === 'cancelled' ? context.error : null,
    movedAway: snapshot.matches('movedAway') ? { waiting: allNotSaved(context).length, refused: refusedOnThisTerminal(context) } : null,
    canLogout: !snapshot.matches('movedAway') || snapshot.can({ type: 'logout.requested' }),
    logout: handlers(send).logout,
  };
}

function retryDialogOf(snapshot: ExamSnapshot, send: Send): RetryDialogApi | null {
  return connectRetryDialog(selectRetryCall(snapshot), send, selectAnswersKept(snapshot.context));
}

export function connect(snapshot: ExamSnapshot, send: Send, position?: PositionLink): ExamApi {
  return {
    loginConfirm: loginConfirmOf(snapshot, send),
    examStart: examStartOf(snapshot, send),
    exam: examOf(snapshot, send, position),
    examEnd: examEndOf(snapshot, send),
    tutorial: tutorialOf(snapshot, send),
    retryDialog: retryDialogOf(snapshot, send),
  };
}

/** `connect`'s parts, each made when first read and then kept (one snapshot, one `send`). */
class LazyExamApi implements ExamApi {
  readonly #snapshot: ExamSnapshot;
  readonly #send: Send;
  readonly #position: PositionLink | undefined;
  #loginConfirm: LoginConfirmApi | undefined;
  #examStart: ExamStartApi | undefined;
  #exam: ExamScreenApi | undefined;
  #examEnd: ExamEndApi | undefined;
  #tutorial: TutorialPointsApi | undefined;
  #retryDialog: RetryDialogApi | null | undefined;
  constructor(snapshot: ExamSnapshot, send: Send, position: PositionLink | undefined) {
    this.#snapshot = snapshot;
    this.#send = send;
    this.#position = position;
  }
  get loginConfirm(): LoginConfirmApi {
    return (this.#loginConfirm ??= loginConfirmOf(this.#snapshot, this.#send));
  }
  get examStart(): ExamStartApi {
    return (this.#examStart ??= examStartOf(this.#snapshot, this.#send));
  }
  get exam(): ExamScreenApi {
    return (this.#exam ??= examOf(this.#snapshot, this.#send, this.#position));
  }
  get examEnd(): ExamEndApi {
    return (this.#examEnd ??= examEndOf(this.#snapshot, this.#send));
  }
  get tutorial(): TutorialPointsApi {
    return (this.#tutorial ??= tutorialOf(this.#snapshot, this.#send));
  }
  get retryDialog(): RetryDialogApi | null {
    if (this.#retryDialog === undefined) this.#retryDialog = retryDialogOf(this.#snapshot, this.#send);
    return this.#retryDialog;
  }
}

/**
 * What `connect` gives, each part made only when a screen first reads it (and kept for this
 * snapshot): a screen reads one part, so a snapshot costs that part alone.
 */
export function connectLazily(snapshot: ExamSnapshot, send: Send, position?: PositionLink): ExamApi {
  return new LazyExamApi(snapshot, send, position);
}

/**
 * Rule 5's exception (seed section 2): the end screen kept after a reload without a login
 * (INCORRECT_DEVICE, RETAKE). No exam runs; the session keeps the end screen only for those codes,
 * so its stored code says why, and "Log out" leads to the login page.
 */
export function examEndWithoutExam(storedErrorCode: FailureCode | null, goToLogin: () => void): ExamEndApi {
  return { outcome: 'cancelled', receipt: null, errorCode: storedErrorCode, movedAway: null, canLogout: true, logout: goToLogin };
}
