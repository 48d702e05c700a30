/**
 * The session machine: who is logged in on this terminal, how they got in, where they land
 * and how they leave (seed sections 2, 3, 4, 6, 8).
 *
 * Owns every way in (login code; login ID + password on a school's or schedule's page;
 * examinee login; the entry routes /oauth, /oauth-kaigen, /oauth-kaigen-philippine,
 * /oauth-kenya, /oauth-egypt and /app-entry), the entry guard rules 1-7, the landing rules
 * (basic information, testing menu, exam list, or straight into the exam flow) and every way
 * out (logout per login type; 401 handling: DURING_MAINTENANCE ends the session on the login
 * page, a maintenance-exempt route, with the outside-test-hours message; any other 401 with
 * the generic error; seed section 8).
 *
 * Top states: checking (boot: a stored session resumes its chosen exam, or lands again) ->
 * signedOut (loginCode | login | entering | entryFailed | forbidden | notFound | examEndKept |
 * leavingForPartner | left) -> signedIn (landing -> basicInfo -> inputInfo | info ->
 * testingMenu; examList; -> examFlow) -> signingOut -> leaving (the login page of the login
 * type, with logout=1 or school and error_code; or the partner's site).
 * Entry routes (/oauth*, /app-entry) and /login carry their query in `location.unmatched`;
 * the states they lead to without a path of their own (entering, entryFailed, left) leave
 * the URL as it is.
 * Invariants:
 * - a session is in context exactly while signedIn or signingOut;
 * - storage is written on sign-in and wiped on sign-out by this machine only;
 * - logout ends the token on the server before anything is wiped: POST /logout is sent with
 *   the session's token, and storage is wiped when it answers; with no answer (offline, a
 *   time-out), maintenance or a server failure, storage is wiped all the same and the token
 *   waits in the pending-revocation store (only the token string) until the network returns;
 *   a 401 means the token is gone already: nothing waits;
 * - the exam flow (the kiosk's exam machine) starts only once a schedule history is known:
 *   `session.signedIn` is sent on entering examFlow, never before;
 * - leaving the app for a partner's site is a named action the edge provides.
 */
import { assign, forwardTo, fromPromise, or, sendParent, setup, stateIn } from 'xstate';
import { type ErrorCode } from '../../contract/errors.ts';
import { type ChoosePageStatus, type ScoreReport } from '../../contract/results.ts';
import {
  normalizeLoginCode,
  type ClientConfig,
  type ExamineeInfo,
  type ExamineeSession,
  type ExamList,
  type KenyaLinkResponse,
  type LoginResponse,
  type MeResponse,
  type SaveExamineeInfoRequest,
  type SaveExamineeInfoResponse,
} from '../../contract/session.ts';
import { paymentMachine } from '../payment/payment.machine.ts';
import { paymentPaths, paymentReturnOf, returnUrlOf } from '../payment/payment.return.ts';
import { failureCodeOf } from '../shared/ports.ts';
import { uuidV4 } from '../shared/uuid.ts';
import {
  LoginPageQuerySchema,
  allEntryPaths,
  appEntryOrg,
  entryPaths,
  isBasicInfoMissing,
  isMaintenanceFailure,
  isMyPageUser,
  isUnauthorizedFailure,
  keptExamEndCodes,
  landsOnExamList,
  oauthEntry,
  oauthError,
  partnerEntry,
  partnerLoginTypes,
  protectedPaths,
  queryOf,
  ssoCodeOf,
  validateBasicInfo,
  visibleFailure,
} from './session.rules.ts';
import type {
  Credentials,
  EntryFacts,
  LoginPlace,
  SessionContext,
  SessionEvent,
  ResultsContext,
  SessionInput,
  SessionParentEvent,
  ShortResultWithOwned,
} from './session.types.ts';

/** Builds the stored session from the server's login answer (seed section 3). */
export function sessionFromLogin(response: LoginResponse, uuid: string): ExamineeSession {
  return {
    ...response.examinee,
    token: response.access_token,
    uuid,
    question_index: 0,
    question_list_flag: false,
    alphabets_keyboard_flag: false,
    mode_upper_case_flag: false,
    is_completed: false,
    error_code: null,
  };
}

const provided = (name: string) => () => {
  throw new Error(`${name} is provided by the edge`);
};

/** The login page's query kept in the URL (only the keys it knows). */
function loginSearch(search: Record<string, string> | undefined): Record<string, string> {
  const q = queryOf(LoginPageQuerySchema, search);
  return Object.fromEntries(Object.entries(q).filter(([, value]) => value !== undefined)) as Record<string, string>;
}

/** A failure the last session ended with, shown on the login page (error_code in its query). */
function failureFromSearch(search: Record<string, string>) {
  return search.error_code ? { kind: 'failure' as const, code: search.error_code as ErrorCode } : null;
}

const emptyBasicInfo = { values: { examinee_name: '', grade_id: null, email: '' }, errors: {}, failure: null };
const emptyResults: ResultsContext = { id: null, short: null, owned: null, report: null, failure: null, downloading: null };

/**
 * Every call's first two error branches (seed section 8): a 401 in maintenance ends the session
 * with the outside-test-hours message, any other 401 with the generic error.
 */
const endSessionOnRefusal = [
  { guard: 'isMaintenance', target: '#session.signingOut', actions: 'endForMaintenance' },
  { guard: 'isUnauthorized', target: '#session.signingOut', actions: 'endForRefusedToken' },
] as const;

/** The payment screens' events, handled by the payment machine (machines/payment). */
const toFeePayment = {
  'terms.toggled': { actions: 'forwardToPayment' },
  'checkout.requested': { actions: 'forwardToPayment' },
  'provider.completed': { actions: 'forwardToPayment' },
  'demo.chosen': { actions: 'forwardToPayment' },
  'again.requested': { actions: 'forwardToPayment' },
  'retry.requested': { actions: 'forwardToPayment' },
} as const;
/** Result items are ticked one by one; the exam fee is its screen's only item, never ticked. */
const toPayment = {
  ...toFeePayment,
  'item.toggled': { actions: 'forwardToPayment' },
} as const;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    /** POST /login with a login code. */
    loginWithCode: fromPromise<LoginResponse, { code: string }>(provided('loginWithCode')),
    /** The login page's school or schedule (GET /organization, /schedule or /app-schedule). */
    loadLoginPlace: fromPromise<LoginPlace, { search: Record<string, string> }>(provided('loadLoginPlace')),
    /** POST /login (type 1) or /login-examinee (type 5), as the page's place says. */
    loginWithPassword: fromPromise<LoginResponse, { place: LoginPlace; credentials: Credentials }>(provided('loginWithPassword')),
    /** POST /api_connect/kenya/login-link: the partner's token for ours. */
    exchangeKenyaToken: fromPromise<KenyaLinkResponse, { token: string }>(provided('exchangeKenyaToken')),
    /** GET /me: who the stored token belongs to. */
    identifyToken: fromPromise<MeResponse, void>(provided('identifyToken')),
    /** POST /save-examinee-info. */
    saveBasicInfo: fromPromise<SaveExamineeInfoResponse, SaveExamineeInfoRequest>(provided('saveBasicInfo')),
    /** GET /get-status-choose-page. */
    loadTestingMenu: fromPromise<ChoosePageStatus, void>(provided('loadTestingMenu')),
    /** GET /exams. */
    loadExamList: fromPromise<ExamList, void>(provided('loadExamList')),
    /** GET /client-config: where partner login types go at logout. */
    loadClientConfig: fromPromise<ClientConfig, void>(provided('loadClientConfig')),
    /** POST /logout with the session's token: ends it on the server; failures do not keep anyone logged in. */
    endServerSession: fromPromise<void, { token: string }>(provided('endServerSession')),
    /** A checkout of the exam fee or of result items (the payment machine, provided with its port by the edge). */
    payment: paymentMachine,
    /** GET /get-short-result and what of the result is owned (GET /get-setting-payment-for-result). */
    loadShortResult: fromPromise<ShortResultWithOwned, { id: number }>(provided('loadShortResult')),
    /** GET /score-report/results. */
    loadScoreReport: fromPromise<ScoreReport, { id: number }>(provided('loadScoreReport')),
    /** GET /score-report/pdf-report or /get-certificate, saved as a file by the edge. */
    downloadDocument: fromPromise<void, { id: number; document: 'report' | 'certificate' }>(provided('downloadDocument')),
  },
  actions: {
    /** Writes the session to storage; provided by the edge. */
    persistSession: (_, _params: { session: ExamineeSession }) => provided('persistSession')(),
    /** Removes everything of the examinee from storage; provided by the edge. */
    wipeSession: () => provided('wipeSession')(),
    /** Notes the token as waiting for revocation (its own key, only the token); provided by the edge. */
    holdRevocation: (_, _params: { token: string }) => provided('holdRevocation')(),
    /** The server ended the token (or it was gone already): nothing left to revoke; provided by the edge. */
    dropRevocation: (_, _params: { token: string }) => provided('dropRevocation')(),
    /** Applies a stored-field change (question index, schedule history...); provided by the edge. */
    persistChange: (_, _params: { change: Partial<ExamineeSession> }) => provided('persistChange')(),
    /** Rule 1: stores token, school id, login type and step mode; provided by the edge. */
    persistEntry: (_, _params: { entry: EntryFacts }) => provided('persistEntry')(),
    /** Rule 1: an SSO error still stores the school id; provided by the edge. */
    persistSchoolId: (_, _params: { schoolId: string | null }) => provided('persistSchoolId')(),
    /** Leaves the app for a partner's site (window.location); provided by the edge. */
    leaveApp: (_, _params: { url: string }) => provided('leaveApp')(),
    /** Opens the browser's print dialog (the score report's print stylesheet); provided by the edge. */
    printPage: () => provided('printPage')(),
    forwardToPayment: forwardTo('payment'),
    /** Why the session ends: maintenance (the outside-test-hours message) or a token no longer good (seed section 8). */
    endForMaintenance: assign({ exit: ({ context }) => exitOf(context, 'DURING_MAINTENANCE') }),
    endForRefusedToken: assign({ exit: ({ context }) => exitOf(context, 'GENERIC_ERROR') }),
    /** A results call or download failed: the results screens show why. */
    keepResultsFailure: assign({
      results: ({ context, event }) => ({ ...context.results, failure: visibleFailure((event as { error?: unknown }).error) }),
    }),
    markDownloading: assign({
      results: ({ context }, params: { document: 'report' | 'certificate' }) => ({ ...context.results, downloading: params.document, failure: null }),
    }),
    clearDownloading: assign({ results: ({ context }) => ({ ...context.results, downloading: null }) }),
    notifySignedIn: sendParent(({ context }): SessionParentEvent => ({
      type: 'session.signedIn',
      session: context.session as ExamineeSession,
    })),
    notifySignedOut: sendParent((): SessionParentEvent => ({ type: 'session.signedOut' })),
    clearLoginError: assign({ loginError: null }),
    /** The provider's redirect back: the sitting it names is the one the payment and results screens show. */
    keepPaymentReturn: assign(({ context, event }) => {
      const paymentReturn = paymentReturnOf(event.type === 'location.unmatched' ? event.search : undefined);
      return { paymentReturn, results: { ...emptyResults, id: paymentReturn?.scheduleHistoryId ?? context.results.id } };
    }),
  },
  guards: {
    hasStoredSession: ({ context }) => context.session !== null,
    hasResumableExam: ({ context }) =>
      context.session !== null && context.session.schedule_history_id !== null && !isMyPageUser(context.session),
    isCodeMissing: ({ event }) => event.type === 'loginCode.submitted' && event.code.trim() === '',
    isCodeMalformed: ({ event }) => event.type === 'loginCode.submitted' && normalizeLoginCode(event.code) === undefined,
    isSignedOut: ({ context }) => context.session === null,
    isUnknownPath: ({ event }) => event.type === 'location.unmatched' && !event.known,
    isAppEntryWithoutOrg: ({ event }) =>
      event.type === 'location.unmatched' && event.path === entryPaths.appEntry && appEntryOrg(event.search) === null,
    isAppEntry: ({ event }) => event.type === 'location.unmatched' && event.path === entryPaths.appEntry,
    isOauthError: ({ event }) =>
      event.type === 'location.unmatched' && event.path === entryPaths.oauth && oauthError(event.search) !== null,
    isOauthWithToken: ({ context, event }) =>
      event.type === 'location.unmatched' && event.path === entryPaths.oauth && oauthEntry(event.search, context.storedToken) !== null,
    isKenyaWithToken: ({ event }) =>
      event.type === 'location.unmatched' && event.path === entryPaths.kenya && partnerEntry(event.path, event.search) !== null,
    isPartnerWithToken: ({ event }) =>
      event.type === 'location.unmatched' && event.path !== entryPaths.oauth && partnerEntry(event.path, event.search) !== null,
    isEntryPath: ({ event }) => event.type === 'location.unmatched' && allEntryPaths.includes(event.path),
    isLoginPage: ({ event }) => event.type === 'location.unmatched' && event.path === '/login',
    isKeptExamEnd: ({ context, event }) =>
      event.type === 'location.unmatched' &&
      event.path === '/exam-end' &&
      context.storedErrorCode !== null &&
      keptExamEndCodes.has(context.storedErrorCode),
    isProtectedPath: ({ event }) => event.type === 'location.unmatched' && protectedPaths.includes(event.path),
    isFeePaymentReturn: ({ event }) =>
      event.type === 'location.unmatched' && event.path === paymentPaths.exam_fee && paymentReturnOf(event.search) !== null,
    isResultPaymentReturn: ({ event }) =>
      event.type === 'location.unmatched' && event.path === paymentPaths.result_fee && paymentReturnOf(event.search) !== null,
    hasEntrySchool: ({ context }) => Boolean(context.entry?.schoolId),
    isInvalidPlace: ({ event }) => {
      const code = failureCodeOf((event as { error?: unknown }).error);
      return code === 'INVALID_SCHEDULE' || code === 'NOT_FOUND' || code === 'VALIDATION_ERROR';
    },
    areCredentialsIncomplete: ({ event }) =>
      event.type === 'login.submitted' && (event.login_id.trim() === '' || event.password === ''),
    hasKenyaToken: ({ event }) => Boolean((event as { output?: KenyaLinkResponse }).output?.access_token),
    isMyPageUser: ({ context }) => isMyPageUser(context.session as ExamineeSession),
    isBasicInfoMissing: ({ context }) => isBasicInfoMissing(context.session as ExamineeSession),
    landsOnExamList: ({ context }) => landsOnExamList(context.session as ExamineeSession),
    isStepMode: ({ context }) => Boolean(context.session?.enable_mode_step),
    isBasicInfoInvalid: ({ context }) => Object.keys(validateBasicInfo(context.basicInfo.values)).length > 0,
    canTakeTest: ({ context }) => Boolean(context.menu?.exam.can_take && context.menu.exam.schedule_history_id !== null),
    mustPayFee: ({ context }) =>
      Boolean(context.menu?.exam_fee.required && context.menu.exam_fee.status !== 2 && context.menu.exam.schedule_history_id !== null),
    isResultReleased: ({ context }) => Boolean(context.menu?.result.released && context.menu.exam.schedule_history_id !== null),
    ownsResultSheet: ({ context }) => Boolean(context.results.owned?.result_sheet),
    canDownloadCertificate: ({ context }) =>
      Boolean(context.results.owned?.certificate && (context.results.short?.passed ?? context.results.report?.result.passed)),

    isChoosableExam: ({ context, event }) =>
      event.type === 'exam.chosen' &&
      context.exams.some((row) => row.schedule_history_id === event.scheduleHistoryId && !row.locked),
    isMaintenance: ({ event }) => isMaintenanceFailure((event as { error?: unknown }).error),
    isUnauthorized: ({ event }) => isUnauthorizedFailure((event as { error?: unknown }).error),
    isPartnerExit: ({ context }) => context.exit !== null && partnerLoginTypes.has(context.exit.loginType),
    isCodeExit: ({ context }) => context.exit?.loginType === 0,
    hasPartnerLogoutUrl: ({ context, event }) => {
      const urls = (event as { output?: ClientConfig }).output?.partner_logout_urls as Record<string, string> | undefined;
      return Boolean(context.exit && urls?.[String(context.exit.loginType)]);
    },
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    session: input.storedSession,
    loginError: null,
    pendingCode: null,
    search: {},
    place: null,
    placeError: null,
    credentials: null,
    passwordError: null,
    storedToken: input.storedToken ?? null,
    storedErrorCode: input.storedErrorCode ?? null,
    entry: null,
    entryError: null,
    basicInfo: emptyBasicInfo,
    menu: null,
    exams: [],
    failure: null,
    exit: null,
    results: emptyResults,
    appOrigin: input.appOrigin ?? 'http://localhost',
    paymentReturn: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      always: [
        // After a reload, an exam already chosen (or given by the login) resumes where it was;
        // my-page users see their menu again first.
        { guard: 'hasResumableExam', target: 'signedIn.examFlow' },
        { guard: 'hasStoredSession', target: 'signedIn' },
        { target: 'signedOut' },
      ],
    },
    signedOut: {
      initial: 'loginCode',
      on: {
        'location.unmatched': [
          // Rule 4: /app-entry needs organization_code; with it, the school's login page.
          { guard: 'isAppEntryWithoutOrg', target: '#sessionNotFound' },
          {
            guard: 'isAppEntry',
            target: '#sessionLogin',
            actions: assign({ search: ({ event }) => ({ org_code: appEntryOrg(event.search) ?? '', from: 'app_entry' }) }),
          },
          // Rule 1: an error stores the school id and shows the SSO error.
          {
            guard: 'isOauthError',
            target: '#sessionEntryFailed',
            actions: [
              assign({ entryError: ({ event }) => ({ kind: 'sso', code: oauthError(event.search)?.code ?? 'unknown' }) }),
              { type: 'persistSchoolId', params: ({ event }) => ({ schoolId: oauthError(event.search)?.schoolId ?? null }) },
            ],
          },
          {
            guard: 'isOauthWithToken',
            target: '#sessionIdentifying',
            actions: [
              assign({ entry: ({ context, event }) => oauthEntry(event.search, context.storedToken) }),
              { type: 'persistEntry', params: ({ context }) => ({ entry: context.entry as EntryFacts }) },
            ],
          },
          // Rule 2: Kenya's token is exchanged first.
          {
            guard: 'isKenyaWithToken',
            target: '#sessionExchanging',
            actions: assign({ entry: ({ event }) => partnerEntry(event.path, event.search) }),
          },
          // Rules 2 and 3: the partner's token is ours.
          {
            guard: 'isPartnerWithToken',
            target: '#sessionIdentifying',
            actions: [
              assign({ entry: ({ event }) => partnerEntry(event.path, event.search) }),
              { type: 'persistEntry', params: ({ context }) => ({ entry: context.entry as EntryFacts }) },
            ],
          },
          // Rule 1 (no token or no school id) and rule 2 (no token): unknown.
          {
            guard: 'isEntryPath',
            target: '#sessionEntryFailed',
            actions: assign({ entryError: { kind: 'sso', code: 'unknown' } }),
          },
          { guard: 'isLoginPage', target: '#sessionLogin', actions: assign({ search: ({ event }) => loginSearch(event.search) }) },
          // Rule 5's exception: the end screen stays for these stored error codes.
          { guard: 'isKeptExamEnd', target: '#sessionExamEndKept' },
          // Rule 7: a screen that needs a stored login shows /403.
          { guard: 'isProtectedPath', target: '#sessionForbidden' },
          { guard: 'isUnknownPath', target: '#sessionNotFound' },
          // Rule 5: any other protected path without a token goes to the login page.
          { target: '#sessionLoginCode', actions: assign({ search: {} }) },
        ],
      },
      states: {
        loginCode: {
          id: 'sessionLoginCode',
          meta: { path: '/login-code', screen: 'login-code', withSearch: true },
          route: { guard: 'isSignedOut' },
          entry: assign({ loginError: ({ context }) => failureFromSearch(context.search) }),
          initial: 'editing',
          states: {
            editing: {
              on: {
                'loginCode.submitted': [
                  { guard: 'isCodeMissing', actions: assign({ loginError: { kind: 'field', rule: 'required' } }) },
                  { guard: 'isCodeMalformed', actions: assign({ loginError: { kind: 'field', rule: 'invalid' } }) },
                  {
                    target: 'submitting',
                    actions: assign({
                      loginError: null,
                      pendingCode: ({ event }) => normalizeLoginCode(event.code) ?? null,
                    }),
                  },
                ],
              },
            },
            submitting: {
              tags: ['busy'],
              invoke: {
                id: 'loginWithCode',
                src: 'loginWithCode',
                input: ({ context }) => ({ code: context.pendingCode ?? '' }),
                onDone: {
                  target: '#session.signedIn',
                  actions: [
                    assign({ session: ({ event }) => sessionFromLogin(event.output, uuidV4()), pendingCode: null, search: {} }),
                    { type: 'persistSession', params: ({ context }) => ({ session: context.session as ExamineeSession }) },
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: assign({
                    loginError: ({ event }) => ({ kind: 'failure', code: failureCodeOf(event.error) }),
                    pendingCode: null,
                  }),
                },
              },
            },
          },
        },
        login: {
          id: 'sessionLogin',
          meta: { path: '/login', screen: 'login', withSearch: true },
          entry: assign({ passwordError: ({ context }) => failureFromSearch(context.search), place: null, placeError: null }),
          initial: 'loadingPlace',
          states: {
            loadingPlace: {
              tags: ['busy'],
              invoke: {
                id: 'loadLoginPlace',
                src: 'loadLoginPlace',
                input: ({ context }) => ({ search: context.search }),
                onDone: { target: 'ready', actions: assign({ place: ({ event }) => event.output }) },
                onError: [
                  // "Venue, organization or schedule URL invalid".
                  { guard: 'isInvalidPlace', target: 'invalid', actions: assign({ placeError: 'INVALID_SCHEDULE' }) },
                  { target: 'placeFailed', actions: assign({ placeError: ({ event }) => visibleFailure(event.error) }) },
                ],
              },
            },
            invalid: {},
            placeFailed: {
              on: { 'retry.requested': 'loadingPlace' },
            },
            ready: {
              on: {
                'login.submitted': [
                  {
                    guard: 'areCredentialsIncomplete',
                    actions: assign({
                      passwordError: ({ event }) => ({
                        kind: 'fields',
                        fields: {
                          ...(event.login_id.trim() === '' ? { login_id: 'required' as const } : {}),
                          ...(event.password === '' ? { password: 'required' as const } : {}),
                        },
                      }),
                    }),
                  },
                  {
                    target: 'submitting',
                    actions: assign({
                      passwordError: null,
                      credentials: ({ event }) => ({ login_id: event.login_id.trim(), password: event.password }),
                    }),
                  },
                ],
              },
            },
            submitting: {
              tags: ['busy'],
              invoke: {
                id: 'loginWithPassword',
                src: 'loginWithPassword',
                input: ({ context }) => ({
                  place: context.place as LoginPlace,
                  credentials: context.credentials ?? { login_id: '', password: '' },
                }),
                onDone: {
                  target: '#session.signedIn',
                  actions: [
                    assign({ session: ({ event }) => sessionFromLogin(event.output, uuidV4()), credentials: null, search: {} }),
                    { type: 'persistSession', params: ({ context }) => ({ session: context.session as ExamineeSession }) },
                  ],
                },
                onError: {
                  target: 'ready',
                  actions: assign({
                    passwordError: ({ event }) => ({ kind: 'failure', code: visibleFailure(event.error) }),
                    credentials: null,
                  }),
                },
              },
            },
          },
        },
        entering: {
          meta: { screen: 'entry' },
          tags: ['busy'],
          initial: 'identifying',
          states: {
            exchanging: {
              id: 'sessionExchanging',
              invoke: {
                id: 'exchangeKenyaToken',
                src: 'exchangeKenyaToken',
                input: ({ context }) => ({ token: context.entry?.token ?? '' }),
                onDone: [
                  {
                    guard: 'hasKenyaToken',
                    target: 'identifying',
                    actions: [
                      assign({
                        entry: ({ context, event }) => ({
                          token: event.output.access_token ?? '',
                          schoolId: event.output.org_code ?? context.entry?.schoolId ?? '',
                          loginType: event.output.login_type ?? 6,
                          stepMode: event.output.org_step_mode ?? context.entry?.stepMode ?? false,
                        }),
                      }),
                      { type: 'persistEntry', params: ({ context }) => ({ entry: context.entry as EntryFacts }) },
                    ],
                  },
                  {
                    target: '#sessionEntryFailed',
                    actions: assign({ entryError: ({ event }) => ({ kind: 'sso', code: ssoCodeOf(event.output.error) }) }),
                  },
                ],
                onError: {
                  target: '#sessionEntryFailed',
                  actions: assign({ entryError: ({ event }) => ({ kind: 'failure', code: visibleFailure(event.error) }) }),
                },
              },
            },
            identifying: {
              id: 'sessionIdentifying',
              invoke: {
                id: 'identifyToken',
                src: 'identifyToken',
                onDone: {
                  target: '#session.signedIn',
                  actions: [
                    assign({
                      // The entry's query decides the login type and step mode (rule 1).
                      session: ({ context, event }) =>
                        sessionFromLogin(
                          {
                            ...event.output,
                            examinee: {
                              ...event.output.examinee,
                              login_type: (context.entry?.loginType ?? event.output.examinee.login_type) as ExamineeInfo['login_type'],
                              enable_mode_step: context.entry?.stepMode ?? event.output.examinee.enable_mode_step,
                            },
                          },
                          uuidV4(),
                        ),
                      entry: null,
                    }),
                    { type: 'persistSession', params: ({ context }) => ({ session: context.session as ExamineeSession }) },
                  ],
                },
                onError: {
                  target: '#sessionEntryFailed',
                  actions: [
                    assign({ entryError: ({ event }) => ({ kind: 'failure', code: visibleFailure(event.error) }) }),
                    'wipeSession',
                  ],
                },
              },
            },
          },
        },
        entryFailed: {
          id: 'sessionEntryFailed',
          meta: { screen: 'entry' },
          on: {
            'login.requested': [
              {
                guard: 'hasEntrySchool',
                target: 'login',
                actions: assign({ search: ({ context }) => ({ school: context.entry?.schoolId ?? '' }), entry: null, entryError: null }),
              },
              { target: 'loginCode', actions: assign({ search: {}, entry: null, entryError: null }) },
            ],
          },
        },
        forbidden: {
          id: 'sessionForbidden',
          meta: { path: '/403', screen: 'forbidden' },
          route: { guard: 'isSignedOut' },
          on: { 'login.requested': { target: 'loginCode', actions: [assign({ search: {} }), 'clearLoginError'] } },
        },
        notFound: {
          id: 'sessionNotFound',
          meta: { path: '/404', screen: 'not-found' },
          route: { guard: 'isSignedOut' },
          on: { 'login.requested': { target: 'loginCode', actions: [assign({ search: {} }), 'clearLoginError'] } },
        },
        examEndKept: {
          id: 'sessionExamEndKept',
          meta: { path: '/exam-end', screen: 'exam-end' },
          on: { 'login.requested': { target: 'loginCode', actions: assign({ search: {} }) } },
        },
        leavingForPartner: {
          meta: { screen: 'entry' },
          tags: ['busy'],
          invoke: {
            id: 'loadClientConfig',
            src: 'loadClientConfig',
            onDone: [
              {
                guard: 'hasPartnerLogoutUrl',
                target: 'left',
                actions: {
                  type: 'leaveApp',
                  params: ({ context, event }) => ({
                    url: (event.output.partner_logout_urls as Record<string, string>)[String(context.exit?.loginType)] ?? '',
                  }),
                },
              },
              { target: 'loginCode', actions: assign({ search: { logout: '1' }, exit: null }) },
            ],
            onError: { target: 'loginCode', actions: assign({ search: { logout: '1' }, exit: null }) },
          },
        },
        /** The browser is on its way to the partner's site. */
        left: { meta: { screen: 'entry' }, tags: ['busy'] },
      },
    },
    signedIn: {
      initial: 'landing',
      on: {
        'logout.requested': {
          target: 'signingOut',
          actions: assign({ exit: ({ context, event }) => (event.errorCode ? exitOf(context, event.errorCode) : context.exit) }),
        },
        // The payment provider's redirect back (the returnUrl): the payment screen it names confirms that checkout.
        'location.unmatched': [
          { guard: 'isFeePaymentReturn', target: '.payExamFee', actions: 'keepPaymentReturn' },
          { guard: 'isResultPaymentReturn', target: '.payExamResult', actions: 'keepPaymentReturn' },
        ],
        'session.updated': {
          actions: [
            assign({ session: ({ context, event }) => ({ ...(context.session as ExamineeSession), ...event.change }) }),
            { type: 'persistChange', params: ({ event }) => ({ change: event.change }) },
          ],
        },
      },
      states: {
        // Seed section 2, "Next screen after login".
        landing: {
          always: [
            { guard: 'isMyPageUser', target: 'basicInfo' },
            { guard: 'landsOnExamList', target: 'examList' },
            { target: 'examFlow' },
          ],
        },
        basicInfo: {
          always: [{ guard: 'isBasicInfoMissing', target: 'inputInfo' }, { target: 'info' }],
        },
        inputInfo: {
          meta: { path: '/examinee-input-info', screen: 'examinee-input-info' },
          entry: assign({
            basicInfo: ({ context }) => ({
              values: {
                examinee_name: context.session?.examinee_name ?? '',
                grade_id: context.session?.grade_id ?? null,
                email: context.session?.email ?? '',
              },
              errors: {},
              failure: null,
            }),
          }),
          initial: 'editing',
          states: {
            editing: {
              on: {
                'basicInfo.changed': {
                  actions: assign({ basicInfo: ({ context, event }) => ({ ...context.basicInfo, values: event.values }) }),
                },
                'basicInfo.reviewed': [
                  {
                    guard: 'isBasicInfoInvalid',
                    actions: assign({
                      basicInfo: ({ context }) => ({ ...context.basicInfo, errors: validateBasicInfo(context.basicInfo.values) }),
                    }),
                  },
                  { target: 'confirming', actions: assign({ basicInfo: ({ context }) => ({ ...context.basicInfo, errors: {}, failure: null }) }) },
                ],
              },
            },
            confirming: {
              on: {
                'basicInfo.edited': 'editing',
                'basicInfo.confirmed': 'saving',
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'saveBasicInfo',
                src: 'saveBasicInfo',
                input: ({ context }) => ({
                  examinee_name: context.basicInfo.values.examinee_name.trim(),
                  grade_id: context.basicInfo.values.grade_id as SaveExamineeInfoRequest['grade_id'],
                  email: context.basicInfo.values.email.trim(),
                }),
                onDone: {
                  target: '#session.signedIn.info',
                  actions: [
                    assign({
                      session: ({ context, event }) => ({
                        ...(context.session as ExamineeSession),
                        examinee_name: event.output.examinee.examinee_name,
                        grade_id: event.output.examinee.grade_id,
                        email: event.output.examinee.email,
                      }),
                    }),
                    {
                      type: 'persistChange',
                      params: ({ event }) => ({
                        change: {
                          examinee_name: event.output.examinee.examinee_name,
                          grade_id: event.output.examinee.grade_id,
                          email: event.output.examinee.email,
                        },
                      }),
                    },
                  ],
                },
                onError: [
                  ...endSessionOnRefusal,
                  {
                    target: 'confirming',
                    actions: assign({ basicInfo: ({ context, event }) => ({ ...context.basicInfo, failure: visibleFailure(event.error) }) }),
                  },
                ],
              },
            },
          },
        },
        info: {
          meta: { path: '/examinee-info', screen: 'examinee-info' },
          on: { 'basicInfo.acknowledged': 'testingMenu' },
        },
        testingMenu: {
          id: 'sessionTestingMenu',
          meta: { path: '/testing-menu', screen: 'testing-menu' },
          // Back from a payment or results screen returns here (the menu is loaded again).
          route: {
            guard: or([
              stateIn({ signedIn: 'payExamFee' }),
              stateIn({ signedIn: 'shortResult' }),
              stateIn({ signedIn: 'payExamResult' }),
              stateIn({ signedIn: 'purchasedResult' }),
              stateIn({ signedIn: 'scoreReport' }),
            ]),
          },
          // What the results screens held belongs to them: the menu starts from the server's word.
          entry: assign({ results: emptyResults }),
          initial: 'loading',
          states: {
            loading: {
              tags: ['busy'],
              invoke: {
                id: 'loadTestingMenu',
                src: 'loadTestingMenu',
                onDone: { target: 'ready', actions: assign({ menu: ({ event }) => event.output, failure: null }) },
                onError: [
                  ...endSessionOnRefusal,
                  { target: 'failed', actions: assign({ failure: ({ event }) => visibleFailure(event.error) }) },
                ],
              },
            },
            failed: { on: { 'retry.requested': 'loading' } },
            ready: {
              on: {
                'fee.payRequested': { guard: 'mustPayFee', target: '#session.signedIn.payExamFee' },
                'results.viewRequested': {
                  guard: 'isResultReleased',
                  target: '#session.signedIn.shortResult',
                  actions: assign({ results: ({ context }) => ({ ...emptyResults, id: context.menu?.exam.schedule_history_id ?? null }) }),
                },
                'test.chosen': {
                  guard: 'canTakeTest',
                  target: '#session.signedIn.examFlow',
                  actions: [
                    assign({
                      session: ({ context }) => ({
                        ...(context.session as ExamineeSession),
                        schedule_history_id: context.menu?.exam.schedule_history_id ?? null,
                      }),
                    }),
                    {
                      type: 'persistChange',
                      params: ({ context }) => ({ change: { schedule_history_id: context.session?.schedule_history_id ?? null } }),
                    },
                  ],
                },
              },
            },
          },
        },
        // The exam fee (my-page and foreign-payment users pay before they take the test).
        payExamFee: {
          meta: { path: '/pay-exam-fee', screen: 'pay-exam-fee' },
          invoke: {
            id: 'payment',
            src: 'payment',
            input: ({ context }) => {
              const id = context.paymentReturn?.scheduleHistoryId ?? context.menu?.exam.schedule_history_id ?? 0;
              return {
                scheduleHistoryId: id,
                purpose: 'exam_fee' as const,
                returnUrl: returnUrlOf(context.appOrigin, 'exam_fee', id),
                returning: context.paymentReturn,
              };
            },
          },
          exit: assign({ paymentReturn: null }),
          on: { ...toFeePayment, 'payment.continued': 'testingMenu', 'menu.requested': 'testingMenu' },
        },
        // Seed section 2: short-result, then the result sheet and certificate.
        shortResult: {
          meta: { path: '/short-result', screen: 'short-result' },
          initial: 'loading',
          on: { 'menu.requested': 'testingMenu' },
          states: {
            loading: {
              tags: ['busy'],
              invoke: {
                id: 'loadShortResult',
                src: 'loadShortResult',
                input: ({ context }) => ({ id: context.results.id ?? 0 }),
                onDone: {
                  target: 'ready',
                  actions: assign({
                    results: ({ context, event }) => ({ ...context.results, short: event.output.result, owned: event.output.owned, failure: null }),
                  }),
                },
                onError: [
                  ...endSessionOnRefusal,
                  { target: 'failed', actions: 'keepResultsFailure' },
                ],
              },
            },
            failed: { on: { 'retry.requested': 'loading' } },
            ready: {
              on: {
                'resultItems.buyRequested': '#session.signedIn.payExamResult',
                'report.openRequested': { guard: 'ownsResultSheet', target: '#session.signedIn.scoreReport' },
              },
            },
          },
        },
        payExamResult: {
          meta: { path: '/pay-exam-result', screen: 'pay-exam-result' },
          invoke: {
            id: 'payment',
            src: 'payment',
            input: ({ context }) => {
              const id = context.results.id ?? 0;
              return {
                scheduleHistoryId: id,
                purpose: 'result_fee' as const,
                returnUrl: returnUrlOf(context.appOrigin, 'result_fee', id),
                returning: context.paymentReturn,
              };
            },
          },
          exit: assign({ paymentReturn: null }),
          on: { ...toPayment, 'payment.continued': 'purchasedResult', 'menu.requested': 'shortResult' },
        },
        purchasedResult: {
          meta: { path: '/purchased-result', screen: 'purchased-result' },
          initial: 'loading',
          on: { 'menu.requested': 'testingMenu' },
          states: {
            loading: {
              tags: ['busy'],
              invoke: {
                id: 'loadShortResult',
                src: 'loadShortResult',
                input: ({ context }) => ({ id: context.results.id ?? 0 }),
                onDone: {
                  target: 'ready',
                  actions: assign({
                    results: ({ context, event }) => ({ ...context.results, short: event.output.result, owned: event.output.owned, failure: null }),
                  }),
                },
                onError: [
                  ...endSessionOnRefusal,
                  { target: 'failed', actions: 'keepResultsFailure' },
                ],
              },
            },
            failed: { on: { 'retry.requested': 'loading' } },
            ready: {
              initial: 'idle',
              on: { 'report.openRequested': { guard: 'ownsResultSheet', target: '#session.signedIn.scoreReport' } },
              states: {
                idle: { on: { 'certificate.downloadRequested': { guard: 'canDownloadCertificate', target: 'downloading' } } },
                downloading: {
                  tags: ['busy'],
                  entry: { type: 'markDownloading', params: { document: 'certificate' } },
                  exit: 'clearDownloading',
                  invoke: {
                    id: 'downloadDocument',
                    src: 'downloadDocument',
                    input: ({ context }) => ({ id: context.results.id ?? 0, document: 'certificate' as const }),
                    onDone: 'idle',
                    onError: [
                      ...endSessionOnRefusal,
                      { target: 'idle', actions: 'keepResultsFailure' },
                    ],
                  },
                },
              },
            },
          },
        },
        scoreReport: {
          meta: { path: '/score-report/$id', screen: 'score-report' },
          initial: 'loading',
          on: { 'menu.requested': 'testingMenu' },
          states: {
            loading: {
              tags: ['busy'],
              invoke: {
                id: 'loadScoreReport',
                src: 'loadScoreReport',
                input: ({ context }) => ({ id: context.results.id ?? 0 }),
                onDone: { target: 'ready', actions: assign({ results: ({ context, event }) => ({ ...context.results, report: event.output, failure: null }) }) },
                onError: [
                  ...endSessionOnRefusal,
                  { target: 'failed', actions: 'keepResultsFailure' },
                ],
              },
            },
            failed: { on: { 'retry.requested': 'loading' } },
            ready: {
              initial: 'idle',
              on: { 'report.printRequested': { actions: 'printPage' } },
              states: {
                idle: {
                  on: {
                    'report.pdfRequested': 'downloadingReport',
                    'certificate.downloadRequested': { guard: 'canDownloadCertificate', target: 'downloadingCertificate' },
                  },
                },
                downloadingReport: {
                  tags: ['busy'],
                  entry: { type: 'markDownloading', params: { document: 'report' } },
                  exit: 'clearDownloading',
                  invoke: {
                    id: 'downloadDocument',
                    src: 'downloadDocument',
                    input: ({ context }) => ({ id: context.results.id ?? 0, document: 'report' as const }),
                    onDone: 'idle',
                    onError: [
                      ...endSessionOnRefusal,
                      { target: 'idle', actions: 'keepResultsFailure' },
                    ],
                  },
                },
                downloadingCertificate: {
                  tags: ['busy'],
                  entry: { type: 'markDownloading', params: { document: 'certificate' } },
                  exit: 'clearDownloading',
                  invoke: {
                    id: 'downloadDocument',
                    src: 'downloadDocument',
                    input: ({ context }) => ({ id: context.results.id ?? 0, document: 'certificate' as const }),
                    onDone: 'idle',
                    onError: [
                      ...endSessionOnRefusal,
                      { target: 'idle', actions: 'keepResultsFailure' },
                    ],
                  },
                },
              },
            },
          },
        },
        examList: {
          type: 'parallel',
          meta: { screen: 'exam-list' },
          states: {
            page: {
              initial: 'deciding',
              states: {
                deciding: { always: [{ guard: 'isStepMode', target: 'stepMode' }, { target: 'plain' }] },
                plain: { meta: { path: '/exam' } },
                stepMode: { meta: { path: '/exam-step-mode' } },
              },
            },
            list: {
              initial: 'loading',
              states: {
                loading: {
                  tags: ['busy'],
                  invoke: {
                    id: 'loadExamList',
                    src: 'loadExamList',
                    onDone: { target: 'ready', actions: assign({ exams: ({ event }) => event.output.exams, failure: null }) },
                    onError: [
                      ...endSessionOnRefusal,
                      { target: 'failed', actions: assign({ failure: ({ event }) => visibleFailure(event.error) }) },
                    ],
                  },
                },
                failed: { on: { 'retry.requested': 'loading' } },
                ready: {
                  on: {
                    'exam.chosen': {
                      guard: 'isChoosableExam',
                      target: '#session.signedIn.examFlow',
                      actions: [
                        assign({
                          session: ({ context, event }) => ({
                            ...(context.session as ExamineeSession),
                            schedule_history_id: event.scheduleHistoryId,
                          }),
                        }),
                        { type: 'persistChange', params: ({ event }) => ({ change: { schedule_history_id: event.scheduleHistoryId } }) },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
        /** The exam machine shows the screens from here on (the kiosk starts it). */
        examFlow: {
          entry: 'notifySignedIn',
        },
      },
    },
    signingOut: {
      tags: ['busy'],
      // The server ends the token first, so POST /logout carries it (issue 10, D). The token is
      // noted for revocation before the call: a page closed mid-call still gets it revoked at
      // the next boot (machines/session/session.revocation.ts).
      entry: [
        assign({ exit: ({ context }) => context.exit ?? exitOf(context, null) }),
        { type: 'holdRevocation', params: ({ context }) => ({ token: tokenOf(context) }) },
      ],
      invoke: {
        id: 'endServerSession',
        src: 'endServerSession',
        input: ({ context }) => ({ token: tokenOf(context) }),
        // Whatever the server says, storage is wiped now: the next pupil finds nothing.
        onDone: {
          target: 'leaving',
          actions: ['wipeSession', { type: 'dropRevocation', params: ({ context }) => ({ token: tokenOf(context) }) }],
        },
        onError: [
          // 401: the token was revoked or had expired already; nothing is left to revoke.
          {
            guard: 'isUnauthorized',
            target: 'leaving',
            actions: ['wipeSession', { type: 'dropRevocation', params: ({ context }) => ({ token: tokenOf(context) }) }],
          },
          // No answer, maintenance or a server failure: the token waits, sent when the network returns.
          { target: 'leaving', actions: 'wipeSession' },
        ],
      },
      exit: [
        assign({
          session: null,
          loginError: null,
          passwordError: null,
          menu: null,
          exams: [],
          failure: null,
          basicInfo: emptyBasicInfo,
          results: emptyResults,
        }),
        'notifySignedOut',
      ],
    },
    // Seed section 4: the login page of the login type, or the partner's site.
    leaving: {
      always: [
        { guard: 'isPartnerExit', target: 'signedOut.leavingForPartner' },
        { guard: 'isCodeExit', target: 'signedOut.loginCode', actions: assign({ search: ({ context }) => exitSearch(context), exit: null }) },
        { target: 'signedOut.login', actions: assign({ search: ({ context }) => exitSearch(context, true), exit: null }) },
      ],
    },
  },
});

/**
 * The token being signed out: the exit's, which outlives the session's removal (signingOut's
 * exit actions run before the actions of the transition that leaves it).
 */
function tokenOf(context: SessionContext): string {
  return context.exit?.token ?? context.session?.token ?? '';
}

function exitOf(context: SessionContext, errorCode: SessionContext['failure']) {
  return {
    loginType: context.session?.login_type ?? 0,
    orgCode: context.session?.org_code ?? '',
    errorCode,
    token: context.session?.token ?? '',
  };
}

/** logout=1, or school and error_code when the session ended with an error. */
function exitSearch(context: SessionContext, withSchool = false): Record<string, string> {
  const school: Record<string, string> = withSchool && context.exit?.orgCode ? { school: context.exit.orgCode } : {};
  if (context.exit?.errorCode) return { ...school, error_code: context.exit.errorCode };
  return { ...school, logout: '1' };
}
