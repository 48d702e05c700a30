/**
 * The real side effects of the session machine, built from the edge's ports: the login,
 * entry, menu and logout calls, and the storage writes; its children, the exam fee's payment
 * and the results (machines/results), with theirs (both load on demand: session.lazy.ts).
 * Leaving the app for a partner's site is the edge's (`leaveApp`, window.location in the browser).
 */
import { fromPromise } from 'xstate';
import { LoginType } from '../../contract/enums.ts';
import { type LoginResponse } from '../../contract/session.ts';
import { ApiFailure, type ApiPort, type StoragePort } from '../shared/ports.ts';
import {
  clearExaminee,
  dropRevocation,
  holdRevocation,
  updateSession,
  writeEntry,
  writeSchoolId,
  writeSession,
} from '../shared/storage.ts';
import { LoginPageQuerySchema, queryOf } from './session.rules.ts';
import type { Credentials, EntryFacts, LoginPlace } from './session.types.ts';
import type { PaymentPort } from '../payment/payment.types.ts';
import { lazyPayment, lazyResults } from './session.lazy.ts';
import type { ExamineeSession } from '../../contract/session.ts';
import type { ExamCachePort } from '../exam/exam.types.ts';

const positiveInt = (value: string | undefined) => (value && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : undefined);

/**
 * The login page's school or schedule (seed section 2, /login): a schedule code asks
 * GET /schedule (with login type 1 also venue_id and org_code), the app's entry asks
 * GET /app-schedule, an organisation code (org_code or school) GET /organization. Nothing to
 * ask with: INVALID_SCHEDULE ("venue, organization or schedule URL invalid").
 */
/** Where the edge's single sign-on starts for a school (the API's /sso/oidc/start). */
export type SsoStartUrl = (orgCode: string) => string;

export async function loadLoginPlace(api: ApiPort, search: Record<string, string>, ssoStartUrl?: SsoStartUrl): Promise<LoginPlace> {
  const q = queryOf(LoginPageQuerySchema, search);
  const orgCode = q.org_code || q.school;
  if (q.schedule_code) {
    const loginType = Number(q.login_type ?? LoginType.ID);
    const schedule = await api.schedule({
      schedule_code: q.schedule_code,
      login_type: Number.isInteger(loginType) ? loginType : LoginType.ID,
      ...(loginType === LoginType.ID && positiveInt(q.venue_id) ? { venue_id: positiveInt(q.venue_id) } : {}),
      ...(loginType === LoginType.ID && orgCode ? { org_code: orgCode } : {}),
    });
    return {
      organizationName: schedule.organization.name,
      scheduleName: schedule.name,
      venueName: schedule.venue?.name ?? null,
      kind: 'id',
      orgCode: schedule.organization.code,
      scheduleCode: schedule.schedule_code,
      venueId: schedule.venue?.id ?? null,
      ssoUrl: null,
    };
  }
  if (q.from === 'app_entry' && orgCode) {
    const entry = await api.appSchedule(orgCode);
    return {
      organizationName: entry.organization_name,
      scheduleName: null,
      venueName: null,
      kind: 'id',
      orgCode: entry.org_code,
      scheduleCode: entry.schedule_code,
      venueId: null,
      ssoUrl: null,
    };
  }
  if (orgCode) {
    const org = await api.organization(orgCode);
    // Login method 2: the school signs its pupils in itself; offer that only where it is set up.
    const ssoUrl =
      org.login_method === 2 && ssoStartUrl && (await api.clientConfig()).oidc_enabled ? ssoStartUrl(org.code) : null;
    return {
      organizationName: org.name,
      scheduleName: null,
      venueName: null,
      // Login method 3: the organisation's pupils log in with examinee accounts (type 5).
      kind: org.login_method === 3 ? 'examinee' : org.login_method === 2 ? 'sso' : 'id',
      orgCode: org.code,
      scheduleCode: null,
      venueId: null,
      ssoUrl,
    };
  }
  throw new ApiFailure('INVALID_SCHEDULE', 404);
}

/** POST /login-examinee on an examinee-login page, else POST /login with type 1. */
export function loginWithPassword(api: ApiPort, place: LoginPlace, credentials: Credentials): Promise<LoginResponse> {
  if (place.kind === 'examinee') return api.loginExaminee({ ...credentials, org_code: place.orgCode });
  return api.loginWithId({
    login_type: LoginType.ID,
    ...credentials,
    org_code: place.orgCode,
    ...(place.scheduleCode ? { schedule_code: place.scheduleCode } : {}),
    ...(place.venueId ? { venue_id: place.venueId } : {}),
  });
}

export function sessionImplementations(deps: {
  api: ApiPort & Partial<PaymentPort>;
  storage: StoragePort;
  leaveApp?: (url: string) => void;
  ssoStartUrl?: SsoStartUrl;
  /** Saves a downloaded document (the browser: a file download). */
  saveFile?: (file: Blob, name: string) => void;
  /** Opens the print dialog (the browser: window.print). */
  print?: () => void;
  /** The running exam kept for an offline reload (machines/exam): wiped with the rest of the pupil's data. */
  examCache?: Pick<ExamCachePort, 'clear'>;
}) {
  return {
    actors: {
      loginWithCode: fromPromise<LoginResponse, { code: string }>(({ input }) =>
        deps.api.login({ login_type: LoginType.CODE, login_code: input.code }),
      ),
      loadLoginPlace: fromPromise<LoginPlace, { search: Record<string, string> }>(({ input }) => loadLoginPlace(deps.api, input.search, deps.ssoStartUrl)),
      loginWithPassword: fromPromise<LoginResponse, { place: LoginPlace; credentials: Credentials }>(({ input }) =>
        loginWithPassword(deps.api, input.place, input.credentials),
      ),
      exchangeKenyaToken: fromPromise(({ input }: { input: { token: string } }) => deps.api.kenyaLoginLink(input.token)),
      identifyToken: fromPromise<Awaited<ReturnType<ApiPort['me']>>, void>(() => deps.api.me()),
      saveBasicInfo: fromPromise(({ input }: { input: Parameters<ApiPort['saveExamineeInfo']>[0] }) => deps.api.saveExamineeInfo(input)),
      loadTestingMenu: fromPromise<Awaited<ReturnType<ApiPort['chooseStatus']>>, void>(() => deps.api.chooseStatus()),
      loadExamList: fromPromise<Awaited<ReturnType<ApiPort['exams']>>, void>(() => deps.api.exams()),
      loadClientConfig: fromPromise<Awaited<ReturnType<ApiPort['clientConfig']>>, void>(() => deps.api.clientConfig()),
      endServerSession: fromPromise<void, { token: string }>(({ input }) => deps.api.logout(input.token)),
      // Loaded on demand with their real calls (session.lazy.ts).
      payment: lazyPayment(([machine, actors]) => machine.paymentMachine.provide({ actors: actors.paymentActors(actors.paymentPortOf(deps.api)) })),
      results: lazyResults(([machine, actors]) => machine.resultsMachine.provide(actors.resultsImplementations(deps))),
    },
    actions: {
      persistSession: (_: unknown, params: { session: ExamineeSession }) => writeSession(deps.storage, params.session),
      wipeSession: () => {
        clearExaminee(deps.storage);
        void deps.examCache?.clear().catch(() => undefined);
      },
      holdRevocation: (_: unknown, params: { token: string }) => {
        if (params.token) holdRevocation(deps.storage, params.token);
      },
      dropRevocation: (_: unknown, params: { token: string }) => dropRevocation(deps.storage, params.token),
      persistChange: (_: unknown, params: { change: Partial<ExamineeSession> }) => updateSession(deps.storage, params.change),
      persistEntry: (_: unknown, params: { entry: EntryFacts }) => writeEntry(deps.storage, params.entry),
      persistSchoolId: (_: unknown, params: { schoolId: string | null }) => {
        if (params.schoolId) writeSchoolId(deps.storage, params.schoolId);
      },
      leaveApp: (_: unknown, params: { url: string }) => deps.leaveApp?.(params.url),
    },
  };
}
