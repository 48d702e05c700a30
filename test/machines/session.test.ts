/**
 * The session's edges and its journeys on the kiosk over the fake API: which call a login
 * page makes, which login call a page's kind sends, that the exam machine starts only once a
 * schedule history is known, and logout per login type.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { selectPath, selectScreen } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { loadLoginPlace, loginWithPassword } from '../../machines/session/session.actors.ts';
import { readSession, storageKeys } from '../../machines/shared/storage.ts';
import { createFakeApi, DEMO_PASSWORD, demoLogins, demoOrganizations } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

function boot(url: string, api = createFakeApi(), storage = memoryStorage()) {
  const left: string[] = [];
  const actor = createActor(createKioskMachine({ api, storage, leaveApp: (to) => void left.push(to) }), {
    input: { storedSession: readSession(storage) },
  }).start();
  const [path, query = ''] = url.split('?');
  actor.send({ type: 'location.changed', path: path!, search: Object.fromEntries(new URLSearchParams(query)) });
  return { actor, api, storage, left };
}

/** What the pupil does on the session's screens goes to the session actor itself (session.connect.ts). */
const session = (actor: ReturnType<typeof boot>['actor']) => actor.getSnapshot().children.session!;

describe('login page place', () => {
  it('asks GET /schedule for a schedule code, with venue and org only for login type 1', async () => {
    const api = createFakeApi();
    const place = await loadLoginPlace(api, { schedule_code: 'SCH-2026', login_type: '1', venue_id: '3', org_code: 'ORG1' });
    expect(place).toMatchObject({ scheduleName: 'November 2026', venueName: 'Room 1', kind: 'id', venueId: 3 });
    expect(api.calls).toEqual(['schedule']);
  });

  it('says INVALID_SCHEDULE for an unknown schedule code or no code at all', async () => {
    await expect(loadLoginPlace(createFakeApi(), { schedule_code: 'NOPE', login_type: '1' })).rejects.toMatchObject({ code: 'INVALID_SCHEDULE' });
    await expect(loadLoginPlace(createFakeApi(), {})).rejects.toMatchObject({ code: 'INVALID_SCHEDULE' });
  });

  it('an organisation with login method 3 offers the examinee login, which posts /login-examinee', async () => {
    const api = createFakeApi();
    const place = await loadLoginPlace(api, { school: demoOrganizations.examinee });
    expect(place.kind).toBe('examinee');
    const response = await loginWithPassword(api, place, { login_id: demoLogins.examinee, password: DEMO_PASSWORD });
    expect(response.examinee.login_type).toBe(5);
    expect(api.calls).toEqual(['organization', 'loginExaminee']);
  });

  it('an organisation with login method 2 offers its own sign-in, only where this server has it set up', async () => {
    const fake = createFakeApi();
    const oauthSchool = async (code: string) => ({ ...(await fake.organization(demoOrganizations.id)), code, login_method: 2 as const });
    const startUrl = (org: string) => `/api/sso/oidc/start?school=${org}`;
    const configured = { ...fake, organization: oauthSchool, clientConfig: async () => ({ ...(await fake.clientConfig()), oidc_enabled: true }) };
    const place = await loadLoginPlace(configured, { school: 'GRADUS-OAUTH' }, startUrl);
    expect(place.kind).toBe('sso');
    expect(place.ssoUrl).toBe('/api/sso/oidc/start?school=GRADUS-OAUTH');
    const unconfigured = { ...fake, organization: oauthSchool };
    const without = await loadLoginPlace(unconfigured, { school: 'GRADUS-OAUTH' }, startUrl);
    expect(without.kind).toBe('sso');
    expect(without.ssoUrl).toBeNull();
  });
});

describe('session journeys on the kiosk', () => {
  it('an examinee login lands on the exam list; the exam machine starts only once an exam is chosen', async () => {
    const { actor, storage } = boot(`/login?org_code=${demoOrganizations.examinee}`);
    await waitForKiosk(actor, (s) => s.children.session?.getSnapshot().matches({ signedOut: { login: 'ready' } }) ?? false);
    session(actor).send({ type: 'login.submitted', login_id: demoLogins.examinee, password: DEMO_PASSWORD });
    await waitForKiosk(actor, (s) => selectScreen(s) === 'exam-list' && s.children.session?.getSnapshot().matches({ signedIn: { examList: { list: 'ready' } } }) === true);
    expect(selectPath(actor.getSnapshot())).toBe('/exam');
    expect(actor.getSnapshot().children.exam).toBeUndefined();
    // A locked step cannot be chosen.
    session(actor).send({ type: 'exam.chosen', scheduleHistoryId: 8 });
    expect(actor.getSnapshot().children.exam).toBeUndefined();
    session(actor).send({ type: 'exam.chosen', scheduleHistoryId: 7 });
    await waitForKiosk(actor, (s) => selectPath(s) === '/login-confirm');
    expect(readSession(storage)?.schedule_history_id).toBe(7);
  });

  it('a my-page user registers basic info, sees it, then the testing menu', async () => {
    const { actor, api } = boot(`/login?org_code=${demoOrganizations.id}`);
    await waitForKiosk(actor, (s) => s.children.session?.getSnapshot().matches({ signedOut: { login: 'ready' } }) ?? false);
    session(actor).send({ type: 'login.submitted', login_id: demoLogins.myPage, password: DEMO_PASSWORD });
    await waitForKiosk(actor, (s) => selectPath(s) === '/examinee-input-info');
    session(actor).send({ type: 'basicInfo.changed', values: { examinee_name: 'Aiko', grade_id: null, email: 'aiko@' } });
    session(actor).send({ type: 'basicInfo.reviewed' });
    expect(actor.getSnapshot().children.session?.getSnapshot().context.basicInfo.errors).toEqual({ grade_id: 'required', email: 'invalid' });
    session(actor).send({ type: 'basicInfo.changed', values: { examinee_name: 'Aiko', grade_id: 99, email: 'aiko@example.com' } });
    session(actor).send({ type: 'basicInfo.reviewed' });
    session(actor).send({ type: 'basicInfo.confirmed' });
    await waitForKiosk(actor, (s) => selectPath(s) === '/examinee-info');
    session(actor).send({ type: 'basicInfo.acknowledged' });
    await waitForKiosk(actor, (s) => s.children.session?.getSnapshot().matches({ signedIn: { testingMenu: 'ready' } }) ?? false);
    expect(selectPath(actor.getSnapshot())).toBe('/testing-menu');
    expect(api.calls).toContain('saveExamineeInfo');
    session(actor).send({ type: 'test.chosen' });
    await waitForKiosk(actor, (s) => selectPath(s) === '/login-confirm');
  });

  it('a partner login type leaves for its configured site at logout, leaving nothing', async () => {
    const { actor, storage, left } = boot('/oauth-egypt?token=egypt-token&orgCode=EG1');
    await waitForKiosk(actor, (s) => selectPath(s) === '/exam');
    session(actor).send({ type: 'logout.requested' });
    await waitForKiosk(actor, () => left.length === 1);
    expect(left).toEqual(['https://egypt.example/']);
    expect(Object.keys(storage.dump())).toEqual([]);
  });

  it('any other 401 on a signed-in call ends the session on the login page with the error', async () => {
    const api = createFakeApi();
    api.failNext('exams', 'NOT_LOGGED_IN', 401);
    const { actor, storage } = boot('/oauth?accessToken=sso&schoolId=ORG1', api);
    await waitForKiosk(actor, (s) => selectPath(s)?.startsWith('/login?') ?? false);
    expect(selectPath(actor.getSnapshot())).toBe('/login?school=ORG1&error_code=GENERIC_ERROR');
    expect(storage.getItem(storageKeys.token)).toBeNull();
  });

  it('DURING_MAINTENANCE ends the session with the outside-test-hours message on the login page', async () => {
    const api = createFakeApi();
    api.failNext('exams', 'DURING_MAINTENANCE', 401);
    const { actor } = boot('/oauth?accessToken=sso&schoolId=ORG1', api);
    await waitForKiosk(actor, (s) => s.children.session?.getSnapshot().matches({ signedOut: { login: 'ready' } }) ?? false);
    expect(actor.getSnapshot().children.session?.getSnapshot().context.passwordError).toEqual({ kind: 'failure', code: 'DURING_MAINTENANCE' });
  });
});
