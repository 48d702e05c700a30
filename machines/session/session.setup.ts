/**
 * The session machine's vocabulary, by name: its types, the actors the edge provides
 * (session.actors.ts gives the real ones; these stand-ins only say what each call is), the
 * actions and the guards (questions about the context or an event, decided by session.rules.ts).
 * session.machine.ts and its ways in (session.signed-out.ts) are built from this setup, so every
 * name they use is checked against it.
 */
import { assign, fromPromise, sendParent, sendTo, setup } from 'xstate';
import type { ChoosePageStatus } from '../../contract/results.ts';
import {
  normalizeLoginCode,
  type ClientConfig,
  type ExamineeSession,
  type ExamList,
  type KenyaLinkResponse,
  type LoginResponse,
  type MeResponse,
  type SaveExamineeInfoRequest,
  type SaveExamineeInfoResponse,
} from '../../contract/session.ts';
import { paymentPaths, paymentReturnOf } from '../payment/payment.return.ts';
import { resultsRouteTable } from '../results/results.routes.ts';
import type { ResultsOutput } from '../results/results.types.ts';
import { matchesPath } from '../kiosk/routes.ts';
import { errorOf, failureOfEvent } from '../shared/ports.ts';
import {
  allEntryPaths,
  appEntryOrg,
  entryPaths,
  exitOf,
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
  isProtectedPath,
  protectedRouteTargets,
  validateBasicInfo,
} from './session.rules.ts';
import { lazyPayment, lazyResults } from './session.lazy.ts';
import { feeOf } from './session.selectors.ts';
import type { Credentials, EntryFacts, LoginPlace, SessionContext, SessionEvent, SessionInput, SessionParentEvent } from './session.types.ts';

/**
 * The paths of the results' screens (machines/results: short result, payment, purchased result,
 * score report), written out: the results machine loads on first use (session.lazy.ts).
 */
const resultsPaths = [...resultsRouteTable.paths];

/** The partner's logout address for a login type, from the client config, if it has one. */
export function partnerLogoutUrlOf(config: ClientConfig, loginType: number | undefined): string | undefined {
  return new Map(Object.entries(config.partner_logout_urls)).get(String(loginType));
}

const provided = (name: string) => () => {
  throw new Error(`${name} is provided by the edge`);
};

export const sessionSetup = setup({
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
    /**
     * A checkout of the exam fee (the payment machine, provided with its port by the edge).
     * Loaded when first invoked, if not before (session.lazy.ts), as are the results.
     */
    payment: lazyPayment(([module]) => module.paymentMachine),
    /** The results screens of one sitting (the results machine, provided with its calls by the edge). */
    results: lazyResults(([module]) => module.resultsMachine),
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
    /** Why the session ends: maintenance (the outside-test-hours message) or a token no longer good (seed section 8). */
    endForMaintenance: assign({ exit: ({ context }) => exitOf(context, 'DURING_MAINTENANCE') }),
    endForRefusedToken: assign({ exit: ({ context }) => exitOf(context, 'GENERIC_ERROR') }),
    /** The results ended with a 401 (seed section 8): the session ends with its reason. */
    endForResultsRefusal: assign(({ context }, output: ResultsOutput) => ({ exit: exitOf(context, output.refusal) })),
    notifySignedIn: sendParent(({ context }): SessionParentEvent => ({
      type: 'session.signedIn',
      session: context.session as ExamineeSession,
    })),
    notifySignedOut: sendParent((): SessionParentEvent => ({ type: 'session.signedOut' })),
    /** The browser moved among the results' screens (Back, Forward): the results judge it. */
    forwardToResults: sendTo('results', ({ event }) => event),
    clearLoginError: assign({ loginError: null }),
    /** The provider's redirect back: the sitting it names is the one the payment and results screens show. */
    /** A reload on a my-page screen past the menu: its path, until that screen is open again. */
    keepReloadedAt: assign({ reloadedAt: ({ event }) => (event.type === 'location.unmatched' ? event.path : null) }),
    forgetReload: assign({ reloadedAt: null }),
    keepPaymentReturn: assign({
      paymentReturn: ({ event }) => paymentReturnOf(event.type === 'location.unmatched' ? event.search : undefined),
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
    isProtectedPath: ({ event }) => event.type === 'location.unmatched' && isProtectedPath(event.path),
    isRouteToProtectedScreen: ({ event }) => event.type === 'xstate.route' && protectedRouteTargets.includes(event.to),
    isFeePaymentReturn: ({ event }) =>
      event.type === 'location.unmatched' && event.path === paymentPaths.exam_fee && paymentReturnOf(event.search) !== null,
    /** A results screen's path, not the provider's redirect back (which opens the results afresh). */
    isResultsLocation: ({ event }) =>
      event.type === 'location.unmatched' &&
      paymentReturnOf(event.search) === null &&
      resultsPaths.some((pattern) => matchesPath(pattern, event.path)),
    /** The fee's payment or a results screen, not the provider's redirect back (a reload on it). */
    isMyPageScreenLocation: ({ event }) =>
      event.type === 'location.unmatched' &&
      paymentReturnOf(event.search) === null &&
      (event.path === paymentPaths.exam_fee || resultsPaths.some((pattern) => matchesPath(pattern, event.path))),
    wasReloadedOnFee: ({ context }) => context.reloadedAt === paymentPaths.exam_fee,
    wasReloadedOnResults: ({ context }) =>
      context.reloadedAt !== null && resultsPaths.some((pattern) => matchesPath(pattern, context.reloadedAt as string)),
    isResultPaymentReturn: ({ event }) =>
      event.type === 'location.unmatched' && event.path === paymentPaths.result_fee && paymentReturnOf(event.search) !== null,
    hasEntrySchool: ({ context }) => Boolean(context.entry?.schoolId),
    isInvalidPlace: ({ event }) => {
      const code = failureOfEvent({ event });
      return code === 'INVALID_SCHEDULE' || code === 'NOT_FOUND' || code === 'VALIDATION_ERROR';
    },
    areCredentialsIncomplete: ({ event }) =>
      event.type === 'login.submitted' && (event.login_id.trim() === '' || event.password === ''),
    hasKenyaToken: (_, link: KenyaLinkResponse) => Boolean(link.access_token),
    isMyPageUser: ({ context }) => isMyPageUser(context.session as ExamineeSession),
    isBasicInfoMissing: ({ context }) => isBasicInfoMissing(context.session as ExamineeSession),
    landsOnExamList: ({ context }) => landsOnExamList(context.session as ExamineeSession),
    isStepMode: ({ context }) => Boolean(context.session?.enable_mode_step),
    isBasicInfoInvalid: ({ context }) => Object.keys(validateBasicInfo(context.basicInfo.values)).length > 0,
    canTakeTest: ({ context }) => Boolean(context.menu?.exam.can_take && context.menu.exam.schedule_history_id !== null),
    // The menu's own fee rule (session.selectors feeOf): unpaid or pending, never in group mode.
    mustPayFee: ({ context }) => {
      const fee = context.menu ? feeOf(context.menu.exam_fee) : 'not_required';
      return (fee === 'to_pay' || fee === 'pending') && context.menu?.exam.schedule_history_id != null;
    },
    // Released and not past the two-year window: a result that can be opened.
    isResultReleased: ({ context }) =>
      Boolean(context.menu?.result.released && !context.menu.result.expired && context.menu.exam.schedule_history_id !== null),
    isResultsRefusal: (_, output: ResultsOutput | undefined) => output?.refusal != null,
    isChoosableExam: ({ context, event }) =>
      event.type === 'exam.chosen' &&
      context.exams.some((row) => row.schedule_history_id === event.scheduleHistoryId && !row.locked),
    isMaintenance: ({ event }) => isMaintenanceFailure(errorOf(event)),
    isUnauthorized: ({ event }) => isUnauthorizedFailure(errorOf(event)),
    isPartnerExit: ({ context }) => context.exit !== null && partnerLoginTypes.has(context.exit.loginType),
    isCodeExit: ({ context }) => context.exit?.loginType === 0,
    hasPartnerLogoutUrl: ({ context }, config: ClientConfig) =>
      Boolean(context.exit && partnerLogoutUrlOf(config, context.exit.loginType)),
  },
});

/**
 * Every call's first two error branches (seed section 8): a 401 in maintenance ends the session
 * with the outside-test-hours message, any other 401 with the generic error.
 */
export const endSessionOnRefusal = [
  { guard: 'isMaintenance', target: '#session.signingOut', actions: 'endForMaintenance' },
  { guard: 'isUnauthorized', target: '#session.signingOut', actions: 'endForRefusedToken' },
] as const;
