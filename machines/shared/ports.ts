/**
 * The edges the machines talk through. Machines never fetch or touch the DOM: the browser
 * side provides an ApiPort (ofetch, src/api/) and a Web Storage; tests provide fakes.
 */
import type {
  ErrorCode,
  ExamDetails,
  ExamQuestions,
  FinishExamResponse,
  LoginCodeRequest,
  LoginResponse,
  SaveAnswerRequest,
  StartExamResponse,
} from '../../src/shared/contract.ts';

/** Why a call failed: a code from the server's envelope, or what the network did. */
export type FailureCode = ErrorCode | 'NETWORK_ERROR' | 'TIMEOUT';

/** The one error type every ApiPort method rejects with. */
export class ApiFailure extends Error {
  /** HTTP status when the server answered; undefined for network failures and time-outs. */
  readonly status: number | undefined;
  readonly code: FailureCode;
  constructor(code: FailureCode, status?: number, message?: string) {
    super(message ?? code);
    this.name = 'ApiFailure';
    this.code = code;
    this.status = status;
  }
}

/** Reads the failure code out of whatever an actor rejected with. */
export function failureCodeOf(error: unknown): FailureCode {
  if (error instanceof ApiFailure) return error.code;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error.code as FailureCode;
  }
  return 'GENERIC_ERROR';
}

/** The API calls of seed section 7 that the machines use; each validates its response. */
export interface ApiPort {
  login(body: LoginCodeRequest): Promise<LoginResponse>;
  examDetails(scheduleHistoryId: number): Promise<ExamDetails>;
  startExam(scheduleHistoryId: number): Promise<StartExamResponse>;
  examQuestions(scheduleHistoryId: number): Promise<ExamQuestions>;
  saveAnswer(body: SaveAnswerRequest): Promise<{ question_id: number; idempotency_key: string; server_time: string }>;
  finishExam(scheduleHistoryId: number): Promise<FinishExamResponse>;
  logout(): Promise<void>;
}

/** The subset of Web Storage the storage module needs (localStorage in the browser). */
export interface StoragePort {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
