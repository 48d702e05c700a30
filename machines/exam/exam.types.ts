/**
 * Types of the exam machine: one examinee's exam, from INIT_TEST to FINISH or
 * FINISH_WITH_ERROR (seed section 4).
 */
import type {
  ExamDetails,
  ExamQuestions,
  FinishExamResponse,
  Question,
  SaveAnswerOutcome,
  SavedAnswer,
} from '../../contract/exam.ts';
import type { ExamineeSession } from '../../contract/session.ts';
import type { FailureCode, OutboxEntry } from '../shared/ports.ts';
import type { Position, PositionView } from '../position/position.types.ts';

/** One answer as this terminal knows it. */
export interface AnswerEntry {
  value: string;
  /** When the pupil gave it, on the server's clock as the client tracks it (ISO 8601). */
  answeredAt: string;
  /** Idempotency key of this version of the answer. */
  key: string;
  /**
   * writing: being written to the outbox (not saved yet); local: in the outbox, saved on this
   * terminal only; unsaved: the outbox refused it, held in memory only (still sent); saved:
   * the server acknowledged its key; rejected: the server refused it for good; replaced: the
   * server holds a later answer from another window (or terminal) of this pupil, and `value`
   * is that answer (never shown as this window's saved answer).
   */
  status: 'writing' | 'local' | 'unsaved' | 'saved' | 'rejected' | 'replaced';
}

/** What the pupil arranged (ExamContext.view): the position machine's view (machines/position). */
export type ExamView = PositionView;

export interface ExamContext {
  /** The exam this session may sit (seed: schedule_history_id). */
  scheduleHistoryId: number;
  /** The session's uuid, from which answer keys are made. */
  answerSeed: string;
  /** How many answer revisions this terminal has made; numbers the keys. */
  revision: number;
  /**
   * 0-based index of the question on screen, as last reported (persisted as question_index):
   * while answering, the `position` child holds the live one and reports it once the pupil pauses.
   */
  questionIndex: number;
  /** Candidate, subject, level and exam, from /exam-details. */
  details: ExamDetails | null;
  /** The questions, in order, without their correct answers. */
  questions: Question[];
  /** Answers by question id. */
  answers: Record<number, AnswerEntry>;
  /**
   * The server's deadline, as epoch ms on the server's clock: fixed at Start, moved by the server
   * only (a proctor's extension, a time credit), learnt from the heartbeat and every save.
   */
  deadlineAt: number | null;
  /** When Start was pressed, as epoch ms on the server's clock (the time limit shown grows with an extension). */
  startedAt: number | null;
  /** The page was visible when last heard of (the heartbeat reports it). */
  visible: boolean;
  /** Failed background saves in a row; numbers the backoff before the next try. */
  saveAttempts: number;
  /** Server clock minus this terminal's clock, in ms, from the last response. */
  clockOffsetMs: number;
  /** The failure shown on the current screen, if any. */
  error: FailureCode | null;
  /** The server's receipt for the finished exam. */
  receipt: FinishExamResponse | null;
  /** How the exam ended: answers sent, or cancelled with an error. */
  outcome: 'sent' | 'cancelled' | null;
  /**
   * What the pupil arranged besides the question on screen, as last reported with it (the
   * `position` child holds the live one while answering) and kept in the stored session. One object, not five keys of the context: XState copies
   * the context with Object.assign on every assign, and V8 keeps an object built that way with more
   * than about 19 properties in dictionary mode, several times slower to copy and to read (the
   * question swap's cost). Keep the context at 18 keys or fewer.
   */
  view: ExamView;
  /** Kiosk: how often the window lost focus while answering (reported to the server). */
  focusLosses: number;
  /**
   * What the stored session says a reload resumes into (one key: see ExamContext.view). Always
   * set by the machine; optional only for contexts built by hand (absent: neither).
   */
  stored?: StoredResume;
}

/** What the stored session says a reload of the exam resumes into, read back from it at the start. */
export interface StoredResume {
  /**
   * The pupil confirmed Finish (or time ran out): the exam is finishing, and a reload goes
   * straight back to finishing, never to answering (finish_pending: written as finishing is
   * entered, cleared when the exam is completed).
   */
  finishPending: boolean;
  /**
   * A proctor moved the pupil away from this terminal (moved_away_refused, written as movedAway
   * is entered): the answers given here the server refused before this page loaded; null while
   * the stored session does not say so. A reload goes straight to the moved-away end.
   */
  movedAwayRefused: number | null;
}

/**
 * The stored session as the exam reads and reports it: with finish_pending, the pupil's confirmed
 * Finish not yet acknowledged by the server (absent: none; a session stored before it parses).
 */
export type ExamSession = ExamineeSession;

export interface ExamInput {
  session: ExamSession;
}

export type ExamEvent =
  | { type: 'INIT_TEST' }
  | { type: 'START_SUCCESSFULLY' }
  | { type: 'FINISH' }
  | { type: 'FINISH_WITH_ERROR'; code: FailureCode }
  | { type: 'UNAUTHORIZED' }
  /** An administrator reset the account (401 ER_SCHEDULE_HISTORY_RETAKE): log in again. */
  | { type: 'UPDATE_FLAG_RETAKE' }
  /** 401 DURING_MAINTENANCE during the exam: outside test hours. */
  | { type: 'DURING_MAINTENANCE' }
  | { type: 'identity.confirmed' }
  | { type: 'identity.rejected' }
  | { type: 'retry.requested' }
  | { type: 'tutorial.completed' }
  | { type: 'start.confirmed' }
  /**
   * The app shell is installed on this terminal and controls the page (TerminalPort.shellReady):
   * a reload without the network brings the exam back. Also where there is nothing to wait for.
   */
  | { type: 'shell.installed' }
  /** The pupil (or the proctor beside them) starts without waiting for the app shell any longer. */
  | { type: 'shell.skipped' }
  | { type: 'answer.given'; questionId: number; value: string }
  /** Kiosk: the window lost focus (blur or a hidden tab) while answering. */
  | { type: 'focus.lost' }
  | { type: 'finish.requested' }
  | { type: 'finish.cancelled' }
  | { type: 'finish.confirmed' }
  | { type: 'logout.requested' }
  /** OK pressed on the retry dialog (check connection variant). */
  | { type: 'dialog.closed' }
  /** The browser reports it is online again. */
  | { type: 'connection.restored' }
  /**
   * The terminal's clock, every second while answering (`now`: this terminal's epoch ms): time
   * left is re-derived from the server's deadline and the offset, and past it the exam finishes.
   */
  | { type: 'clock.ticked'; now: number }
  /**
   * The page came back or changed (visibilitychange, focus, online, pagehide): the same check, at
   * once, a heartbeat at once, and when visible, the server's answers read again (another window
   * may have replaced one); when hidden (or going away), the position waiting for the pupil's
   * pause is reported at once.
   */
  | { type: 'page.changed'; now: number; visible: boolean; cause: PageChangeCause }
  /**
   * Another window of this sitting on this terminal had an answer acknowledged by the server:
   * a later one than this window's replaces it (newest answered_at wins), an earlier one is ignored.
   */
  | { type: 'answer.savedElsewhere'; answer: AnswerSavedElsewhere }
  /**
   * Another window of this sitting on this terminal measured the server's clock: a tighter
   * offset (or a changed clock) is taken; a looser one is answered with this window's own.
   */
  | { type: 'clock.shared'; clock: ClockShared }
  /**
   * From the `position` child (machines/position): the pupil paused after a move or a toggle, or
   * flagged a question; the exam keeps it and reports it to the kiosk.
   */
  | { type: 'position.reported'; position: Position }
  | { type: 'location.unmatched'; path: string; known: boolean };

/** Events the exam machine sends to its parent (the kiosk). */
export type ExamParentEvent =
  | { type: 'exam.progressed'; change: Partial<ExamSession> }
  /** errorCode: the reason shown on the login page (error_code in its query). */
  | { type: 'exam.logoutRequested'; errorCode?: FailureCode }
  | { type: 'exam.unauthorized' };

/** What one save call carries: the same record the outbox keeps. */
export type AnswerToSave = OutboxEntry;

/** What a save's acknowledgement tells the machine (from SaveAnswerResponse). */
export interface SaveAcknowledgement {
  key: string;
  serverTime: string;
  outcome: SaveAnswerOutcome;
  /** The value the server holds instead (superseded only). */
  currentValue?: string;
  /** The sitting's deadline as it stands. */
  deadlineAt: string;
}

/**
 * The browser event behind a page.changed. `pagehide`: the page is going away (a reload, the
 * window closed, another address), always with visible false, as the last word the page gets.
 */
export type PageChangeCause = 'visibilitychange' | 'focus' | 'online' | 'pagehide';

/**
 * An answer the server acknowledged to one window of a sitting, as that window tells the other
 * windows of the same terminal (they share the stored session, so the same login and sitting).
 */
export interface AnswerSavedElsewhere {
  scheduleHistoryId: number;
  /** The session's uuid (ExamContext.answerSeed): only windows of the same login take it. */
  owner: string;
  questionId: number;
  value: string;
  /** When the pupil gave it, on the server's clock (ISO 8601): the newer answer wins. */
  answeredAt: string;
  /** Its idempotency key. */
  key: string;
}

/**
 * The offset between the server's clock and this terminal's (server minus local, in ms) as one
 * window of a sitting measured it, told to the other windows: they share the terminal's clock,
 * so the tightest bound any of them measured serves all, and answers given in two windows are
 * ordered as the pupil gave them whatever each window's latency.
 */
export interface ClockShared {
  scheduleHistoryId: number;
  /** The session's uuid (ExamContext.answerSeed): only windows of the same login take it. */
  owner: string;
  clockOffsetMs: number;
}

/** The sitting whose signals a window watches: answers from other windows are this sitting's only. */
export interface WatchedSitting {
  scheduleHistoryId: number;
  owner: string;
}

/** What the page's edge tells the exam while answering (src/platform/terminal.ts). */
export type TerminalSignal =
  | { type: 'clock.ticked'; now: number }
  | { type: 'page.changed'; now: number; visible: boolean; cause: PageChangeCause }
  | { type: 'answer.savedElsewhere'; answer: AnswerSavedElsewhere }
  | { type: 'clock.shared'; clock: ClockShared };

/**
 * The page's clock and wake-up signals: a tick every second, and visibilitychange, focus,
 * online and pagehide as they happen. Laptop lids and background tabs pause timers; the next
 * tick (or the wake-up event) reads the wall clock again, so nothing relies on one long timer.
 * Besides, the windows of one sitting on this terminal tell each other of the answers the server
 * acknowledged (`announce`, heard as `answer.savedElsewhere`), so none keeps showing an answer
 * another window replaced as saved, and the server's clock as each measured it (`shareClock`,
 * heard as `clock.shared`), so all time their answers alike.
 */
export interface TerminalPort {
  /**
   * Starts the signals (with a sitting: also the answers its other windows had saved); returns
   * the function that stops them.
   */
  watch(emit: (signal: TerminalSignal) => void, sitting?: WatchedSitting): () => void;
  /**
   * Tells the other windows of the sitting on this terminal (never this one) that the server
   * acknowledged this answer; absent: windows are not told (they learn it from the server when shown again).
   */
  announce?(answer: AnswerSavedElsewhere): void;
  /**
   * Tells the other windows of the sitting on this terminal (never this one) the clock offset this
   * window holds, heard as `clock.shared`; absent: each window keeps its own measurement.
   */
  shareClock?(clock: ClockShared): void;
  /**
   * Resolves once this terminal can reload the app without the network: the app shell (the
   * service worker's precache) is installed and controls this page; at once where the browser
   * has no service worker at all (nothing to wait for: see src/platform/service-worker.ts). A
   * failed install is tried again meanwhile. Stops waiting (rejects) once `signal` aborts.
   * Absent: nothing to wait for.
   */
  shellReady?(signal?: AbortSignal): Promise<void>;
}

/**
 * What this terminal keeps of a running exam to resume it after a reload without the network
 * (src/platform/exam-cache.ts, IndexedDB next to the outbox): never the correct answers (the
 * server never sends them), only what the pupil already sees.
 */
export interface CachedExam {
  scheduleHistoryId: number;
  /** The session's uuid: a record is read back only by the login that wrote it. */
  owner: string;
  details: ExamDetails;
  questions: Question[];
  /** The answers the server is known to hold (the outbox holds the rest). */
  answers: SavedAnswer[];
  /** The server's deadline (ISO 8601). */
  deadlineAt: string;
  /** Server clock minus this terminal's, in ms, when last measured. */
  clockOffsetMs: number;
  /** 0-based index of the question on screen. */
  questionIndex: number;
}

/**
 * The exam cache's promises: `put` replaces the sitting's record and forgets every other
 * owner's (one pupil at a time on a terminal); `get` answers null for another owner, another
 * sitting or a record that does not validate; `clear` forgets everything (logout, exam over).
 */
export interface ExamCachePort {
  put(exam: CachedExam): Promise<void>;
  get(scheduleHistoryId: number, owner: string): Promise<CachedExam | null>;
  clear(): Promise<void>;
}

/** What loading calls are given: the sitting, and whose cache may stand in for the server offline. */
export interface LoadInput {
  scheduleHistoryId: number;
  /** The session's uuid (CachedExam.owner). */
  owner: string;
}

/** What finishing's flush ends with: keys the server acknowledged, and keys it refused for good. */
export interface FlushResult {
  saved: string[];
  refused: string[];
}

/** The questions and the server's answers, with the answers this terminal's outbox still holds. */
export interface LoadedExam extends ExamQuestions {
  /** Outbox entries of this schedule history not yet acknowledged (from before a reload). */
  unsent: OutboxEntry[];
  /**
   * Resumed from this terminal's cache (no network): the clock offset it kept, used as is
   * (server_time is only its estimate). Absent: the server answered; the offset is measured.
   */
  keptClockOffsetMs?: number;
}
