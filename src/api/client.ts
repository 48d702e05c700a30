/**
 * The browser's ApiPort (machines/shared/ports.ts) over fetch (src/api/fetch.ts), for the calls of seed section 7.
 *
 * Promises: a 60 000 ms time-out per call; on every call the bearer token when there is one,
 * Accept-Language (BCP 47), X-Locale (the catalog key) and X-Device-Token; every response
 * parsed with its contract schema. Every failure rejects with an ApiFailure: the server's
 * envelope code and status for a non-2xx answer, GENERIC_ERROR for a body that does not
 * match its schema, NETWORK_ERROR when no answer came, TIMEOUT when it came too late.
 *
 * Seed section 7's call behaviour lives here, in one place (`callModes`, next to the table of
 * calls): a serial call waits, in 20 ms steps, for the serial call before it to finish; the
 * reload helper reads a screen's data again, at most 3 times, after 2^n seconds, when no
 * answer came. Nothing else is tried again here: the calls of the exam run in the retry
 * machine (machines/retry), which decides whether to call again and opens the retry dialog.
 */
import * as v from 'valibot';
import type { PaymentPort } from '../../machines/payment/payment.types.ts';
import { backoffMs } from '../../machines/shared/backoff.ts';
import { ApiFailure, failureCodeOf, type ApiPort } from '../../machines/shared/ports.ts';
import { ErrorBodySchema } from '../../contract/errors.ts';
import type { SaveAnswerRequest } from '../../contract/exam.ts';
import { headerNames } from '../../contract/http.ts';
import {
  AppScheduleSchema,
  ClientConfigSchema,
  ExamListSchema,
  KenyaLinkResponseSchema,
  MeResponseSchema,
  OrganizationSchema,
  SaveExamineeInfoResponseSchema,
  ScheduleSchema,
  LoginResponseSchema,
  LogoutResponseSchema,
  type LoginCodeRequest,
  type LoginExamineeRequest,
  type LoginIdRequest,
  type SaveExamineeInfoRequest,
} from '../../contract/session.ts';
import { catalogOf, languages, type LanguageKey } from '../../contract/languages.ts';
import { createFetch, NetworkError, type SendOptions } from './fetch.ts';

/** Seed section 7 and 9: every call gives up after 60 s. */
export const API_TIMEOUT_MS = 60_000;

/**
 * Logout waits for the server at most this long: the pupil is leaving a shared terminal, and a
 * logout that got no answer is wiped locally at once and its revocation sent later (the
 * session machine's signingOut), so the next pupil never waits a minute for a dead network.
 */
export const LOGOUT_TIMEOUT_MS = 10_000;

/** Seed section 7: "A new call waits, in 20 ms steps, for a previous call to finish." */
export const CALL_WAIT_STEP_MS = 20;

/** Seed section 7: "A reload helper retries at most 3 times with 2^n seconds": 2 s, 4 s, 8 s. */
export const RELOAD_RETRIES = 3;

/**
 * How a call runs beside the others (seed section 7, "Call behaviour"):
 * - serial: waits, looking again every CALL_WAIT_STEP_MS, until every serial call made before it
 *   has finished (answered, refused or failed), then runs: one at a time, in the order made;
 * - beside: runs at once, whatever else is under way;
 * - reload: runs at once; a read that got no answer at all (NETWORK_ERROR) is read again by the
 *   reload helper, at most RELOAD_RETRIES times, after 2^n seconds. A refusal or an answer too
 *   late (TIMEOUT, already a minute) is not: the screen shows it with its "Try again".
 */
export type CallMode = 'serial' | 'beside' | 'reload';

type Calls = Required<ApiPort & PaymentPort>;
export type CallName = keyof Calls;

/**
 * The decision, call by call (the table of calls is at the end of createApiClient).
 *
 * Serial: the writes of one pupil's session. Each changes what the next one relies on, on the
 * server (the token and the terminal's binding, the basic information Start needs, the running
 * exam, the checkout opened under a lock on the sitting): log in (any way, the Kenyan token
 * exchange included), save the examinee info, start, finish, open or complete a payment, log
 * out. A new pupil's login never overtakes the last pupil's logout, and a logout never
 * overtakes the finish it follows.
 *
 * Beside, never waiting for a write:
 * - answer saves: the outbox (src/platform/outbox.ts) and the exam machine already order them:
 *   one save at a time in the `sync` region, the flush sends them one after another and Finish
 *   only after it; each has its idempotency key and the server keeps the newest (answered_at),
 *   so an answer never waits behind another pupil-session write and a repeat is harmless;
 * - the heartbeat and the focus-loss report: presence is about now, and a beat held back by a
 *   write would make the proctor's roster show the pupil offline;
 * - the exam's details and questions: they run in the retry machine, which already tries them
 *   again and opens the dialog; and when no answer comes the exam resumes from this terminal's
 *   cache at once, so they are not read again here either;
 * - the payment's status checks (the payment machine polls them with its own backoff) and the
 *   documents (the pupil's download, made on demand).
 * - a logout of an earlier pupil's token (a revocation kept from an offline logout,
 *   machines/session/session.revocation.ts): another session, nothing to wait for.
 *
 * Reload: the reads a screen shows (login page, entry, testing menu, exam list, payment
 * settings, results): reads change nothing, so they never wait, and a blip of the network is
 * read over before the screen says it failed.
 */
export const callModes = {
  login: 'serial',
  loginWithId: 'serial',
  loginExaminee: 'serial',
  kenyaLoginLink: 'serial',
  saveExamineeInfo: 'serial',
  startExam: 'serial',
  finishExam: 'serial',
  logout: 'serial',
  createExamFeeSession: 'serial',
  createResultFeeSession: 'serial',
  completeDemoPayment: 'serial',
  saveAnswer: 'beside',
  heartbeat: 'beside',
  focusLoss: 'beside',
  examDetails: 'beside',
  examQuestions: 'beside',
  paymentStatus: 'beside',
  resultDocument: 'beside',
  organization: 'reload',
  schedule: 'reload',
  appSchedule: 'reload',
  me: 'reload',
  clientConfig: 'reload',
  chooseStatus: 'reload',
  exams: 'reload',
  examPaymentSetting: 'reload',
  resultPaymentSetting: 'reload',
  shortResult: 'reload',
  scoreReport: 'reload',
  loginSlips: 'reload',
  tutorialSetting: 'reload',
} as const satisfies Record<CallName, CallMode>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The line the serial calls stand in: a call runs once every serial call made before it has
 * finished, looking again every `stepMs` (the seed's 20 ms steps). A failed call finishes too.
 */
export function createCallLine(stepMs = CALL_WAIT_STEP_MS): <T>(run: () => Promise<T>) => Promise<T> {
  let made = 0;
  let finished = 0;
  return async (run) => {
    const turn = made++;
    while (finished < turn) await sleep(stepMs);
    try {
      return await run();
    } finally {
      finished++;
    }
  };
}

/**
 * The reload helper: reads again while no answer comes, at most RELOAD_RETRIES times; retry n
 * waits 2^n seconds first (machines/shared/backoff.ts). Any other failure is the read's result.
 */
export async function reload<T>(read: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await read();
    } catch (error) {
      if (n > RELOAD_RETRIES || failureCodeOf(error) !== 'NETWORK_ERROR') throw error;
      await sleep(backoffMs(n));
    }
  }
}

export interface ApiClientOptions {
  /** The API base; same origin `/api` by default. */
  baseURL?: string;
  /** The Examinee-Token, or null when logged out. */
  getToken(): string | null;
  /** The active interface language (a catalog key, or the Arabic numerals variant). */
  getLanguage(): LanguageKey;
  /** The terminal's device token. */
  getDeviceToken(): string;
  /** Only tests shorten this. */
  timeoutMs?: number;
}

type Method = 'GET' | 'POST';

/**
 * The schemas of the calls the first screen never makes, in a chunk of their own
 * (src/api/later-schemas.ts): loaded by the first such call, or ahead by src/main.tsx's preload.
 */
export const loadLaterSchemas = () => import('./later-schemas.ts');
type LaterSchemas = Awaited<ReturnType<typeof loadLaterSchemas>>;

/** A response schema read from src/api/later-schemas.ts once it is loaded. */
type Later<S extends v.GenericSchema> = { readonly later: (schemas: LaterSchemas) => S };
const later = <S extends v.GenericSchema>(pick: (schemas: LaterSchemas) => S): Later<S> => ({ later: pick });

/** The schema itself, or the later one once its chunk is in; a chunk that cannot be loaded leaves the answer unread. */
async function schemaOf<S extends v.GenericSchema>(schema: S | Later<S>): Promise<S> {
  if (!('later' in schema)) return schema;
  let schemas: LaterSchemas;
  try {
    schemas = await loadLaterSchemas();
  } catch {
    throw new ApiFailure('GENERIC_ERROR', undefined, 'The response schemas could not be loaded');
  }
  return schema.later(schemas);
}

/** What a failed request (no answer, time-out, or another exception) means for the machines. */
function failureOf(error: unknown): ApiFailure {
  if (error instanceof ApiFailure) return error;
  if (isTimeout(error)) return new ApiFailure('TIMEOUT');
  if (error instanceof NetworkError) return new ApiFailure('NETWORK_ERROR');
  return new ApiFailure('GENERIC_ERROR', undefined, error instanceof Error ? error.message : undefined);
}

function isTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ('name' in e && e.name === 'TimeoutError') return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}

export function createApiClient(options: ApiClientOptions): ApiPort & PaymentPort {
  const { baseURL = '/api', getToken, getLanguage, getDeviceToken, timeoutMs = API_TIMEOUT_MS } = options;

  // Bodies are parsed strictly: text that is not JSON fails the schema instead of passing as a string.
  const send = createFetch({
    baseURL,
    timeout: timeoutMs,
    beforeSend(headers) {
      const language = getLanguage();
      const token = getToken();
      // A call made with its own token (the print route's) keeps it.
      if (token && !headers.has(headerNames.authorization)) headers.set(headerNames.authorization, `Bearer ${token}`);
      headers.set(headerNames.acceptLanguage, languages[language].tag);
      headers.set(headerNames.locale, catalogOf(language));
      headers.set(headerNames.deviceToken, getDeviceToken());
    },
  });

  async function call<S extends v.GenericSchema>(
    method: Method,
    path: string,
    schema: S | Later<S>,
    extra: Omit<SendOptions, 'method' | 'blob'> = {},
  ): Promise<v.InferOutput<S>> {
    // Loaded beside the request, so every call still goes out the moment it is made.
    const responseSchema = schemaOf(schema);
    responseSchema.catch(() => undefined);
    let response;
    try {
      response = await send(path, { method, ...extra });
    } catch (error) {
      throw failureOf(error);
    }
    const { status } = response;
    if (status < 200 || status > 299) {
      const envelope = v.safeParse(ErrorBodySchema, response.data);
      if (envelope.success) throw new ApiFailure(envelope.output.code, status, envelope.output.message);
      throw new ApiFailure('GENERIC_ERROR', status);
    }
    const parsed = v.safeParse(await responseSchema, response.data);
    if (!parsed.success) throw new ApiFailure('GENERIC_ERROR', status, `Unexpected response from ${method} ${path}`);
    return parsed.output;
  }

  /** A document (PDF) as a Blob; a refusal still arrives as the JSON error envelope. */
  async function download(path: string, query: Record<string, string | number>): Promise<Blob> {
    let response;
    try {
      // The client's strict JSON parser would read the PDF as text: documents are read as a Blob.
      response = await send(path, { method: 'GET', query, blob: true });
    } catch (error) {
      throw failureOf(error);
    }
    const { status } = response;
    const data = response.data;
    if (status < 200 || status > 299 || !(data instanceof Blob)) {
      let body: unknown;
      try {
        body = data instanceof Blob ? JSON.parse(await data.text()) : undefined;
      } catch {
        body = undefined;
      }
      const envelope = v.safeParse(ErrorBodySchema, body);
      if (envelope.success) throw new ApiFailure(envelope.output.code, status, envelope.output.message);
      throw new ApiFailure('GENERIC_ERROR', status);
    }
    return data;
  }

  const inLine = createCallLine();
  /** The call as its mode says; a logout of another token than the terminal's is a revocation: beside. */
  function inMode<A extends unknown[], R>(name: CallName, run: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args) => {
      const revocation = name === 'logout' && typeof args[0] === 'string' && args[0] !== '' && args[0] !== getToken();
      const mode: CallMode = revocation ? 'beside' : callModes[name];
      if (mode === 'serial') return inLine(() => run(...args));
      if (mode === 'reload') return reload(() => run(...args));
      return run(...args);
    };
  }

  const calls: Calls = {
    // The document in the pupil's own language, the Arabic numerals variant included (X-Locale names only the catalog).
    resultDocument: (scheduleHistoryId, document) =>
      download(document === 'report' ? '/score-report/pdf-report' : '/get-certificate', {
        schedule_history_id: scheduleHistoryId,
        locale: getLanguage(),
      }),
    login: (body: LoginCodeRequest) => call('POST', '/login', LoginResponseSchema, { body }),
    examDetails: (scheduleHistoryId) =>
      call('GET', '/exam-details', later((s) => s.ExamDetailsSchema), { query: { schedule_history_id: scheduleHistoryId } }),
    startExam: (scheduleHistoryId) =>
      call('POST', '/exam/start', later((s) => s.StartExamResponseSchema), { body: { schedule_history_id: scheduleHistoryId } }),
    examQuestions: (scheduleHistoryId) =>
      call('GET', '/exam/questions', later((s) => s.ExamQuestionsSchema), { query: { schedule_history_id: scheduleHistoryId } }),
    saveAnswer: (body: SaveAnswerRequest) => call('POST', '/exam/answers', later((s) => s.SaveAnswerResponseSchema), { body }),
    heartbeat: (body) => call('POST', '/exam/heartbeat', later((s) => s.HeartbeatResponseSchema), { body }),
    finishExam: (scheduleHistoryId) =>
      call('POST', '/exam/finish', later((s) => s.FinishExamResponseSchema), { body: { schedule_history_id: scheduleHistoryId } }),
    focusLoss: (body) => call('POST', '/exam/focus-loss', later((s) => s.FocusLossResponseSchema), { body }),
    // With a token of its own (a revocation kept from an offline logout), that token is the one ended.
    logout: async (token) => {
      await call('POST', '/logout', LogoutResponseSchema, {
        timeout: Math.min(timeoutMs, LOGOUT_TIMEOUT_MS),
        ...(token ? { headers: { [headerNames.authorization]: `Bearer ${token}` } } : {}),
      });
    },
    organization: (code) => call('GET', '/organization', OrganizationSchema, { query: { code } }),
    schedule: (query) => call('GET', '/schedule', ScheduleSchema, { query: { ...query } }),
    loginWithId: (body: LoginIdRequest) => call('POST', '/login', LoginResponseSchema, { body }),
    loginExaminee: (body: LoginExamineeRequest) => call('POST', '/login-examinee', LoginResponseSchema, { body }),
    appSchedule: (orgCode) => call('GET', '/app-schedule', AppScheduleSchema, { query: { organization_code: orgCode } }),
    kenyaLoginLink: (token) => call('POST', '/api_connect/kenya/login-link', KenyaLinkResponseSchema, { body: { token } }),
    me: () => call('GET', '/me', MeResponseSchema),
    saveExamineeInfo: (body: SaveExamineeInfoRequest) =>
      call('POST', '/save-examinee-info', SaveExamineeInfoResponseSchema, { body }),
    chooseStatus: () => call('GET', '/get-status-choose-page', later((s) => s.ChoosePageStatusSchema)),
    exams: () => call('GET', '/exams', ExamListSchema),
    clientConfig: () => call('GET', '/client-config', ClientConfigSchema),
    examPaymentSetting: (scheduleHistoryId) =>
      call('GET', '/get-setting-payment-for-exam', later((s) => s.ExamPaymentSettingSchema), { query: { schedule_history_id: scheduleHistoryId } }),
    resultPaymentSetting: (scheduleHistoryId) =>
      call('GET', '/get-setting-payment-for-result', later((s) => s.ResultPaymentSettingSchema), { query: { schedule_history_id: scheduleHistoryId } }),
    createExamFeeSession: (body) => call('POST', '/payment/adyen/sessions/exam-fee', later((s) => s.PaymentSessionSchema), { body }),
    createResultFeeSession: (body) => call('POST', '/payment/adyen/sessions/result-fee', later((s) => s.PaymentSessionSchema), { body }),
    paymentStatus: (reference) => call('GET', '/payment/status', later((s) => s.PaymentStatusResponseSchema), { query: { reference } }),
    completeDemoPayment: (body) => call('POST', '/payment/demo/complete', later((s) => s.PaymentStatusResponseSchema), { body }),
    shortResult: (scheduleHistoryId) =>
      call('GET', '/get-short-result', later((s) => s.ShortResultSchema), { query: { schedule_history_id: scheduleHistoryId } }),
    scoreReport: (scheduleHistoryId, token) =>
      call('GET', '/score-report/results', later((s) => s.ScoreReportSchema), {
        query: { schedule_history_id: scheduleHistoryId },
        ...(token ? { headers: { [headerNames.authorization]: `Bearer ${token}` } } : {}),
      }),
    loginSlips: (scheduleCode, venueId, token) =>
      call('GET', `/admin/schedules/${encodeURIComponent(scheduleCode)}/slips`, later((s) => s.LoginSlipsResponseSchema), {
        ...(venueId === null ? {} : { query: { venue: venueId } }),
        headers: { [headerNames.authorization]: `Bearer ${token}` },
      }),
    tutorialSetting: (scheduleHistoryId) =>
      call('GET', '/tutorial-setting', later((s) => s.TutorialSettingSchema), { query: { schedule_history_id: scheduleHistoryId } }),
  };

  // Every call of the table in its mode (callModes).
  const moded: Record<string, unknown> = {};
  for (const name of Object.keys(calls) as CallName[]) {
    moded[name] = inMode(name, calls[name] as (...args: unknown[]) => Promise<unknown>);
  }
  return moded as unknown as Calls;
}
