/**
 * The session's rules as pure functions over facts: the entry routes' queries (seed section 2,
 * rules 1-4, validated with valibot), the public and protected paths (rules 5 and 7), the
 * landing rules ("Next screen after login"), the basic information form's validation
 * (section 5), which failures a signed-in call ends the session with (section 8), the stored
 * session built from a login, and who is leaving at logout and where to (section 4).
 */
import * as v from 'valibot';
import { LoginType } from '../../contract/enums.ts';
import type { ErrorCode } from '../../contract/errors.ts';
import {
  AppEntryQuerySchema,
  OauthQuerySchema,
  pageQuery,
  PartnerEntryQuerySchema,
  SsoErrorCodeSchema,
  type ExamineeSession,
  type LoginResponse,
  type SsoErrorCode,
} from '../../contract/session.ts';
import { matchesPath } from '../kiosk/routes.ts';
import { ApiFailure, type FailureCode } from '../shared/ports.ts';
import type { BasicInfoErrors, BasicInfoValues, EntryFacts, ExitFacts, SessionContext } from './session.types.ts';

/** Entry routes with no screen of their own (seed section 2). */
export const entryPaths = {
  oauth: '/oauth',
  kaigen: '/oauth-kaigen',
  kaigenPhilippine: '/oauth-kaigen-philippine',
  kenya: '/oauth-kenya',
  egypt: '/oauth-egypt',
  appEntry: '/app-entry',
} as const;
export const allEntryPaths: readonly string[] = Object.values(entryPaths);

/**
 * Rules 5 and 7 per route of the app (the machines' `meta.path`s). Rule 7: every screen that shows
 * or acts on the pupil's own stored login needs one; typed without it, the app shows /403 with the
 * header (the "not logged in" view). That is every signed-in screen of the session (basic
 * information, testing menu, exam fee, exam list), of the results (short result, result payment,
 * purchased result, score report), of the exam (login-confirm, tutorial, start, the exam itself),
 * and the print route when its URL brings no token of its own.
 */
export const protectedPaths: readonly string[] = [
  '/examinee-input-info',
  '/examinee-info',
  '/testing-menu',
  '/pay-exam-fee',
  '/exam',
  '/exam-step-mode',
  '/short-result',
  '/pay-exam-result',
  '/purchased-result',
  '/score-report/$id',
  '/login-confirm',
  '/exam-tutorial',
  '/exam-start',
  '/start',
  '/score-report-embed/$id',
];

/**
 * Rule 5: the routes that are neither public nor a screen of a stored login: the app's root and
 * the end screen (which the seed names in rule 5 itself; it stays only for the kept error codes).
 * Without a token they log out and go to the login page.
 */
export const loginRedirectPaths: readonly string[] = ['/', '/exam-end'];

/**
 * Rule 7 for the protected screens a URL routes to directly (routable states, `route: {}`): the
 * kiosk sends `xstate.route` to their id instead of `location.unmatched`, refused while signed out.
 */
export const protectedRouteTargets: readonly string[] = ['#sessionTestingMenu'];

/** Rule 7: does this path need a stored login? */
export function isProtectedPath(path: string): boolean {
  return protectedPaths.some((pattern) => matchesPath(pattern, path));
}

/** Rule 5's exception: /exam-end stays when the stored error code is one of these. */
export const keptExamEndCodes: ReadonlySet<string> = new Set(['INCORRECT_DEVICE', 'ER_SCHEDULE_HISTORY_RETAKE']);

/** The login page's query: its school or schedule, and how the last session ended. */
export const LoginPageQuerySchema = pageQuery('org_code', 'school', 'schedule_code', 'login_type', 'venue_id', 'from', 'logout', 'error_code');
export type LoginPageQuery = v.InferOutput<typeof LoginPageQuerySchema>;

/** Only the keys a schema knows, as strings; an unparsable query is an empty one. */
export function queryOf<S extends v.ObjectSchema<v.ObjectEntries, undefined>>(
  schema: S,
  search: Record<string, string> | undefined,
): v.InferOutput<S> {
  const parsed = v.safeParse(schema, search ?? {});
  return (parsed.success ? parsed.output : {}) as v.InferOutput<S>;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';
const isOn = (value: string | undefined) => value === '1' || value === 'true';

export function ssoCodeOf(value: string | null | undefined): SsoErrorCode {
  const parsed = v.safeParse(SsoErrorCodeSchema, value);
  return parsed.success ? parsed.output : 'unknown';
}

function loginTypeOf(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return present(value) && Number.isInteger(n) && n >= 0 && n <= 7 ? n : fallback;
}

/** Rule 1: an /oauth that reports an error. */
export function oauthError(search: Record<string, string> | undefined): { code: SsoErrorCode; schoolId: string | null } | null {
  const q = queryOf(OauthQuerySchema, search);
  if (!present(q.error) && !present(q.errorCode)) return null;
  return { code: ssoCodeOf(q.errorCode ?? q.error), schoolId: present(q.schoolId) ? q.schoolId : null };
}

/** Rule 1: what a successful /oauth stores; null when token (and none stored) or school id is missing. */
export function oauthEntry(search: Record<string, string> | undefined, storedToken: string | null): EntryFacts | null {
  const q = queryOf(OauthQuerySchema, search);
  const token = present(q.accessToken) ? q.accessToken : storedToken;
  if (!token || !present(q.schoolId)) return null;
  return { token, schoolId: q.schoolId, loginType: loginTypeOf(q.loginType, LoginType.SCHOOL_CBT), stepMode: isOn(q.orgStepMode) };
}

/** Rules 2 and 3: what a partner entry brings; null without a token. */
export function partnerEntry(path: string, search: Record<string, string> | undefined): EntryFacts | null {
  const q = queryOf(PartnerEntryQuerySchema, search);
  if (!present(q.token)) return null;
  const fixed =
    path === entryPaths.egypt
      ? LoginType.EGYPT
      : path === entryPaths.kenya
        ? LoginType.KENYA
        : path === entryPaths.kaigenPhilippine
          ? LoginType.PHILIPPINE
          : LoginType.MUMBAI;
  return {
    token: q.token,
    schoolId: q.orgCode ?? '',
    // Rule 3: Egypt is always login type 7; the others take theirs from the query.
    loginType: path === entryPaths.egypt ? fixed : loginTypeOf(q.loginType, fixed),
    stepMode: isOn(q.orgStepMode),
  };
}

/** Rule 4: the organisation code of /app-entry, or null. */
export function appEntryOrg(search: Record<string, string> | undefined): string | null {
  const q = queryOf(AppEntryQuerySchema, search);
  return present(q.organization_code) ? q.organization_code : null;
}

/** "Next screen after login": my-page and foreign-payment users see their basic info first. */
export function isMyPageUser(session: ExamineeSession): boolean {
  return session.is_my_page_login || session.foreign_payment_method;
}

export function isBasicInfoMissing(session: ExamineeSession): boolean {
  return session.grade_id === null || session.email === null;
}

/** Examinee logins and single sign-on land on the exam list; code and ID logins on login-confirm. */
export function landsOnExamList(session: ExamineeSession): boolean {
  return session.schedule_history_id === null || (session.login_type !== LoginType.CODE && session.login_type !== LoginType.ID);
}

/** Partner login types leave for their own sites at logout (seed section 4). */
export const partnerLoginTypes: ReadonlySet<number> = new Set([
  LoginType.MUMBAI,
  LoginType.PHILIPPINE,
  LoginType.KENYA,
  LoginType.EGYPT,
]);

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Seed section 5: every field required; the email must be valid. */
export function validateBasicInfo(values: BasicInfoValues): BasicInfoErrors {
  const errors: BasicInfoErrors = {};
  if (values.examinee_name.trim() === '') errors.examinee_name = 'required';
  if (values.grade_id === null) errors.grade_id = 'required';
  if (values.email.trim() === '') errors.email = 'required';
  else if (!emailPattern.test(values.email.trim())) errors.email = 'invalid';
  return errors;
}

/** 401 DURING_MAINTENANCE: the outside-test-hours message and the maintenance handler. */
export function isMaintenanceFailure(error: unknown): boolean {
  return error instanceof ApiFailure && error.status === 401 && error.code === 'DURING_MAINTENANCE';
}

/** Any other 401 on a signed-in call: generic error and logout. */
export function isUnauthorizedFailure(error: unknown): boolean {
  return error instanceof ApiFailure && error.status === 401 && error.code !== 'DURING_MAINTENANCE';
}

/** What the screen says about a failure: 400 is the generic error (seed section 8). */
export function visibleFailure(error: unknown): FailureCode {
  if (error instanceof ApiFailure) return error.status === 400 ? 'GENERIC_ERROR' : error.code;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code as FailureCode;
  return 'GENERIC_ERROR';
}

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

/** The login page's query kept in the URL (only the keys it knows). */
export function loginSearch(search: Record<string, string> | undefined): Record<string, string> {
  const q = queryOf(LoginPageQuerySchema, search);
  return Object.fromEntries(Object.entries(q).filter(([, value]) => value !== undefined)) as Record<string, string>;
}

/** A failure the last session ended with, shown on the login page (error_code in its query). */
export function failureFromSearch(search: Record<string, string>) {
  return search.error_code ? { kind: 'failure' as const, code: search.error_code as ErrorCode } : null;
}

/**
 * The token being signed out: the exit's, which outlives the session's removal (signingOut's
 * exit actions run before the actions of the transition that leaves it).
 */
export function tokenOf(context: SessionContext): string {
  return context.exit?.token ?? context.session?.token ?? '';
}

/** Who is leaving, kept through the wipe: login type, school, why, and the token to revoke. */
export function exitOf(context: SessionContext, errorCode: SessionContext['failure']): ExitFacts {
  return {
    loginType: context.session?.login_type ?? 0,
    orgCode: context.session?.org_code ?? '',
    errorCode,
    token: context.session?.token ?? '',
  };
}

/** logout=1, or school and error_code when the session ended with an error. */
export function exitSearch(context: SessionContext, withSchool = false): Record<string, string> {
  const school: Record<string, string> = withSchool && context.exit?.orgCode ? { school: context.exit.orgCode } : {};
  if (context.exit?.errorCode) return { ...school, error_code: context.exit.errorCode };
  return { ...school, logout: '1' };
}
