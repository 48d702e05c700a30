/**
 * Types of the exam machine: one examinee's exam, from INIT_TEST to FINISH or
 * FINISH_WITH_ERROR (seed section 4).
 */
import type {
  ExamDetails,
  ExamineeSession,
  FinishExamResponse,
  Question,
} from '../../src/shared/contract.ts';
import type { FailureCode } from '../shared/ports.ts';

/** One answer as this terminal knows it. */
export interface AnswerEntry {
  value: string;
  /** When the pupil gave it, on the server's clock as the client tracks it (ISO 8601). */
  answeredAt: string;
  /** Idempotency key of this version of the answer. */
  key: string;
  /** pending: not yet acknowledged; saved: the server holds it; rejected: refused for good. */
  status: 'pending' | 'saved' | 'rejected';
}

export interface ExamContext {
  /** The exam this session may sit (seed: schedule_history_id). */
  scheduleHistoryId: number;
  /** The session's uuid, from which answer keys are made. */
  answerSeed: string;
  /** How many answer revisions this terminal has made; numbers the keys. */
  revision: number;
  /** 0-based index of the question on screen; persisted as question_index. */
  questionIndex: number;
  /** Candidate, subject, level and exam, from /exam-details. */
  details: ExamDetails | null;
  /** The questions, in order, without their correct answers. */
  questions: Question[];
  /** Answers by question id. */
  answers: Record<number, AnswerEntry>;
  /** The deadline the server fixed at Start, as epoch ms on the server's clock. */
  deadlineAt: number | null;
  /** Server clock minus this terminal's clock, in ms, from the last response. */
  clockOffsetMs: number;
  /** The failure shown on the current screen, if any. */
  error: FailureCode | null;
  /** The server's receipt for the finished exam. */
  receipt: FinishExamResponse | null;
  /** How the exam ended: answers sent, or cancelled with an error. */
  outcome: 'sent' | 'cancelled' | null;
}

export interface ExamInput {
  session: ExamineeSession;
}

export type ExamEvent =
  | { type: 'INIT_TEST' }
  | { type: 'START_SUCCESSFULLY' }
  | { type: 'FINISH' }
  | { type: 'FINISH_WITH_ERROR'; code: FailureCode }
  | { type: 'UNAUTHORIZED' }
  | { type: 'identity.confirmed' }
  | { type: 'identity.rejected' }
  | { type: 'retry.requested' }
  | { type: 'tutorial.completed' }
  | { type: 'start.confirmed' }
  | { type: 'answer.given'; questionId: number; value: string }
  | { type: 'question.next' }
  | { type: 'question.previous' }
  | { type: 'question.selected'; index: number }
  | { type: 'finish.requested' }
  | { type: 'finish.cancelled' }
  | { type: 'finish.confirmed' }
  | { type: 'logout.requested' }
  | { type: 'location.unmatched'; path: string; known: boolean };

/** Events the exam machine sends to its parent (the kiosk). */
export type ExamParentEvent =
  | { type: 'exam.progressed'; change: Partial<ExamineeSession> }
  | { type: 'exam.logoutRequested' }
  | { type: 'exam.unauthorized' };

/** What one save call carries. */
export interface AnswerToSave {
  scheduleHistoryId: number;
  questionId: number;
  value: string;
  key: string;
  answeredAt: string;
}
