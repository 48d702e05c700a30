/**
 * session.connect.ts as a pure function: a snapshot of the session machine (driven with its own
 * events, its calls answered by hand) in, exactly what each session screen renders out. The login
 * pages say what they wait for and why they refused; the entry routes say why they failed; the
 * registered details read a missing grade as Other; the menu is judged at the server's time; the
 * exam list is ordered and says per row what the pupil can do; every callback sends the event it
 * names, to the session itself.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { OTHER_GRADE, gradeIds, type ExamListItem, type LoginResponse } from '../../contract/session.ts';
import { connect } from '../../machines/session/session.connect.ts';
import { sessionFromLogin, sessionMachine } from '../../machines/session/session.machine.ts';
import type { LoginPlace, SessionEvent, SessionInput } from '../../machines/session/session.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { demoChooseStatus, demoExamList, demoExaminee } from '../helpers/fake-api.ts';
import { never } from '../helpers/never.ts';

const serverTime = '2026-11-22T09:00:00.000Z';
const uuid = '00000000-0000-4000-8000-000000000000';
const loginResponse: LoginResponse = { access_token: 'token-1', examinee: demoExaminee, server_time: serverTime };
const myPage = (examinee: Partial<LoginResponse['examinee']> = {}) =>
  sessionFromLogin({ ...loginResponse, examinee: { ...demoExaminee, login_type: 1, is_my_page_login: true, ...examinee } }, uuid);
const examineeLogin = sessionFromLogin(
  { ...loginResponse, examinee: { ...demoExaminee, login_type: 5, org_login_method: 3, schedule_history_id: null } },
  uuid,
);
const place: LoginPlace = {
  organizationName: 'Sakura Primary',
  scheduleName: 'November 2026',
  venueName: 'Room 1',
  kind: 'examinee',
  orgCode: 'ORG1',
  ssoUrl: null,
  scheduleCode: 'SCH-2026',
  venueId: 1,
};

/** The session machine over calls that never settle: each test answers them by hand. */
function start(input: SessionInput = { storedSession: null }) {
  const machine = sessionMachine.provide({
    actors: {
      loginWithCode: never(),
      loadLoginPlace: never(),
      loginWithPassword: never(),
      exchangeKenyaToken: never(),
      identifyToken: never(),
      saveBasicInfo: never(),
      loadTestingMenu: never(),
      loadExamList: never(),
      loadClientConfig: never(),
      endServerSession: never(),
      payment: createMachine({}),
    } as never,
    actions: {
      persistSession: () => {},
      wipeSession: () => {},
      holdRevocation: () => {},
      dropRevocation: () => {},
      persistChange: () => {},
      persistEntry: () => {},
      persistSchoolId: () => {},
      leaveApp: () => {},
      notifySignedIn: () => {},
      notifySignedOut: () => {},
    } as never,
  });
  const actor = createActor(machine, { input }).start();
  const api = () => connect(actor.getSnapshot(), actor.send);
  return { actor, api };
}

const answer = (actor: { send(event: never): void }, id: string, output: unknown) =>
  actor.send({ type: `xstate.done.actor.${id}`, output } as never);
const refuse = (actor: { send(event: never): void }, id: string, error: unknown) =>
  actor.send({ type: `xstate.error.actor.${id}`, error } as never);
const unmatched = (path: string, search: Record<string, string> = {}) =>
  ({ type: 'location.unmatched', path, search, known: true }) as const;

/** Every event a callback sent. */
function sent(run: (api: ReturnType<typeof connect>) => void, input?: SessionInput): SessionEvent[] {
  const { actor } = start(input);
  const send = vi.fn<(event: SessionEvent) => void>();
  run(connect(actor.getSnapshot(), send));
  return send.mock.calls.map(([event]) => event);
}

describe('session connect: the login pages', () => {
  it('login-code: waits while the code is on its way, says which field rule or call refused it', () => {
    const { actor, api } = start();
    expect(api().loginCode).toMatchObject({ busy: false, error: null });
    actor.send({ type: 'loginCode.submitted', code: ' ' });
    expect(api().loginCode.error).toEqual({ kind: 'field', rule: 'required' });
    actor.send({ type: 'loginCode.submitted', code: 'AC3E-F4GH-J6KM' });
    expect(api().loginCode).toMatchObject({ busy: true, error: null });
    refuse(actor, 'loginWithCode', new ApiFailure('LOGIN_CODE_INCORRECT', 401));
    expect(api().loginCode).toMatchObject({ busy: false, error: { kind: 'failure', code: 'LOGIN_CODE_INCORRECT' } });
  });

  it('login: loading the place, the place with its kind, a refused login, and a place that failed to load', () => {
    const { actor, api } = start();
    actor.send(unmatched('/login', { org_code: 'ORG1' }));
    expect(api().login).toMatchObject({ status: 'loading', place: null, kind: 'id', ssoUrl: null, busy: false, error: null });
    answer(actor, 'loadLoginPlace', place);
    // Exactly what the page shows of its place: school, schedule and venue.
    expect(api().login).toMatchObject({
      status: 'ready',
      place: { organizationName: 'Sakura Primary', scheduleName: 'November 2026', venueName: 'Room 1' },
      kind: 'examinee',
    });
    expect(Object.keys(api().login.place!)).toEqual(['organizationName', 'scheduleName', 'venueName']);
    actor.send({ type: 'login.submitted', login_id: ' ', password: '' });
    expect(api().login.error).toEqual({ kind: 'fields', fields: { login_id: 'required', password: 'required' } });
    actor.send({ type: 'login.submitted', login_id: 'pupil', password: 'secret' });
    expect(api().login).toMatchObject({ busy: true, error: null });

    const other = start();
    other.actor.send(unmatched('/login', { org_code: 'ORG1' }));
    refuse(other.actor, 'loadLoginPlace', new ApiFailure('NETWORK_ERROR'));
    expect(other.api().login).toMatchObject({ status: 'error', error: { kind: 'failure', code: 'NETWORK_ERROR' } });
    other.api().login.retry();
    expect(other.api().login.status).toBe('loading');
  });

  it('login: an unknown organisation or schedule is the invalid page', () => {
    const { actor, api } = start();
    actor.send(unmatched('/login', { org_code: 'NOPE' }));
    refuse(actor, 'loadLoginPlace', new ApiFailure('INVALID_SCHEDULE', 404));
    expect(api().login.status).toBe('invalid');
  });

  it('entry: works while the token is being checked; says why it failed', () => {
    const { actor, api } = start();
    actor.send(unmatched('/oauth', { accessToken: 'token-sso', schoolId: 'S1' }));
    expect(api().entry).toEqual({ status: 'working', error: null });
    const failed = start();
    failed.actor.send(unmatched('/oauth', { error: '1', errorCode: 'invalid_state', schoolId: 'S1' }));
    expect(failed.api().entry).toEqual({ status: 'failed', error: { kind: 'sso', code: 'invalid_state' } });
  });

  it('sends what the login pages do to the session', () => {
    expect(
      sent((api) => {
        api.loginCode.submit('AC3E-F4GH-J6KM');
        api.login.submit({ login_id: 'pupil', password: 'secret' });
        api.login.retry();
        api.goToLogin();
      }),
    ).toEqual([
      { type: 'loginCode.submitted', code: 'AC3E-F4GH-J6KM' },
      { type: 'login.submitted', login_id: 'pupil', password: 'secret' },
      { type: 'retry.requested' },
      { type: 'login.requested' },
    ]);
  });
});

describe('session connect: basic information', () => {
  it('the form: the values as the machine holds them, its errors, the grades offered, and its steps', () => {
    const { actor, api } = start({ storedSession: myPage({ grade_id: null, email: null }) });
    expect(api().inputInfo).toMatchObject({
      step: 'editing',
      values: { examinee_name: 'Aiko Tanaka', grade_id: null, email: '' },
      errors: {},
      failure: null,
      grades: gradeIds,
    });
    api().inputInfo.review();
    expect(api().inputInfo.errors).toEqual({ grade_id: 'required', email: 'required' });
    api().inputInfo.change({ examinee_name: 'Aiko Tanaka', grade_id: OTHER_GRADE, email: 'aiko@example.com' });
    api().inputInfo.review();
    expect(api().inputInfo.step).toBe('confirming');
    api().inputInfo.edit();
    expect(api().inputInfo.step).toBe('editing');
    api().inputInfo.review();
    api().inputInfo.confirm();
    expect(api().inputInfo.step).toBe('saving');
    refuse(actor, 'saveBasicInfo', new ApiFailure('NETWORK_ERROR'));
    expect(api().inputInfo).toMatchObject({ step: 'confirming', failure: 'NETWORK_ERROR' });
  });

  it('the registered details: as the server registered them, a grade it does not know read as Other (99)', () => {
    const known = start({ storedSession: myPage({ grade_id: 7, email: 'aiko@example.com' }) });
    expect(known.api().info.info).toEqual({ examinee_name: 'Aiko Tanaka', grade_id: 7, email: 'aiko@example.com' });
    known.api().info.acknowledge();
    expect(known.actor.getSnapshot().matches({ signedIn: 'testingMenu' })).toBe(true);

    const { actor, api } = start({ storedSession: myPage({ grade_id: null, email: null }) });
    api().inputInfo.change({ examinee_name: 'Aiko Tanaka', grade_id: OTHER_GRADE, email: 'aiko@example.com' });
    api().inputInfo.review();
    api().inputInfo.confirm();
    answer(actor, 'saveBasicInfo', {
      examinee: { ...demoExaminee, grade_id: null, email: 'aiko@example.com' },
      server_time: serverTime,
    });
    expect(api().info.info).toEqual({ examinee_name: 'Aiko Tanaka', grade_id: OTHER_GRADE, email: 'aiko@example.com' });
  });
});

describe('session connect: the testing menu', () => {
  it('loads, then gives the menu judged at the server time of its status', () => {
    const { actor, api } = start({ storedSession: myPage({ grade_id: 7, email: 'aiko@example.com' }) });
    actor.send({ type: 'basicInfo.acknowledged' });
    expect(api().menu).toMatchObject({ status: 'loading', menu: null, error: null });
    // The release date is a day after the status's server time, though long past by this terminal's clock.
    const status = {
      ...demoChooseStatus,
      exam: { schedule_history_id: 7, status: 1 as const, can_take: false },
      result: { released: false, payment_status: 0 as const, release_at: '2026-11-23T09:00:00.000Z' },
      server_time: serverTime,
    };
    answer(actor, 'loadTestingMenu', status);
    expect(api().menu).toMatchObject({
      status: 'ready',
      menu: { fee: 'not_required', exam: 'completed', result: 'waiting', releaseAt: '2026-11-23T09:00:00.000Z', next: null },
    });
  });

  it('tells a failed load and tries again', () => {
    const { actor, api } = start({ storedSession: myPage({ grade_id: 7, email: 'aiko@example.com' }) });
    actor.send({ type: 'basicInfo.acknowledged' });
    refuse(actor, 'loadTestingMenu', new ApiFailure('NETWORK_ERROR'));
    expect(api().menu).toMatchObject({ status: 'error', error: 'NETWORK_ERROR' });
    api().menu.retry();
    expect(api().menu.status).toBe('loading');
  });

  it('sends what the menu does to the session', () => {
    expect(
      sent((api) => {
        api.menu.takeTest();
        api.menu.payFee();
        api.menu.viewResults();
        api.menu.retry();
        api.menu.logout();
      }),
    ).toEqual([
      { type: 'test.chosen' },
      { type: 'fee.payRequested' },
      { type: 'results.viewRequested' },
      { type: 'retry.requested' },
      { type: 'logout.requested' },
    ]);
  });
});

describe('session connect: the exam list', () => {
  const row = (id: number, status: ExamListItem['status'], order: number, locked = false): ExamListItem => ({
    ...demoExamList[0]!,
    schedule_history_id: id,
    level: { id, name: `Level ${order}`, order },
    status,
    locked,
  });

  it('gives each row what the pupil can do: start, continue, locked, completed, cancelled, closed', () => {
    const { actor, api } = start({ storedSession: examineeLogin });
    expect(api().examList).toMatchObject({ status: 'loading', rows: [], stepMode: false });
    const exams = [row(1, 0, 1), row(2, 6, 2), row(3, 0, 3, true), row(4, 4, 4), row(5, 2, 5), row(6, 7, 6), row(7, 3, 7), row(8, 6, 8, true)];
    answer(actor, 'loadExamList', { exams, server_time: serverTime });
    expect(api().examList.status).toBe('ready');
    expect(api().examList.rows.map((r) => [r.schedule_history_id, r.action])).toEqual([
      [1, 'start'],
      [2, 'continue'],
      [3, 'locked'],
      [4, 'completed'],
      [5, 'cancelled'],
      [6, 'closed'],
      [7, 'completed'],
      [8, 'locked'],
    ]);
  });

  it('in step mode gives the levels in their order', () => {
    const { actor, api } = start({ storedSession: { ...examineeLogin, enable_mode_step: true } });
    answer(actor, 'loadExamList', { exams: [row(3, 0, 3, true), row(1, 1, 1), row(2, 0, 2)], server_time: serverTime });
    expect(api().examList.stepMode).toBe(true);
    expect(api().examList.rows.map((r) => [r.schedule_history_id, r.action])).toEqual([
      [1, 'completed'],
      [2, 'start'],
      [3, 'locked'],
    ]);
  });

  it('tells a failed load and tries again; sends what the list does to the session', () => {
    const { actor, api } = start({ storedSession: examineeLogin });
    refuse(actor, 'loadExamList', new ApiFailure('NETWORK_ERROR'));
    expect(api().examList).toMatchObject({ status: 'error', error: 'NETWORK_ERROR' });
    expect(
      sent((list) => {
        list.examList.choose(7);
        list.examList.retry();
        list.examList.logout();
      }),
    ).toEqual([{ type: 'exam.chosen', scheduleHistoryId: 7 }, { type: 'retry.requested' }, { type: 'logout.requested' }]);
  });
});
