/**
 * The edges the machines talk through. Machines never fetch or touch the DOM: the browser
 * side provides an ApiPort (fetch, src/api/) and a Web Storage; tests provide fakes.
 */
import type { ErrorCode } from '../../contract/errors.ts';
import type {
  ExamDetails,
  ExamQuestions,
  FinishExamResponse,
  SaveAnswerRequest,
  SaveAnswerResponse,
  StartExamResponse,
} from '../../contract/exam.ts';
import type { ChoosePageStatus, ScoreReport, ShortResult } from '../../contract/results.ts';
import type {
  AppSchedule,
  ClientConfig,
  ExamList,
  KenyaLinkResponse,
  LoginExamineeRequest,
  LoginIdRequest,
  MeResponse,
  Organization,
  SaveExamineeInfoRequest,
  SaveExamineeInfoResponse,
  Schedule,
  LoginCodeRequest,
  LoginResponse,
} from '../../contract/session.ts';
import type { HeartbeatRequest, HeartbeatResponse } from '../../contract/presence.ts';
import type { TutorialSetting } from '../../contract/tutorial.ts';
import type { LoginSlipsResponse } from '../../contract/exports.ts';

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

/**
 * What an actor rejected with, from its error event (undefined from any other event). XState types
 * every error event's `error` as unknown (ErrorActorEvent), so a typed parameter would carry
 * unknown too: failureCodeOf, isUnauthorized and the like judge it.
 */
export function errorOf(event: unknown): unknown {
  return typeof event === 'object' && event !== null && 'error' in event ? event.error : undefined;
}

/** Reads the failure code out of whatever an actor rejected with. */
export function failureCodeOf(error: unknown): FailureCode {
  if (error instanceof ApiFailure) return error.code;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error.code as FailureCode;
  }
  return 'GENERIC_ERROR';
}

/** The failure code of an actor's error event, as an action or a guard is given it (`{ event }`). */
export const failureOfEvent = ({ event }: { event: unknown }): FailureCode => failureCodeOf(errorOf(event));

/** Whether a failure is the network's (no answer, or a time-out) rather than the server's answer. */
export function isNetworkFailure(code: FailureCode | null): boolean {
  return code === 'NETWORK_ERROR' || code === 'TIMEOUT';
}

/** A failure that trying again may cure: no answer, a time-out, or the server's generic error. */
export function isTransientFailure(code: FailureCode | null): boolean {
  return code === null || isNetworkFailure(code) || code === 'GENERIC_ERROR';
}

/** The API calls of seed section 7 that the machines use; each validates its response. */
export interface ApiPort {
  login(body: LoginCodeRequest): Promise<LoginResponse>;
  examDetails(scheduleHistoryId: number): Promise<ExamDetails>;
  startExam(scheduleHistoryId: number): Promise<StartExamResponse>;
  examQuestions(scheduleHistoryId: number): Promise<ExamQuestions>;
  saveAnswer(body: SaveAnswerRequest): Promise<SaveAnswerResponse>;
  /** POST /exam/heartbeat: this terminal is present (contract/presence.ts); answers the current deadline. */
  heartbeat(body: HeartbeatRequest): Promise<HeartbeatResponse>;
  finishExam(scheduleHistoryId: number): Promise<FinishExamResponse>;
  /** POST /exam/focus-loss (kiosk audit); optional: fakes may leave it out. */
  focusLoss?(body: { schedule_history_id: number; count: number; at: string }): Promise<unknown>;
  /**
   * POST /logout: ends a token on the server. With `token`, that token is sent (a revocation
   * kept from an earlier offline logout); without, the stored one.
   */
  logout(token?: string): Promise<void>;
  /** GET /organization?code= : the school a login page belongs to. */
  organization(code: string): Promise<Organization>;
  /** GET /schedule: the schedule a login page belongs to (unknown: INVALID_SCHEDULE). */
  schedule(query: ScheduleQuery): Promise<Schedule>;
  /** POST /login with a login ID and password (login type 1). */
  loginWithId(body: LoginIdRequest): Promise<LoginResponse>;
  /** POST /login-examinee (login type 5). */
  loginExaminee(body: LoginExamineeRequest): Promise<LoginResponse>;
  /** GET /app-schedule?organization_code= : where the Android app's entry leads. */
  appSchedule(orgCode: string): Promise<AppSchedule>;
  /** POST /api_connect/kenya/login-link: the Kenyan partner's token exchanged for ours. */
  kenyaLoginLink(token: string): Promise<KenyaLinkResponse>;
  /** GET /me: who the bearer token belongs to. */
  me(): Promise<MeResponse>;
  /** POST /save-examinee-info: basic information, registered once. */
  saveExamineeInfo(body: SaveExamineeInfoRequest): Promise<SaveExamineeInfoResponse>;
  /** GET /get-status-choose-page: what the testing menu shows. */
  chooseStatus(): Promise<ChoosePageStatus>;
  /** GET /exams: the examinee's exam list. */
  exams(): Promise<ExamList>;
  /** GET /client-config: partner logout URLs and the embedding origin. */
  clientConfig(): Promise<ClientConfig>;
  /** GET /get-short-result: score, passed, correct rate (RESULT_NOT_RELEASED / RESULT_VIEW_EXPIRED outside the window). */
  shortResult?(scheduleHistoryId: number): Promise<ShortResult>;
  /** GET /score-report/results; `token` replaces the stored one (the print route's own token). */
  scoreReport?(scheduleHistoryId: number, token?: string): Promise<ScoreReport>;
  /** GET /admin/schedules/:code/slips?venue=: the login slips' print route, with the print's slips token. */
  loginSlips?(scheduleCode: string, venueId: number | null, token: string): Promise<LoginSlipsResponse>;
  /** GET /score-report/pdf-report or /get-certificate: the PDF. */
  resultDocument?(scheduleHistoryId: number, document: 'report' | 'certificate'): Promise<Blob>;
  /** GET /tutorial-setting: the tutorial of a sitting, with its practice questions (machines/tutorial). */
  tutorialSetting?(scheduleHistoryId: number): Promise<TutorialSetting>;
}

/** The query of GET /schedule (venue_id and org_code only with login type 1). */
export interface ScheduleQuery {
  schedule_code: string;
  login_type: number;
  venue_id?: number;
  org_code?: string;
}

/** One answer kept on this terminal until the server acknowledged its key (seed section 4). */
export interface OutboxEntry {
  scheduleHistoryId: number;
  questionId: number;
  value: string;
  /** Idempotency key of this revision of the answer; the outbox's key. */
  key: string;
  /** When the pupil gave it, on the server's clock as the client tracks it (ISO 8601). */
  answeredAt: string;
}

/**
 * The durable local outbox of answers (IndexedDB in the browser, src/platform/outbox.ts).
 * An answer shows as "saved on this terminal" only once `put` resolved; it is removed only
 * after the server acknowledged its key; what is left is resent after a reload or next login.
 */
export interface OutboxPort {
  /**
   * Stores (or overwrites) the entry under its key, replacing older revisions of the same
   * question (the newest answer is the one that counts); resolves once it is durable.
   */
  put(entry: OutboxEntry): Promise<void>;
  /** Every entry kept for this schedule history, in no particular order. */
  list(scheduleHistoryId: number): Promise<OutboxEntry[]>;
  /** Forgets the entry with this key (no error if there is none). */
  remove(key: string): Promise<void>;
}

/** The subset of Web Storage the storage module needs (localStorage in the browser). */
export interface StoragePort {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
