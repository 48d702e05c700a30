/**
 * The session's rules stated outright (seed sections 2-5 and 8): the entry routes' queries
 * (rules 1-4), which paths need a stored login (rules 5 and 7), where a pupil lands, the basic
 * information form, which failures end a session and what the screen says, who leaves at
 * logout and to which login page; the menu's and exam list's states (session.selectors.ts);
 * the real calls and storage writes (session.actors.ts); and the session machine's ways in and
 * out with stand-in calls whose every input is written down.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, type AnyActorLogic } from 'xstate';
import type { ChoosePageStatus } from '../../contract/results.ts';
import type { ExamineeSession, ExamListItem } from '../../contract/session.ts';
import { loadLoginPlace, loginWithPassword, sessionImplementations } from '../../machines/session/session.actors.ts';
import { sessionMachine } from '../../machines/session/session.machine.ts';
import {
  allEntryPaths,
  appEntryOrg,
  exitOf,
  exitSearch,
  failureFromSearch,
  isBasicInfoMissing,
  isMaintenanceFailure,
  isMyPageUser,
  isProtectedPath,
  isUnauthorizedFailure,
  keptExamEndCodes,
  landsOnExamList,
  loginRedirectPaths,
  loginSearch,
  oauthEntry,
  oauthError,
  partnerEntry,
  partnerLoginTypes,
  protectedPaths,
  sessionFromLogin,
  ssoCodeOf,
  tokenOf,
  validateBasicInfo,
  visibleFailure,
} from '../../machines/session/session.rules.ts';
import { examRowsOf, feeOf, menuViewOf } from '../../machines/session/session.selectors.ts';
import type { SessionContext, SessionInput } from '../../machines/session/session.types.ts';
import { ApiFailure, type ApiPort } from '../../machines/shared/ports.ts';
import { readPendingRevocations, readSession, storageKeys } from '../../machines/shared/storage.ts';
import { createFakeApi, demoExaminee } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const serverTime = '2026-11-22T09:00:00.000Z';
const login = (change: Partial<typeof demoExaminee> = {}) => ({
  access_token: 'token-1',
  examinee: { ...demoExaminee, ...change },
  server_time: serverTime,
});
const stored = (change: Partial<ExamineeSession> = {}): ExamineeSession => ({ ...sessionFromLogin(login(), 'uuid-1'), ...change });
const contextWith = (session: ExamineeSession | null, exit: SessionContext['exit'] = null) => ({ session, exit }) as unknown as SessionContext;

describe('session rules: the entry routes (rules 1-4)', () => {
  it('names every entry route', () => {
    expect(allEntryPaths).toEqual(['/oauth', '/oauth-kaigen', '/oauth-kaigen-philippine', '/oauth-kenya', '/oauth-egypt', '/app-entry']);
  });

  it('rule 1: an error (or its code) with the school id; a blank one is no error; an unknown code is unknown', () => {
    expect(oauthError({ error: 'school_notfound', schoolId: 'ORG1' })).toEqual({ code: 'school_notfound', schoolId: 'ORG1' });
    expect(oauthError({ error: 'x', errorCode: 'disabled_org' })).toEqual({ code: 'disabled_org', schoolId: null });
    expect(oauthError({ errorCode: 'no_such_code', schoolId: ' ' })).toEqual({ code: 'unknown', schoolId: null });
    expect(oauthError({ error: ' ', errorCode: '' })).toBeNull();
    expect(oauthError({ accessToken: 't', schoolId: 'ORG1' })).toBeNull();
    expect(oauthError(undefined)).toBeNull();
    expect(ssoCodeOf(null)).toBe('unknown');
    expect(ssoCodeOf('invalid_state')).toBe('invalid_state');
  });

  it('rule 1: a token (or the stored one) and a school id; login type 2 unless a valid one is given; step mode 1 or true', () => {
    expect(oauthEntry({ accessToken: 'sso', schoolId: 'ORG1' }, null)).toEqual({ token: 'sso', schoolId: 'ORG1', loginType: 2, stepMode: false });
    expect(oauthEntry({ schoolId: 'ORG1', loginType: '5', orgStepMode: '1' }, 'kept')).toEqual({
      token: 'kept',
      schoolId: 'ORG1',
      loginType: 5,
      stepMode: true,
    });
    expect(oauthEntry({ accessToken: ' ', schoolId: 'ORG1', orgStepMode: 'true' }, 'kept')?.token).toBe('kept');
    expect(oauthEntry({ accessToken: 'sso', schoolId: 'ORG1', orgStepMode: 'yes' }, null)?.stepMode).toBe(false);
    for (const loginType of ['8', '-1', '1.5', 'x', ' '])
      expect(oauthEntry({ accessToken: 'sso', schoolId: 'ORG1', loginType }, null)?.loginType).toBe(2);
    expect(oauthEntry({ accessToken: 'sso', schoolId: 'ORG1', loginType: '0' }, null)?.loginType).toBe(0);
    expect(oauthEntry({ accessToken: 'sso', schoolId: 'ORG1', loginType: '7' }, null)?.loginType).toBe(7);
    expect(oauthEntry({ schoolId: 'ORG1' }, null)).toBeNull();
    expect(oauthEntry({ accessToken: 'sso' }, 'kept')).toBeNull();
    expect(oauthEntry({ accessToken: 'sso', schoolId: ' ' }, null)).toBeNull();
    // An unparsable query is an empty one.
    expect(oauthEntry({ accessToken: 1 } as never, null)).toBeNull();
  });

  it('rules 2 and 3: the partner fixes the login type (Egypt always 7), others take a valid one from the query', () => {
    expect(partnerEntry('/oauth-egypt', { token: 't', loginType: '1', orgCode: 'EG1', orgStepMode: '1' })).toEqual({
      token: 't',
      schoolId: 'EG1',
      loginType: 7,
      stepMode: true,
    });
    expect(partnerEntry('/oauth-kenya', { token: 't' })).toEqual({ token: 't', schoolId: '', loginType: 6, stepMode: false });
    expect(partnerEntry('/oauth-kaigen-philippine', { token: 't' })?.loginType).toBe(4);
    expect(partnerEntry('/oauth-kaigen', { token: 't' })?.loginType).toBe(3);
    expect(partnerEntry('/oauth-kaigen', { token: 't', loginType: '4' })?.loginType).toBe(4);
    expect(partnerEntry('/oauth-kaigen', { token: ' ' })).toBeNull();
    expect(partnerEntry('/oauth-kaigen', undefined)).toBeNull();
  });

  it('rule 4: the organisation code of /app-entry, if not blank', () => {
    expect(appEntryOrg({ organization_code: 'ORG1' })).toBe('ORG1');
    expect(appEntryOrg({ organization_code: ' ' })).toBeNull();
    expect(appEntryOrg(undefined)).toBeNull();
  });
});

describe('session rules: paths, landing, the form, failures', () => {
  it('rule 7: every signed-in screen needs a stored login, ids as numbers; login pages and the root do not', () => {
    for (const path of ['/testing-menu', '/exam', '/exam-step-mode', '/start', '/score-report/42', '/score-report-embed/4217', '/login-confirm'])
      expect(isProtectedPath(path)).toBe(true);
    for (const path of ['/', '/login', '/login-code', '/exam-end', '/score-report/x', '/403', '/checking-domain-connection'])
      expect(isProtectedPath(path)).toBe(false);
    expect(protectedPaths).toHaveLength(15);
    for (const path of ['/examinee-input-info', '/examinee-info', '/pay-exam-fee', '/short-result', '/pay-exam-result', '/purchased-result', '/exam-tutorial', '/exam-start'])
      expect(isProtectedPath(path)).toBe(true);
    expect(loginRedirectPaths).toEqual(['/', '/exam-end']);
    expect([...keptExamEndCodes].sort()).toEqual(['ER_SCHEDULE_HISTORY_RETAKE', 'INCORRECT_DEVICE']);
  });

  it('lands my-page and foreign-payment users on their basic info; examinee and SSO logins on the exam list', () => {
    expect(isMyPageUser(stored({ is_my_page_login: true }))).toBe(true);
    expect(isMyPageUser(stored({ foreign_payment_method: true }))).toBe(true);
    expect(isMyPageUser(stored())).toBe(false);
    expect(isBasicInfoMissing(stored({ grade_id: null, email: 'a@b.c' }))).toBe(true);
    expect(isBasicInfoMissing(stored({ grade_id: 3, email: null }))).toBe(true);
    expect(isBasicInfoMissing(stored({ grade_id: 3, email: 'a@b.c' }))).toBe(false);
    expect(landsOnExamList(stored({ login_type: 0 }))).toBe(false);
    expect(landsOnExamList(stored({ login_type: 1 }))).toBe(false);
    expect(landsOnExamList(stored({ login_type: 1, schedule_history_id: null }))).toBe(true);
    expect(landsOnExamList(stored({ login_type: 5 }))).toBe(true);
    expect([...partnerLoginTypes].sort()).toEqual([3, 4, 6, 7]);
  });

  it('validates the form: every field required (blank is empty), the email valid', () => {
    expect(validateBasicInfo({ examinee_name: ' ', grade_id: null, email: ' ' })).toEqual({
      examinee_name: 'required',
      grade_id: 'required',
      email: 'required',
    });
    expect(validateBasicInfo({ examinee_name: 'Aiko', grade_id: 99, email: 'aiko@example' })).toEqual({ email: 'invalid' });
    expect(validateBasicInfo({ examinee_name: 'Aiko', grade_id: 1, email: 'a b@example.com' })).toEqual({ email: 'invalid' });
    expect(validateBasicInfo({ examinee_name: 'Aiko', grade_id: 1, email: 'x aiko@example.com y' })).toEqual({ email: 'invalid' });
    expect(validateBasicInfo({ examinee_name: 'Aiko', grade_id: 1, email: 'aiko@example.com x' })).toEqual({ email: 'invalid' });
    expect(validateBasicInfo({ examinee_name: 'Aiko', grade_id: 1, email: ' aiko@example.com ' })).toEqual({});
  });

  it('a 401 in maintenance, any other 401, and what the screen says (400 is the generic error)', () => {
    expect(isMaintenanceFailure(new ApiFailure('DURING_MAINTENANCE', 401))).toBe(true);
    expect(isMaintenanceFailure(new ApiFailure('DURING_MAINTENANCE', 503))).toBe(false);
    expect(isMaintenanceFailure({ code: 'DURING_MAINTENANCE', status: 401 })).toBe(false);
    expect(isUnauthorizedFailure(new ApiFailure('NOT_LOGGED_IN', 401))).toBe(true);
    expect(isUnauthorizedFailure(new ApiFailure('DURING_MAINTENANCE', 401))).toBe(false);
    expect(isUnauthorizedFailure(new ApiFailure('NOT_LOGGED_IN', 403))).toBe(false);
    expect(isUnauthorizedFailure({ code: 'NOT_LOGGED_IN', status: 401 })).toBe(false);
    expect(visibleFailure(new ApiFailure('VALIDATION_ERROR', 400))).toBe('GENERIC_ERROR');
    expect(visibleFailure(new ApiFailure('ACCOUNT_LOCKED', 403))).toBe('ACCOUNT_LOCKED');
    expect(visibleFailure({ code: 'TIME_START' })).toBe('TIME_START');
    expect(visibleFailure({ code: 4 })).toBe('GENERIC_ERROR');
    expect(visibleFailure(new Error('boom'))).toBe('GENERIC_ERROR');
    expect(visibleFailure(null)).toBe('GENERIC_ERROR');
    expect(visibleFailure('NETWORK_ERROR')).toBe('GENERIC_ERROR');
  });

  it('builds the stored session from a login, fresh', () => {
    expect(sessionFromLogin(login(), 'uuid-9')).toEqual({
      ...demoExaminee,
      token: 'token-1',
      uuid: 'uuid-9',
      question_index: 0,
      question_list_flag: false,
      alphabets_keyboard_flag: false,
      mode_upper_case_flag: false,
      is_completed: false,
      error_code: null,
    });
  });

  it('keeps only the known keys of the login page query, and its error code', () => {
    expect(loginSearch({ school: 'ORG1', logout: '1', other: 'x' })).toEqual({ school: 'ORG1', logout: '1' });
    expect(loginSearch({ school: 3 } as never)).toEqual({});
    expect(loginSearch(undefined)).toEqual({});
    expect(failureFromSearch({ error_code: 'ACCOUNT_LOCKED' })).toEqual({ kind: 'failure', code: 'ACCOUNT_LOCKED' });
    expect(failureFromSearch({ error_code: '' })).toBeNull();
    expect(failureFromSearch({})).toBeNull();
  });

  it('who leaves: login type, school, why and the token; where to: logout=1 or the error, with the school if asked', () => {
    const session = stored({ login_type: 1, org_code: 'ORG1', token: 'tok' });
    expect(exitOf(contextWith(session), 'ACCOUNT_LOCKED')).toEqual({ loginType: 1, orgCode: 'ORG1', errorCode: 'ACCOUNT_LOCKED', token: 'tok' });
    expect(exitOf(contextWith(null), null)).toEqual({ loginType: 0, orgCode: '', errorCode: null, token: '' });
    expect(tokenOf(contextWith(session, { loginType: 1, orgCode: 'ORG1', errorCode: null, token: 'exit-tok' }))).toBe('exit-tok');
    expect(tokenOf(contextWith(session))).toBe('tok');
    expect(tokenOf(contextWith(null))).toBe('');
    const exit = (errorCode: SessionContext['failure'], orgCode = 'ORG1') => contextWith(null, { loginType: 1, orgCode, errorCode, token: '' });
    expect(exitSearch(exit(null))).toEqual({ logout: '1' });
    expect(exitSearch(exit(null), true)).toEqual({ school: 'ORG1', logout: '1' });
    expect(exitSearch(exit('GENERIC_ERROR'), true)).toEqual({ school: 'ORG1', error_code: 'GENERIC_ERROR' });
    expect(exitSearch(exit('GENERIC_ERROR'))).toEqual({ error_code: 'GENERIC_ERROR' });
    expect(exitSearch(exit(null, ''), true)).toEqual({ logout: '1' });
    expect(exitSearch(contextWith(null), true)).toEqual({ logout: '1' });
  });
});

describe('session selectors: the menu and the exam list', () => {
  const status = (change: {
    exam_fee?: Partial<ChoosePageStatus['exam_fee']>;
    exam?: Partial<ChoosePageStatus['exam']>;
    result?: Partial<ChoosePageStatus['result']>;
  }): ChoosePageStatus => ({
    exam_fee: { required: false, status: 0, ...change.exam_fee },
    exam: { schedule_history_id: 7, status: 0, can_take: true, ...change.exam },
    result: { released: false, payment_status: 0, ...change.result },
    server_time: serverTime,
  });
  const now = new Date(serverTime);

  it('the fee: group mode is paid by the school; otherwise not required, paid, pending or to pay', () => {
    expect(feeOf({ required: true, status: 0, application_mode: 2 })).toBe('school_paid');
    expect(feeOf({ required: false, status: 0, application_mode: 1 })).toBe('not_required');
    expect(feeOf({ required: true, status: 2 })).toBe('paid');
    expect(feeOf({ required: true, status: 1 })).toBe('pending');
    expect(feeOf({ required: true, status: 0 })).toBe('to_pay');
  });

  it('the test, the result and the one action offered', () => {
    expect(menuViewOf(status({}), now)).toEqual({ fee: 'not_required', exam: 'can_take', result: 'not_finished', releaseAt: null, next: 'take_test' });
    expect(menuViewOf(status({ exam_fee: { required: true, status: 0 }, exam: { can_take: false } }), now)).toMatchObject({
      exam: 'needs_fee',
      next: 'pay_fee',
    });
    expect(menuViewOf(status({ exam_fee: { required: true, status: 1 }, exam: { can_take: false } }), now).exam).toBe('needs_fee');
    expect(menuViewOf(status({ exam: { can_take: false } }), now)).toMatchObject({ exam: 'unavailable', next: null });
    expect(menuViewOf(status({ exam: { status: null, can_take: false } }), now).exam).toBe('unavailable');
    const later = '2026-11-29T09:00:00.000Z';
    expect(menuViewOf(status({ exam: { status: 1, can_take: false }, result: { release_at: later } }), now)).toEqual({
      fee: 'not_required',
      exam: 'completed',
      result: 'waiting',
      releaseAt: later,
      next: null,
    });
    expect(menuViewOf(status({ exam: { status: 1 }, result: { release_at: serverTime } }), now).releaseAt).toBeNull();
    expect(menuViewOf(status({ exam: { status: 1 }, result: { released: true, release_at: later } }), now)).toMatchObject({
      result: 'viewable',
      releaseAt: null,
      next: 'view_results',
    });
    expect(menuViewOf(status({ exam: { status: 2, can_take: true } }), now)).toMatchObject({ exam: 'cancelled', result: 'none', next: null });
    expect(menuViewOf(status({ exam: { status: 7 } }), now)).toMatchObject({ exam: 'expired', result: 'none' });
  });

  it('rows: start, continue, locked, completed, cancelled, closed; step mode in level order', () => {
    const row = (id: number, status: number, locked = false, order = id): ExamListItem => ({
      schedule_history_id: id,
      subject: { id: 1, name: 'English' },
      level: { id: order, name: `Level ${order}`, order },
      exam: { id, title: `Exam ${id}` },
      status,
      score: null,
      scoring: 'not_taken',
      locked,
    } as ExamListItem);
    const rows = [row(3, 0), row(1, 6), row(2, 0, true), row(4, 1), row(5, 2), row(6, 7), row(7, 3)];
    expect(examRowsOf(rows, false).map((r) => [r.schedule_history_id, r.action])).toEqual([
      [3, 'start'],
      [1, 'continue'],
      [2, 'locked'],
      [4, 'completed'],
      [5, 'cancelled'],
      [6, 'closed'],
      [7, 'completed'],
    ]);
    expect(examRowsOf(rows, true).map((r) => r.schedule_history_id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(rows.map((r) => r.schedule_history_id)).toEqual([3, 1, 2, 4, 5, 6, 7]);
  });
});

describe('session actors', () => {
  it('asks GET /schedule with venue and org only for login type 1 and a valid venue id', async () => {
    const calls: unknown[] = [];
    const api = {
      schedule: (params: unknown) => {
        calls.push(params);
        return Promise.resolve({
          name: 'Nov',
          schedule_code: 'SCH',
          organization: { name: 'School', code: 'ORG1' },
          venue: null,
        });
      },
    } as unknown as ApiPort;
    expect(await loadLoginPlace(api, { schedule_code: 'SCH', venue_id: '3', school: 'ORG1' })).toEqual({
      organizationName: 'School',
      scheduleName: 'Nov',
      venueName: null,
      kind: 'id',
      orgCode: 'ORG1',
      scheduleCode: 'SCH',
      venueId: null,
      ssoUrl: null,
    });
    await loadLoginPlace(api, { schedule_code: 'SCH', login_type: '1', venue_id: '03', org_code: 'ORG2' });
    await loadLoginPlace(api, { schedule_code: 'SCH', login_type: '2', venue_id: '3', org_code: 'ORG2' });
    await loadLoginPlace(api, { schedule_code: 'SCH', login_type: 'x' });
    await loadLoginPlace(api, { schedule_code: 'SCH', login_type: '1' });
    expect(calls).toEqual([
      { schedule_code: 'SCH', login_type: 1, venue_id: 3, org_code: 'ORG1' },
      { schedule_code: 'SCH', login_type: 1, org_code: 'ORG2' },
      { schedule_code: 'SCH', login_type: 2 },
      { schedule_code: 'SCH', login_type: 1 },
      { schedule_code: 'SCH', login_type: 1 },
    ]);
  });

  it("the app's entry asks GET /app-schedule; an organisation GET /organization with its kind", async () => {
    const fake = createFakeApi();
    const calls: string[] = [];
    const api = {
      ...fake,
      appSchedule: (code: string) => {
        calls.push(`app:${code}`);
        return Promise.resolve({ organization_name: 'School', org_code: 'ORG1', schedule_code: 'SCH', server_time: serverTime });
      },
      organization: async (code: string) => {
        calls.push(`org:${code}`);
        return { ...(await fake.organization('ORG1')), code, login_method: 1 as const };
      },
    } as unknown as ApiPort;
    expect(await loadLoginPlace(api, { org_code: 'ORG1', from: 'app_entry' })).toEqual({
      organizationName: 'School',
      scheduleName: null,
      venueName: null,
      kind: 'id',
      orgCode: 'ORG1',
      scheduleCode: 'SCH',
      venueId: null,
      ssoUrl: null,
    });
    const place = await loadLoginPlace(api, { school: 'ORG3', from: 'elsewhere' });
    expect(place).toMatchObject({ kind: 'id', orgCode: 'ORG3', scheduleCode: null, venueId: null, ssoUrl: null, scheduleName: null, venueName: null });
    await expect(loadLoginPlace(api, { from: 'app_entry' })).rejects.toMatchObject({ code: 'INVALID_SCHEDULE', status: 404 });
    expect(calls).toEqual(['app:ORG1', 'org:ORG3']);
  });

  it('an SSO school without a start URL offers none, and never asks the client config', async () => {
    const fake = createFakeApi();
    const api = { ...fake, organization: async () => ({ ...(await fake.organization('ORG1')), code: 'SSO', login_method: 2 as const }) };
    const place = await loadLoginPlace(api, { school: 'SSO' });
    expect(place).toMatchObject({ kind: 'sso', ssoUrl: null });
    expect(fake.calls).not.toContain('clientConfig');
  });

  it('logs in with ID and password with the schedule and venue only when the place has them', async () => {
    const sent: unknown[] = [];
    const api = {
      loginWithId: (body: unknown) => {
        sent.push(body);
        return Promise.resolve(login());
      },
    } as unknown as ApiPort;
    const place = { organizationName: 'S', scheduleName: null, venueName: null, kind: 'id' as const, orgCode: 'ORG1', scheduleCode: null, venueId: null, ssoUrl: null };
    await loginWithPassword(api, place, { login_id: 'p', password: 's' });
    await loginWithPassword(api, { ...place, scheduleCode: 'SCH', venueId: 3 }, { login_id: 'p', password: 's' });
    expect(sent).toEqual([
      { login_type: 1, login_id: 'p', password: 's', org_code: 'ORG1' },
      { login_type: 1, login_id: 'p', password: 's', org_code: 'ORG1', schedule_code: 'SCH', venue_id: 3 },
    ]);
  });

  it('makes each call of the edge with its input, and writes storage as the machine asks', async () => {
    const api = createFakeApi();
    const storage = memoryStorage();
    const left: string[] = [];
    let cleared = 0;
    const impl = sessionImplementations({
      api,
      storage,
      leaveApp: (url) => void left.push(url),
      examCache: { clear: () => ((cleared += 1), Promise.reject(new Error('gone'))) },
    });
    const run = (logic: unknown, input?: unknown) =>
      new Promise((resolve, reject) => {
        const actor = createActor(logic as AnyActorLogic, { input });
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output), error: reject });
        actor.start();
      });
    const loggedIn = (await run(impl.actors.loginWithCode, { code: 'AC3EF4GHJ6KM' })) as { access_token: string };
    expect(loggedIn.access_token).toBe('token-1');
    await run(impl.actors.loadTestingMenu);
    await run(impl.actors.loadExamList);
    await run(impl.actors.loadClientConfig);
    await run(impl.actors.endServerSession, { token: 'token-1' });
    expect(api.calls).toEqual(['login', 'chooseStatus', 'exams', 'clientConfig', 'logout']);

    const session = stored();
    const act = impl.actions as Record<string, (args: unknown, params?: unknown) => void>;
    act.persistSession!({}, { session });
    expect(readSession(storage)).toEqual(session);
    act.persistChange!({}, { change: { question_index: 4 } });
    expect(readSession(storage)?.question_index).toBe(4);
    act.holdRevocation!({}, { token: '' });
    expect(readPendingRevocations(storage)).toEqual([]);
    act.holdRevocation!({}, { token: 'tok' });
    expect(readPendingRevocations(storage)).toEqual(['tok']);
    act.dropRevocation!({}, { token: 'tok' });
    expect(readPendingRevocations(storage)).toEqual([]);
    const fresh = memoryStorage();
    (sessionImplementations({ api, storage: fresh }).actions.persistSchoolId as (args: unknown, params: unknown) => void)({}, { schoolId: null });
    expect(fresh.dump()).toEqual({});
    act.persistSchoolId!({}, { schoolId: 'ORG9' });
    expect(storage.getItem(storageKeys.schoolId)).toBe('ORG9');
    act.persistEntry!({}, { entry: { token: 'sso', schoolId: 'ORG1', loginType: 2, stepMode: false } });
    expect(storage.getItem(storageKeys.token)).toBe('sso');
    act.leaveApp!({}, { url: 'https://egypt.example/' });
    expect(left).toEqual(['https://egypt.example/']);
    act.wipeSession!({});
    expect(readSession(storage)).toBeNull();
    expect(storage.getItem(storageKeys.token)).toBeNull();
    expect(cleared).toBe(1);
    // Without an edge for them, leaving and the exam cache are nothing.
    const bare = sessionImplementations({ api, storage }).actions as Record<string, (args: unknown, params?: unknown) => void>;
    expect(() => {
      bare.leaveApp!({}, { url: 'x' });
      bare.wipeSession!({});
    }).not.toThrow();
  });
});

/** The session machine with stand-in calls that never settle; every call's input and every storage action written down. */
function boot(input: Partial<SessionInput> = {}) {
  const calls: Array<{ src: string; input: unknown }> = [];
  const actions: Array<[string, unknown]> = [];
  const pending = (src: string) =>
    fromPromise(({ input: given }) => {
      calls.push({ src, input: given });
      return new Promise<never>(() => {});
    });
  const note = (name: string) => (_: unknown, params: unknown) => void actions.push([name, params]);
  const childInputs: Array<[string, unknown]> = [];
  const child = (name: string) =>
    createMachine({
      context: ({ input: given }) => {
        childInputs.push([name, given]);
        return {};
      },
    });
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        loginWithCode: pending('loginWithCode'),
        loadLoginPlace: pending('loadLoginPlace'),
        loginWithPassword: pending('loginWithPassword'),
        exchangeKenyaToken: pending('exchangeKenyaToken'),
        identifyToken: pending('identifyToken'),
        saveBasicInfo: pending('saveBasicInfo'),
        loadTestingMenu: pending('loadTestingMenu'),
        loadExamList: pending('loadExamList'),
        loadClientConfig: pending('loadClientConfig'),
        endServerSession: pending('endServerSession'),
        payment: child('payment'),
        results: child('results'),
      } as never,
      actions: {
        persistSession: note('persistSession'),
        wipeSession: note('wipeSession'),
        holdRevocation: note('holdRevocation'),
        dropRevocation: note('dropRevocation'),
        persistChange: note('persistChange'),
        persistEntry: note('persistEntry'),
        persistSchoolId: note('persistSchoolId'),
        leaveApp: note('leaveApp'),
        notifySignedIn: ({ context }: { context: SessionContext }) => void actions.push(['notifySignedIn', context.session]),
        notifySignedOut: () => void actions.push(['notifySignedOut', undefined]),
      } as never,
    }),
    { input: { storedSession: null, ...input } as SessionInput },
  ).start();
  return { actor, calls, actions, childInputs };
}

type Session = ReturnType<typeof boot>['actor'];
const answer = (actor: Session, id: string, output: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
const fail = (actor: Session, id: string, error: unknown) => actor.send({ type: `xstate.error.actor.${id}`, error } as never);
const unmatched = (actor: Session, path: string, search: Record<string, string> = {}, known = true) =>
  actor.send({ type: 'location.unmatched', path, known, search });
const at = (actor: Session) => actor.getSnapshot();

describe('session machine: boot and the ways in', () => {
  it('starts signed out on the login code page with nothing known; the input fills its context', () => {
    const { actor } = boot();
    expect(at(actor).matches({ signedOut: { loginCode: 'editing' } })).toBe(true);
    expect(at(actor).context).toMatchObject({
      session: null,
      storedToken: null,
      storedErrorCode: null,
      appOrigin: 'http://localhost',
      search: {},
      exams: [],
      basicInfo: { values: { examinee_name: '', grade_id: null, email: '' }, errors: {}, failure: null },
      loginError: null,
      paymentReturn: null,
    });
    const given = boot({ storedToken: 't', storedErrorCode: 'INCORRECT_DEVICE', appOrigin: 'https://gradus.test' });
    expect(at(given.actor).context).toMatchObject({ storedToken: 't', storedErrorCode: 'INCORRECT_DEVICE', appOrigin: 'https://gradus.test' });
  });

  it('resumes a stored session with a chosen exam; my-page users see their info again first', () => {
    const resumed = boot({ storedSession: stored() });
    expect(at(resumed.actor).matches({ signedIn: 'examFlow' })).toBe(true);
    const myPage = boot({ storedSession: stored({ is_my_page_login: true, email: 'a@b.c' }) });
    expect(at(myPage.actor).matches({ signedIn: 'info' })).toBe(true);
    const list = boot({ storedSession: stored({ login_type: 5, schedule_history_id: null }) });
    expect(at(list.actor).matches({ signedIn: { examList: { page: 'plain', list: 'loading' } } } as never)).toBe(true);
    const step = boot({ storedSession: stored({ login_type: 5, schedule_history_id: null, enable_mode_step: true }) });
    expect(at(step.actor).matches({ signedIn: { examList: { page: 'stepMode' } } } as never)).toBe(true);
    const missing = boot({ storedSession: stored({ is_my_page_login: true, grade_id: null, examinee_name: 'Aiko', email: null }) });
    expect(at(missing.actor).matches({ signedIn: { inputInfo: 'editing' } })).toBe(true);
    expect(at(missing.actor).context.basicInfo.values).toEqual({ examinee_name: 'Aiko', grade_id: null, email: '' });
  });

  it('checks a login code: required, then well formed, then sent normalised; a refusal says its code', () => {
    const { actor, calls, actions } = boot();
    actor.send({ type: 'loginCode.submitted', code: '  ' });
    expect(at(actor).context.loginError).toEqual({ kind: 'field', rule: 'required' });
    actor.send({ type: 'loginCode.submitted', code: 'abc' });
    expect(at(actor).context.loginError).toEqual({ kind: 'field', rule: 'invalid' });
    actor.send({ type: 'loginCode.submitted', code: 'ac3e-f4gh-j6km' });
    expect(at(actor).matches({ signedOut: { loginCode: 'submitting' } })).toBe(true);
    expect(at(actor).hasTag('busy')).toBe(true);
    expect(at(actor).context.loginError).toBeNull();
    expect(calls).toEqual([{ src: 'loginWithCode', input: { code: 'AC3E-F4GH-J6KM' } }]);
    fail(actor, 'loginWithCode', new ApiFailure('LOGIN_CODE_INCORRECT', 401));
    expect(at(actor).matches({ signedOut: { loginCode: 'editing' } })).toBe(true);
    expect(at(actor).context).toMatchObject({ loginError: { kind: 'failure', code: 'LOGIN_CODE_INCORRECT' }, pendingCode: null });
    actor.send({ type: 'loginCode.submitted', code: 'AC3E-F4GH-J6KM' });
    answer(actor, 'loginWithCode', login());
    expect(at(actor).matches({ signedIn: 'examFlow' })).toBe(true);
    expect(at(actor).context.session).toMatchObject({ token: 'token-1', question_index: 0 });
    expect(at(actor).context.pendingCode).toBeNull();
    expect(actions).toEqual([
      ['persistSession', { session: at(actor).context.session }],
      ['notifySignedIn', at(actor).context.session],
    ]);
  });

  it('a login page loads its place, checks the fields, trims the ID, and keeps a refusal (400 generic)', () => {
    const { actor, calls } = boot();
    unmatched(actor, '/login', { school: 'ORG1', error_code: 'ACCOUNT_LOCKED', junk: 'x' });
    expect(at(actor).matches({ signedOut: { login: 'loadingPlace' } })).toBe(true);
    expect(at(actor).context.search).toEqual({ school: 'ORG1', error_code: 'ACCOUNT_LOCKED' });
    expect(at(actor).context.passwordError).toEqual({ kind: 'failure', code: 'ACCOUNT_LOCKED' });
    expect(calls.at(-1)).toEqual({ src: 'loadLoginPlace', input: { search: { school: 'ORG1', error_code: 'ACCOUNT_LOCKED' } } });
    const place = { organizationName: 'S', scheduleName: null, venueName: null, kind: 'id', orgCode: 'ORG1', scheduleCode: null, venueId: null, ssoUrl: null };
    answer(actor, 'loadLoginPlace', place);
    expect(at(actor).context.place).toEqual(place);
    actor.send({ type: 'login.submitted', login_id: ' ', password: '' });
    expect(at(actor).context.passwordError).toEqual({ kind: 'fields', fields: { login_id: 'required', password: 'required' } });
    actor.send({ type: 'login.submitted', login_id: 'p', password: '' });
    expect(at(actor).context.passwordError).toEqual({ kind: 'fields', fields: { password: 'required' } });
    actor.send({ type: 'login.submitted', login_id: ' ', password: 's' });
    expect(at(actor).context.passwordError).toEqual({ kind: 'fields', fields: { login_id: 'required' } });
    actor.send({ type: 'login.submitted', login_id: ' pupil1 ', password: ' s ' });
    expect(at(actor).matches({ signedOut: { login: 'submitting' } })).toBe(true);
    expect(at(actor).context.passwordError).toBeNull();
    expect(calls.at(-1)).toEqual({ src: 'loginWithPassword', input: { place, credentials: { login_id: 'pupil1', password: ' s ' } } });
    fail(actor, 'loginWithPassword', new ApiFailure('VALIDATION_ERROR', 400));
    expect(at(actor).matches({ signedOut: { login: 'ready' } })).toBe(true);
    expect(at(actor).context).toMatchObject({ passwordError: { kind: 'failure', code: 'GENERIC_ERROR' }, credentials: null });
    actor.send({ type: 'login.submitted', login_id: 'pupil1', password: 's' });
    answer(actor, 'loginWithPassword', login({ login_type: 1 }));
    expect(at(actor).matches({ signedIn: 'examFlow' })).toBe(true);
    expect(at(actor).context).toMatchObject({ credentials: null, search: {} });
  });

  it('a place that does not exist is the invalid page; another failure is tried again', () => {
    for (const code of ['INVALID_SCHEDULE', 'NOT_FOUND', 'VALIDATION_ERROR'] as const) {
      const { actor } = boot();
      unmatched(actor, '/login', { school: 'X' });
      fail(actor, 'loadLoginPlace', new ApiFailure(code, 404));
      expect(at(actor).matches({ signedOut: { login: 'invalid' } })).toBe(true);
      expect(at(actor).context.placeError).toBe('INVALID_SCHEDULE');
    }
    const { actor, calls } = boot();
    unmatched(actor, '/login', { school: 'X' });
    fail(actor, 'loadLoginPlace', new ApiFailure('NETWORK_ERROR'));
    expect(at(actor).matches({ signedOut: { login: 'placeFailed' } })).toBe(true);
    expect(at(actor).context.placeError).toBe('NETWORK_ERROR');
    actor.send({ type: 'retry.requested' });
    expect(calls.filter((call) => call.src === 'loadLoginPlace')).toHaveLength(2);
  });
});

describe('session machine: entry routes and the screens a visitor is kept on', () => {
  it('rule 4: /app-entry without an organisation is /404; with one, its login page from the app', () => {
    const without = boot();
    unmatched(without.actor, '/app-entry', { organization_code: ' ' });
    expect(at(without.actor).matches({ signedOut: 'notFound' })).toBe(true);
    const { actor } = boot();
    unmatched(actor, '/app-entry', { organization_code: 'ORG1' });
    expect(at(actor).matches({ signedOut: 'login' })).toBe(true);
    expect(at(actor).context.search).toEqual({ org_code: 'ORG1', from: 'app_entry' });
  });

  it('rule 1: an error stores the school id and shows the SSO error; a token is stored and identified', () => {
    const error = boot();
    unmatched(error.actor, '/oauth', { error: 'x', errorCode: 'disabled_class', schoolId: 'ORG1' });
    expect(at(error.actor).matches({ signedOut: 'entryFailed' })).toBe(true);
    expect(at(error.actor).context.entryError).toEqual({ kind: 'sso', code: 'disabled_class' });
    expect(error.actions).toEqual([['persistSchoolId', { schoolId: 'ORG1' }]]);
    const noSchool = boot();
    unmatched(noSchool.actor, '/oauth', { error: 'invalid_role' });
    expect(noSchool.actions).toEqual([['persistSchoolId', { schoolId: null }]]);

    const { actor, calls, actions } = boot({ storedToken: 'kept' });
    unmatched(actor, '/oauth', { schoolId: 'ORG1', loginType: '2', orgStepMode: '1' });
    expect(at(actor).matches({ signedOut: { entering: 'identifying' } })).toBe(true);
    expect(at(actor).hasTag('busy')).toBe(true);
    const entry = { token: 'kept', schoolId: 'ORG1', loginType: 2, stepMode: true };
    expect(at(actor).context.entry).toEqual(entry);
    expect(actions).toEqual([['persistEntry', { entry }]]);
    expect(calls).toEqual([{ src: 'identifyToken', input: undefined }]);
    answer(actor, 'identifyToken', login({ login_type: 0, enable_mode_step: false, schedule_history_id: null }));
    // The entry's query decides login type and step mode.
    expect(at(actor).context.session).toMatchObject({ login_type: 2, enable_mode_step: true, token: 'token-1' });
    expect(at(actor).context.entry).toBeNull();
    expect(at(actor).matches({ signedIn: { examList: { page: 'stepMode' } } } as never)).toBe(true);
  });

  it('an identification that fails wipes what the entry stored and says why', () => {
    const { actor, actions } = boot();
    unmatched(actor, '/oauth-egypt', { token: 't', orgCode: 'EG1' });
    fail(actor, 'identifyToken', new ApiFailure('DISABLED_ORGANIZATION', 403));
    expect(at(actor).matches({ signedOut: 'entryFailed' })).toBe(true);
    expect(at(actor).context.entryError).toEqual({ kind: 'failure', code: 'DISABLED_ORGANIZATION' });
    expect(actions.map(([name]) => name)).toEqual(['persistEntry', 'wipeSession']);
    // "Go to the login page": the school's, since the entry named one.
    actor.send({ type: 'login.requested' });
    expect(at(actor).matches({ signedOut: 'login' })).toBe(true);
    expect(at(actor).context).toMatchObject({ search: { school: 'EG1' }, entry: null, entryError: null });
  });

  it("rule 2: Kenya's token is exchanged first, its answer deciding the entry", () => {
    const { actor, calls, actions } = boot();
    unmatched(actor, '/oauth-kenya', { token: 'ke', orgCode: 'KE1', orgStepMode: '1' });
    expect(at(actor).matches({ signedOut: { entering: 'exchanging' } })).toBe(true);
    expect(calls).toEqual([{ src: 'exchangeKenyaToken', input: { token: 'ke' } }]);
    expect(actions).toEqual([]);
    answer(actor, 'exchangeKenyaToken', { access_token: 'real', language_code: 'en', login_type: null, error: null, org_code: null, org_step_mode: null });
    const entry = { token: 'real', schoolId: 'KE1', loginType: 6, stepMode: true };
    expect(at(actor).context.entry).toEqual(entry);
    expect(actions).toEqual([['persistEntry', { entry }]]);
    expect(at(actor).matches({ signedOut: { entering: 'identifying' } })).toBe(true);

    const given = boot();
    unmatched(given.actor, '/oauth-kenya', { token: 'ke', orgCode: 'KE1' });
    answer(given.actor, 'exchangeKenyaToken', { access_token: 'real', login_type: 4, org_code: 'KE2', org_step_mode: false, error: null });
    expect(at(given.actor).context.entry).toEqual({ token: 'real', schoolId: 'KE2', loginType: 4, stepMode: false });

    const refused = boot();
    unmatched(refused.actor, '/oauth-kenya', { token: 'ke' });
    answer(refused.actor, 'exchangeKenyaToken', { access_token: null, error: 'user_notfound' });
    expect(at(refused.actor).matches({ signedOut: 'entryFailed' })).toBe(true);
    expect(at(refused.actor).context.entryError).toEqual({ kind: 'sso', code: 'user_notfound' });
    // No school known: "Go to the login page" is the code login page.
    refused.actor.send({ type: 'login.requested' });
    expect(at(refused.actor).matches({ signedOut: 'loginCode' })).toBe(true);

    const failed = boot();
    unmatched(failed.actor, '/oauth-kenya', { token: 'ke' });
    fail(failed.actor, 'exchangeKenyaToken', new ApiFailure('NETWORK_ERROR'));
    expect(at(failed.actor).context.entryError).toEqual({ kind: 'failure', code: 'NETWORK_ERROR' });
  });

  it('rules 1 and 2 without a token: unknown; other paths by rules 5 and 7 and the kept end screen', () => {
    for (const path of ['/oauth', '/oauth-kaigen', '/oauth-kenya']) {
      const { actor } = boot();
      unmatched(actor, path, {});
      expect(at(actor).matches({ signedOut: 'entryFailed' })).toBe(true);
      expect(at(actor).context.entryError).toEqual({ kind: 'sso', code: 'unknown' });
    }
    const kept = boot({ storedErrorCode: 'ER_SCHEDULE_HISTORY_RETAKE' });
    unmatched(kept.actor, '/exam-end');
    expect(at(kept.actor).matches({ signedOut: 'examEndKept' })).toBe(true);
    kept.actor.send({ type: 'login.requested' });
    expect(at(kept.actor).matches({ signedOut: 'loginCode' })).toBe(true);
    const other = boot({ storedErrorCode: 'ACCOUNT_LOCKED' });
    unmatched(other.actor, '/exam-end');
    expect(at(other.actor).matches({ signedOut: 'loginCode' })).toBe(true);
    const forbidden = boot();
    unmatched(forbidden.actor, '/exam');
    expect(at(forbidden.actor).matches({ signedOut: 'forbidden' })).toBe(true);
    forbidden.actor.send({ type: 'login.requested' });
    expect(at(forbidden.actor).matches({ signedOut: 'loginCode' })).toBe(true);
    const unknown = boot();
    unmatched(unknown.actor, '/nope', {}, false);
    expect(at(unknown.actor).matches({ signedOut: 'notFound' })).toBe(true);
    const root = boot();
    unmatched(root.actor, '/login', { school: 'S' });
    unmatched(root.actor, '/', { logout: '1' });
    expect(at(root.actor).matches({ signedOut: 'loginCode' })).toBe(true);
    expect(at(root.actor).context.search).toEqual({});
    // Rule 7 for the routable testing menu.
    const menu = boot();
    menu.actor.send({ type: 'xstate.route', to: '#sessionTestingMenu' });
    expect(at(menu.actor).matches({ signedOut: 'forbidden' })).toBe(true);
  });
});

describe('session machine: signed in', () => {
  const menuStatus = (change: Partial<ChoosePageStatus['exam']> = {}, fee: Partial<ChoosePageStatus['exam_fee']> = {}, released = false) => ({
    exam_fee: { required: false, status: 0, ...fee },
    exam: { schedule_history_id: 7, status: 0, can_take: true, ...change },
    result: { released, payment_status: 0 },
    server_time: serverTime,
  });
  const onMenu = () => {
    const run = boot({ storedSession: stored({ is_my_page_login: true, email: 'a@b.c', schedule_history_id: null }) });
    run.actor.send({ type: 'basicInfo.acknowledged' });
    return run;
  };

  it('registers basic information: validates, confirms, saves trimmed, and keeps what the server registered', () => {
    const { actor, calls, actions } = boot({ storedSession: stored({ is_my_page_login: true, grade_id: null, email: null, examinee_name: 'A' }) });
    actor.send({ type: 'basicInfo.changed', values: { examinee_name: ' Aiko ', grade_id: null, email: 'x' } });
    actor.send({ type: 'basicInfo.reviewed' });
    expect(at(actor).context.basicInfo.errors).toEqual({ grade_id: 'required', email: 'invalid' });
    expect(at(actor).matches({ signedIn: { inputInfo: 'editing' } })).toBe(true);
    actor.send({ type: 'basicInfo.changed', values: { examinee_name: ' Aiko ', grade_id: 99, email: ' aiko@example.com ' } });
    actor.send({ type: 'basicInfo.reviewed' });
    expect(at(actor).matches({ signedIn: { inputInfo: 'confirming' } })).toBe(true);
    expect(at(actor).context.basicInfo.errors).toEqual({});
    actor.send({ type: 'basicInfo.edited' });
    expect(at(actor).matches({ signedIn: { inputInfo: 'editing' } })).toBe(true);
    actor.send({ type: 'basicInfo.reviewed' });
    actor.send({ type: 'basicInfo.confirmed' });
    expect(at(actor).hasTag('busy')).toBe(true);
    expect(calls.at(-1)).toEqual({ src: 'saveBasicInfo', input: { examinee_name: 'Aiko', grade_id: 99, email: 'aiko@example.com' } });
    fail(actor, 'saveBasicInfo', new ApiFailure('NETWORK_ERROR'));
    expect(at(actor).matches({ signedIn: { inputInfo: 'confirming' } })).toBe(true);
    expect(at(actor).context.basicInfo.failure).toBe('NETWORK_ERROR');
    actor.send({ type: 'basicInfo.edited' });
    actor.send({ type: 'basicInfo.reviewed' });
    expect(at(actor).context.basicInfo.failure).toBeNull();
    actor.send({ type: 'basicInfo.confirmed' });
    const examinee = { ...demoExaminee, examinee_name: 'Aiko T', grade_id: 99, email: 'aiko@example.com' };
    answer(actor, 'saveBasicInfo', { examinee, server_time: serverTime });
    expect(at(actor).matches({ signedIn: 'info' })).toBe(true);
    expect(at(actor).context.session).toMatchObject({ examinee_name: 'Aiko T', grade_id: 99, email: 'aiko@example.com' });
    expect(actions.at(-1)).toEqual(['persistChange', { change: { examinee_name: 'Aiko T', grade_id: 99, email: 'aiko@example.com' } }]);
  });

  it('the menu: loads, pays the fee only when due, views released results, and takes the test it names', () => {
    const { actor, calls, actions, childInputs } = onMenu();
    expect(at(actor).matches({ signedIn: { testingMenu: 'loading' } } as never)).toBe(true);
    expect(calls.at(-1)?.src).toBe('loadTestingMenu');
    fail(actor, 'loadTestingMenu', new ApiFailure('NETWORK_ERROR'));
    expect(at(actor).context.failure).toBe('NETWORK_ERROR');
    actor.send({ type: 'retry.requested' });
    answer(actor, 'loadTestingMenu', menuStatus());
    expect(at(actor).context.failure).toBeNull();
    actor.send({ type: 'fee.payRequested' });
    actor.send({ type: 'results.viewRequested' });
    expect(at(actor).matches({ signedIn: { testingMenu: 'ready' } } as never)).toBe(true);
    actor.send({ type: 'test.chosen' });
    expect(at(actor).matches({ signedIn: 'examFlow' })).toBe(true);
    expect(at(actor).context.session?.schedule_history_id).toBe(7);
    expect(actions.slice(-2)).toEqual([
      ['persistChange', { change: { schedule_history_id: 7 } }],
      ['notifySignedIn', at(actor).context.session],
    ]);
    expect(childInputs).toEqual([]);
  });

  it('the menu: the exam fee is paid when unpaid or pending, never in group mode; its payment for the sitting', () => {
    for (const [fee, due] of [
      [{ required: true, status: 0 }, true],
      [{ required: true, status: 1 }, true],
      [{ required: true, status: 2 }, false],
      [{ required: true, status: 0, application_mode: 2 }, false],
      [{ required: false, status: 0 }, false],
    ] as const) {
      const { actor, childInputs } = onMenu();
      answer(actor, 'loadTestingMenu', menuStatus({ can_take: false }, fee));
      actor.send({ type: 'test.chosen' });
      expect(at(actor).matches({ signedIn: { testingMenu: 'ready' } } as never)).toBe(true);
      actor.send({ type: 'fee.payRequested' });
      expect(at(actor).matches({ signedIn: 'payExamFee' })).toBe(due);
      if (due) {
        expect(childInputs).toEqual([
          [
            'payment',
            { scheduleHistoryId: 7, purpose: 'exam_fee', returnUrl: 'http://localhost/pay-exam-fee?schedule_history_id=7', returning: null },
          ],
        ]);
        actor.send({ type: 'menu.requested' });
        expect(at(actor).matches({ signedIn: { testingMenu: 'loading' } } as never)).toBe(true);
      }
    }
    const noSitting = onMenu();
    answer(noSitting.actor, 'loadTestingMenu', menuStatus({ schedule_history_id: null, can_take: true }, { required: true, status: 0 }, true));
    noSitting.actor.send({ type: 'fee.payRequested' });
    noSitting.actor.send({ type: 'results.viewRequested' });
    noSitting.actor.send({ type: 'test.chosen' });
    expect(at(noSitting.actor).matches({ signedIn: { testingMenu: 'ready' } } as never)).toBe(true);
  });

  it('the results run for the menu sitting and end on the menu, or sign out with their refusal', () => {
    const { actor, childInputs } = onMenu();
    answer(actor, 'loadTestingMenu', menuStatus({ status: 1, can_take: false }, {}, true));
    actor.send({ type: 'results.viewRequested' });
    expect(at(actor).matches({ signedIn: 'results' })).toBe(true);
    expect(childInputs).toEqual([['results', { scheduleHistoryId: 7, appOrigin: 'http://localhost', returning: null }]]);
    actor.send({ type: 'xstate.done.actor.results', output: { refusal: null } } as never);
    expect(at(actor).matches({ signedIn: { testingMenu: 'loading' } } as never)).toBe(true);
    answer(actor, 'loadTestingMenu', menuStatus({ status: 1, can_take: false }, {}, true));
    actor.send({ type: 'results.viewRequested' });
    actor.send({ type: 'xstate.done.actor.results', output: { refusal: 'DURING_MAINTENANCE' } } as never);
    expect(at(actor).matches('signingOut')).toBe(true);
    expect(at(actor).context.exit).toMatchObject({ errorCode: 'DURING_MAINTENANCE' });
    const notReleased = onMenu();
    answer(notReleased.actor, 'loadTestingMenu', menuStatus({ status: 1, can_take: false }));
    notReleased.actor.send({ type: 'results.viewRequested' });
    expect(at(notReleased.actor).matches({ signedIn: { testingMenu: 'ready' } } as never)).toBe(true);
  });

  it("the provider's redirect back opens the payment screen it names, for its sitting", () => {
    const search = { schedule_history_id: '9', reference: 'GR-00000000-0000-4000-8000-000000000001', sessionId: 'CS1', redirectResult: 'R' };
    const fee = onMenu();
    unmatched(fee.actor, '/pay-exam-fee', search);
    expect(at(fee.actor).matches({ signedIn: 'payExamFee' })).toBe(true);
    const returning = { scheduleHistoryId: 9, reference: search.reference, sessionId: 'CS1', redirectResult: 'R' };
    expect(fee.childInputs).toEqual([
      ['payment', { scheduleHistoryId: 9, purpose: 'exam_fee', returnUrl: 'http://localhost/pay-exam-fee?schedule_history_id=9', returning }],
    ]);
    fee.actor.send({ type: 'payment.continued' });
    expect(at(fee.actor).context.paymentReturn).toBeNull();
    const results = onMenu();
    unmatched(results.actor, '/pay-exam-result', search);
    expect(at(results.actor).matches({ signedIn: 'results' })).toBe(true);
    expect(results.childInputs).toEqual([['results', { scheduleHistoryId: 9, appOrigin: 'http://localhost', returning }]]);
    const neither = onMenu();
    unmatched(neither.actor, '/pay-exam-fee', { schedule_history_id: '9' });
    unmatched(neither.actor, '/short-result', search);
    expect(at(neither.actor).matches({ signedIn: 'testingMenu' })).toBe(true);
  });

  it('the exam list: only an unlocked exam of the list is chosen, and stored', () => {
    const { actor, actions, calls } = boot({ storedSession: stored({ login_type: 5, schedule_history_id: null }) });
    expect(calls.at(-1)?.src).toBe('loadExamList');
    fail(actor, 'loadExamList', new ApiFailure('NETWORK_ERROR'));
    expect(at(actor).matches({ signedIn: { examList: { list: 'failed' } } } as never)).toBe(true);
    expect(at(actor).context.failure).toBe('NETWORK_ERROR');
    actor.send({ type: 'retry.requested' });
    const rows = [
      { schedule_history_id: 7, locked: false },
      { schedule_history_id: 8, locked: true },
    ];
    answer(actor, 'loadExamList', { exams: rows, server_time: serverTime });
    expect(at(actor).context).toMatchObject({ exams: rows, failure: null });
    actor.send({ type: 'exam.chosen', scheduleHistoryId: 8 });
    actor.send({ type: 'exam.chosen', scheduleHistoryId: 9 });
    expect(at(actor).matches({ signedIn: 'examList' })).toBe(true);
    actor.send({ type: 'exam.chosen', scheduleHistoryId: 7 });
    expect(at(actor).matches({ signedIn: 'examFlow' })).toBe(true);
    expect(at(actor).context.session?.schedule_history_id).toBe(7);
    expect(actions.slice(-2)).toEqual([
      ['persistChange', { change: { schedule_history_id: 7 } }],
      ['notifySignedIn', at(actor).context.session],
    ]);
  });

  it('keeps the exam progress in the session and in storage', () => {
    const { actor, actions } = boot({ storedSession: stored() });
    actor.send({ type: 'session.updated', change: { question_index: 2, is_completed: true } });
    expect(at(actor).context.session).toMatchObject({ question_index: 2, is_completed: true, token: 'token-1' });
    expect(actions.slice(1)).toEqual([['persistChange', { change: { question_index: 2, is_completed: true } }]]);
  });

  it.each([
    ['loadTestingMenu', new ApiFailure('DURING_MAINTENANCE', 401), 'DURING_MAINTENANCE'],
    ['loadTestingMenu', new ApiFailure('NOT_LOGGED_IN', 401), 'GENERIC_ERROR'],
    ['loadExamList', new ApiFailure('NOT_LOGGED_IN', 401), 'GENERIC_ERROR'],
    ['saveBasicInfo', new ApiFailure('DURING_MAINTENANCE', 401), 'DURING_MAINTENANCE'],
  ] as const)('a 401 on %s ends the session with %s', (call, error, errorCode) => {
    const run =
      call === 'loadTestingMenu'
        ? onMenu()
        : call === 'loadExamList'
          ? boot({ storedSession: stored({ login_type: 5, schedule_history_id: null }) })
          : boot({ storedSession: stored({ is_my_page_login: true, email: null }) });
    if (call === 'saveBasicInfo') {
      run.actor.send({ type: 'basicInfo.changed', values: { examinee_name: 'A', grade_id: 1, email: 'a@b.cd' } });
      run.actor.send({ type: 'basicInfo.reviewed' });
      run.actor.send({ type: 'basicInfo.confirmed' });
    }
    fail(run.actor, call, error);
    expect(at(run.actor).matches('signingOut')).toBe(true);
    expect(at(run.actor).context.exit).toMatchObject({ errorCode });
  });
});

describe('session machine: signing out', () => {
  it('ends the token on the server first, then wipes, and lands on the login page of the login type', () => {
    const { actor, calls, actions } = boot({ storedSession: stored({ login_type: 1, org_code: 'ORG1', token: 'tok' }) });
    actor.send({ type: 'logout.requested' });
    expect(at(actor).matches('signingOut')).toBe(true);
    expect(at(actor).hasTag('busy')).toBe(true);
    expect(at(actor).context.exit).toEqual({ loginType: 1, orgCode: 'ORG1', errorCode: null, token: 'tok' });
    expect(actions.slice(1)).toEqual([['holdRevocation', { token: 'tok' }]]);
    expect(calls.at(-1)).toEqual({ src: 'endServerSession', input: { token: 'tok' } });
    answer(actor, 'endServerSession', undefined);
    expect(actions.slice(1)).toEqual([
      ['holdRevocation', { token: 'tok' }],
      ['notifySignedOut', undefined],
      ['wipeSession', undefined],
      ['dropRevocation', { token: 'tok' }],
    ]);
    expect(at(actor).matches({ signedOut: 'login' })).toBe(true);
    expect(at(actor).context).toMatchObject({ session: null, exit: null, search: { school: 'ORG1', logout: '1' }, menu: null, exams: [] });
  });

  it('a 401 at logout means the token is gone; no answer keeps it waiting; a code login ends on its page', () => {
    const gone = boot({ storedSession: stored({ token: 'tok' }) });
    gone.actor.send({ type: 'logout.requested', errorCode: 'INCORRECT_DEVICE' });
    fail(gone.actor, 'endServerSession', new ApiFailure('NOT_LOGGED_IN', 401));
    expect(gone.actions.map(([name]) => name)).toEqual(['notifySignedIn', 'holdRevocation', 'notifySignedOut', 'wipeSession', 'dropRevocation']);
    expect(at(gone.actor).matches({ signedOut: 'loginCode' })).toBe(true);
    expect(at(gone.actor).context.search).toEqual({ error_code: 'INCORRECT_DEVICE' });
    expect(at(gone.actor).context.loginError).toEqual({ kind: 'failure', code: 'INCORRECT_DEVICE' });
    const offline = boot({ storedSession: stored({ token: 'tok' }) });
    offline.actor.send({ type: 'logout.requested' });
    fail(offline.actor, 'endServerSession', new ApiFailure('NETWORK_ERROR'));
    expect(offline.actions.map(([name]) => name)).toEqual(['notifySignedIn', 'holdRevocation', 'notifySignedOut', 'wipeSession']);
    expect(at(offline.actor).context.search).toEqual({ logout: '1' });
    const maintenance = boot({ storedSession: stored({ token: 'tok' }) });
    maintenance.actor.send({ type: 'logout.requested' });
    fail(maintenance.actor, 'endServerSession', new ApiFailure('DURING_MAINTENANCE', 401));
    expect(maintenance.actions.map(([name]) => name)).toEqual(['notifySignedIn', 'holdRevocation', 'notifySignedOut', 'wipeSession']);
  });

  it("a partner login type leaves for the partner's site, or its login code page without one", () => {
    const { actor, calls, actions } = boot({ storedSession: stored({ login_type: 7 }) });
    actor.send({ type: 'logout.requested' });
    answer(actor, 'endServerSession', undefined);
    expect(at(actor).matches({ signedOut: 'leavingForPartner' })).toBe(true);
    expect(calls.at(-1)?.src).toBe('loadClientConfig');
    answer(actor, 'loadClientConfig', { partner_logout_urls: { '7': 'https://egypt.example/' } });
    expect(at(actor).matches({ signedOut: 'left' })).toBe(true);
    expect(actions.at(-1)).toEqual(['leaveApp', { url: 'https://egypt.example/' }]);
    const without = boot({ storedSession: stored({ login_type: 3 }) });
    without.actor.send({ type: 'logout.requested' });
    answer(without.actor, 'endServerSession', undefined);
    answer(without.actor, 'loadClientConfig', { partner_logout_urls: { '7': 'https://egypt.example/' } });
    expect(at(without.actor).matches({ signedOut: 'loginCode' })).toBe(true);
    expect(at(without.actor).context).toMatchObject({ search: { logout: '1' }, exit: null });
    const failed = boot({ storedSession: stored({ login_type: 4 }) });
    failed.actor.send({ type: 'logout.requested' });
    answer(failed.actor, 'endServerSession', undefined);
    fail(failed.actor, 'loadClientConfig', new ApiFailure('NETWORK_ERROR'));
    expect(at(failed.actor).matches({ signedOut: 'loginCode' })).toBe(true);
    expect(at(failed.actor).context.search).toEqual({ logout: '1' });
  });
});

describe('session stand-ins', () => {
  it('say that the edge provides every call and every storage write', async () => {
    const { actors, actions } = sessionMachine.implementations;
    for (const name of [
      'loginWithCode',
      'loadLoginPlace',
      'loginWithPassword',
      'exchangeKenyaToken',
      'identifyToken',
      'saveBasicInfo',
      'loadTestingMenu',
      'loadExamList',
      'loadClientConfig',
      'endServerSession',
    ]) {
      const actor = createActor(actors[name] as AnyActorLogic, { input: {} });
      const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve }));
      actor.start();
      expect(((await failed) as Error).message).toBe(`${name} is provided by the edge`);
    }
    for (const name of ['persistSession', 'wipeSession', 'holdRevocation', 'dropRevocation', 'persistChange', 'persistEntry', 'persistSchoolId', 'leaveApp']) {
      expect(() => (actions[name] as (args: unknown, params: unknown) => void)({}, {})).toThrow(`${name} is provided by the edge`);
    }
  });
});
