/**
 * The session machine's screens stated outright (seed section 2's screen list, rules 5 and 7):
 * which state shows which screen at which path, which login pages keep their query, which states
 * show the busy bar, which screens a typed URL may route to directly, and where a reload on a
 * my-page screen past the menu lands (that screen, once the menu is read again; or the menu). The kiosk's route table
 * and the view read these from the machine, so a wrong path or screen name here is a wrong URL
 * or a blank screen there.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, type AnyStateNode } from 'xstate';
import { sessionFromLogin, sessionMachine } from '../../machines/session/session.machine.ts';
import type { SessionInput } from '../../machines/session/session.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { demoChooseStatus, demoExaminee } from '../helpers/fake-api.ts';

/** `node` and every state node below it. */
function nodesOf(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => nodesOf(child))];
}
const nodes = nodesOf(sessionMachine.root);

describe('the session machine: screens, paths and the busy bar', () => {
  it('names the screen and path of every state that shows one, and keeps the query of the login pages', () => {
    const metas = Object.fromEntries(nodes.filter((node) => node.meta !== undefined).map((node) => [node.path.join('.'), node.meta]));
    expect(metas).toEqual({
      'signedOut.loginCode': { path: '/login-code', screen: 'login-code', withSearch: true },
      'signedOut.login': { path: '/login', screen: 'login', withSearch: true },
      'signedOut.entering': { screen: 'entry' },
      'signedOut.entryFailed': { screen: 'entry' },
      'signedOut.forbidden': { path: '/403', screen: 'forbidden' },
      'signedOut.notFound': { path: '/404', screen: 'not-found' },
      'signedOut.examEndKept': { path: '/exam-end', screen: 'exam-end' },
      'signedOut.leavingForPartner': { screen: 'entry' },
      'signedOut.left': { screen: 'entry' },
      'signedIn.inputInfo': { path: '/examinee-input-info', screen: 'examinee-input-info' },
      'signedIn.info': { path: '/examinee-info', screen: 'examinee-info' },
      'signedIn.testingMenu': { path: '/testing-menu', screen: 'testing-menu' },
      'signedIn.payExamFee': { path: '/pay-exam-fee', screen: 'pay-exam-fee' },
      'signedIn.results': { screensOf: 'results' },
      'signedIn.examList': { screen: 'exam-list' },
      'signedIn.examList.page.plain': { path: '/exam' },
      'signedIn.examList.page.stepMode': { path: '/exam-step-mode' },
    });
  });

  it('shows the busy bar exactly while a call is on its way or the pupil is leaving', () => {
    const busy = nodes.filter((node) => node.tags.includes('busy')).map((node) => node.path.join('.'));
    expect(busy.sort()).toEqual(
      [
        'signedOut.loginCode.submitting',
        'signedOut.login.loadingPlace',
        'signedOut.login.submitting',
        'signedOut.entering',
        'signedOut.leavingForPartner',
        'signedOut.left',
        'signedIn.inputInfo.saving',
        'signedIn.testingMenu.loading',
        'signedIn.reopening',
        'signedIn.examList.list.loading',
        'signingOut',
      ].sort(),
    );
    expect(nodes.flatMap((node) => node.tags).every((tag) => tag === 'busy')).toBe(true);
  });
});

/** The session machine alone (see `sessionLogic`), started: only where it goes and what it stores matter here. */
function boot(input: Partial<SessionInput> = {}, actions: string[] = []) {
  return createActor(sessionLogic(actions), { input: { storedSession: null, ...input } as SessionInput }).start();
}

/** The session machine with calls that never settle, storage and revocation writes noted; telling the parent stays its own unless `quiet`. */
function sessionLogic(actions: string[], quiet = true) {
  const pending = fromPromise(() => new Promise<never>(() => {}));
  const idle = createMachine({});
  const none = () => {};
  // Each write by name; a revocation's with its token.
  const note = (name: string) => (_: unknown, params?: { token?: string }) => void actions.push(params?.token ? `${name} ${params.token}` : name);
  return sessionMachine.provide({
    actors: {
      loginWithCode: pending,
      loadLoginPlace: pending,
      loginWithPassword: pending,
      exchangeKenyaToken: pending,
      identifyToken: pending,
      saveBasicInfo: pending,
      loadTestingMenu: pending,
      loadExamList: pending,
      loadClientConfig: pending,
      endServerSession: pending,
      payment: idle,
      results: idle,
    } as never,
    actions: {
      persistSession: note('persistSession'),
      wipeSession: none,
      holdRevocation: note('holdRevocation'),
      dropRevocation: note('dropRevocation'),
      persistChange: none,
      persistEntry: note('persistEntry'),
      persistSchoolId: note('persistSchoolId'),
      leaveApp: none,
      ...(quiet ? { notifySignedIn: none, notifySignedOut: none } : {}),
    } as never,
  });
}
type Session = ReturnType<typeof boot>;
const route = (actor: Session, to: string) => actor.send({ type: 'xstate.route', to } as never);
const value = (actor: Session) => actor.getSnapshot().value;

const serverTime = '2026-11-22T09:00:00.000Z';
const myPage = { ...sessionFromLogin({ access_token: 't', examinee: demoExaminee, server_time: serverTime }, 'u'), is_my_page_login: true, email: 'a@b.cd' };

/** A my-page pupil on the testing menu, its status loaded: the fee due and the result released. */
function onMenu() {
  const actor = boot({ storedSession: { ...myPage, schedule_history_id: null } });
  actor.send({ type: 'basicInfo.acknowledged' });
  const status = {
    ...demoChooseStatus,
    server_time: serverTime,
    exam_fee: { required: true, status: 0 },
    exam: { ...demoChooseStatus.exam, schedule_history_id: 7, can_take: false },
    result: { ...demoChooseStatus.result, released: true },
  };
  actor.send({ type: 'xstate.done.actor.loadTestingMenu', output: status } as never);
  expect(value(actor)).toEqual({ signedIn: { testingMenu: 'ready' } });
  return actor;
}

describe('the session machine: a reload on a my-page screen past the menu', () => {
  /** A registered my-page pupil's session restored by a reload: it lands on the basic information. */
  const reloaded = () => {
    const actor = boot({ storedSession: { ...myPage, schedule_history_id: null } });
    expect(value(actor)).toEqual({ signedIn: 'info' });
    return actor;
  };
  const reloadAt = (path: string, search: Record<string, string> = {}) => {
    const actor = reloaded();
    actor.send({ type: 'location.unmatched', path, known: true, search });
    return actor;
  };
  const status = (exam_fee: { required: boolean; status: 0 | 1 | 2 }, released: boolean) => ({
    ...demoChooseStatus,
    server_time: serverTime,
    exam_fee,
    exam: { ...demoChooseStatus.exam, schedule_history_id: 7, can_take: false },
    result: { ...demoChooseStatus.result, released },
  });
  const menuAnswers = (actor: Session, output: ReturnType<typeof status>) =>
    actor.send({ type: 'xstate.done.actor.loadTestingMenu', output } as never);

  it('reads the menu again with no screen of its own (the URL stays), busy, the screen remembered', () => {
    for (const path of ['/pay-exam-fee', '/short-result', '/pay-exam-result', '/purchased-result', '/score-report/7']) {
      const actor = reloadAt(path);
      expect(value(actor)).toEqual({ signedIn: 'reopening' });
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(actor.getSnapshot().getMeta()).toEqual({});
      expect(actor.getSnapshot().context.reloadedAt).toBe(path);
    }
  });

  it('the fee still to pay (or pending): the fee payment; paid meanwhile: the menu', () => {
    for (const feeStatus of [0, 1] as const) {
      const actor = reloadAt('/pay-exam-fee');
      menuAnswers(actor, status({ required: true, status: feeStatus }, false));
      expect(value(actor)).toEqual({ signedIn: 'payExamFee' });
      expect(actor.getSnapshot().context.reloadedAt).toBeNull();
    }
    const paid = reloadAt('/pay-exam-fee');
    menuAnswers(paid, status({ required: true, status: 2 }, false));
    expect(value(paid)).toEqual({ signedIn: { testingMenu: 'ready' } });
    expect(paid.getSnapshot().context.reloadedAt).toBeNull();
  });

  it('a results screen with the result released: the results, opened on that screen for the menu\'s sitting; else the menu', () => {
    const childInputs: unknown[] = [];
    // The results as a child that notes the input it was opened with.
    const logic = sessionLogic([]).provide({
      actors: { results: createMachine({ context: ({ input }) => (childInputs.push(input), {}) }) } as never,
    });
    for (const path of ['/short-result', '/pay-exam-result', '/purchased-result', '/score-report/7']) {
      const actor = createActor(logic, { input: { storedSession: { ...myPage, schedule_history_id: null } } }).start();
      actor.send({ type: 'location.unmatched', path, known: true, search: {} });
      menuAnswers(actor, status({ required: false, status: 0 }, true));
      expect(value(actor)).toEqual({ signedIn: 'results' });
      expect(actor.getSnapshot().context.reloadedAt).toBe(path);
      expect(childInputs.at(-1)).toStrictEqual({ scheduleHistoryId: 7, appOrigin: 'http://localhost', returning: null, reloadedAt: path });
      // Back to the menu: the reload is over.
      route(actor, '#sessionTestingMenu');
      expect(actor.getSnapshot().context.reloadedAt).toBeNull();
    }
    const notReleased = reloadAt('/short-result');
    menuAnswers(notReleased, status({ required: false, status: 0 }, false));
    expect(value(notReleased)).toEqual({ signedIn: { testingMenu: 'ready' } });
  });

  it('the menu failing shows on the menu (Try again); a 401 ends the session as any call\'s does', () => {
    const failed = reloadAt('/short-result');
    failed.send({ type: 'xstate.error.actor.loadTestingMenu', error: new ApiFailure('NETWORK_ERROR') } as never);
    expect(value(failed)).toEqual({ signedIn: { testingMenu: 'failed' } });
    expect(failed.getSnapshot().context).toMatchObject({ failure: 'NETWORK_ERROR', reloadedAt: null });
    const refused = reloadAt('/short-result');
    refused.send({ type: 'xstate.error.actor.loadTestingMenu', error: new ApiFailure('DURING_MAINTENANCE', 401) } as never);
    expect(value(refused)).toEqual('signingOut');
    expect(refused.getSnapshot().context.reloadedAt).toBeNull();
  });

  it("the provider's redirect back is no reload: it keeps its own way (the payment confirms its checkout)", () => {
    const search = { schedule_history_id: '9', reference: 'GR-00000000-0000-4000-8000-000000000001', sessionId: 'CS1', redirectResult: 'R' };
    const fee = reloadAt('/pay-exam-fee', search);
    expect(value(fee)).toEqual({ signedIn: 'payExamFee' });
    expect(fee.getSnapshot().context.paymentReturn).toMatchObject({ scheduleHistoryId: 9 });
    const results = reloadAt('/pay-exam-result', search);
    expect(value(results)).toEqual({ signedIn: 'results' });
    expect(results.getSnapshot().context.reloadedAt).toBeNull();
  });

  it('other paths on the basic information are not a reload of these screens: it stays', () => {
    for (const path of ['/examinee-input-info', '/exam', '/score-report/x']) {
      const actor = reloadAt(path);
      expect(value(actor)).toEqual({ signedIn: 'info' });
    }
  });
});

describe('the session machine: screens a URL routes to directly', () => {
  it('Back from the exam fee or the results is the testing menu again, loaded anew; not from the menu or the form', () => {
    const fee = onMenu();
    fee.send({ type: 'fee.payRequested' });
    expect(value(fee)).toEqual({ signedIn: 'payExamFee' });
    route(fee, '#sessionTestingMenu');
    expect(value(fee)).toEqual({ signedIn: { testingMenu: 'loading' } });

    const results = onMenu();
    results.send({ type: 'results.viewRequested' });
    expect(value(results)).toEqual({ signedIn: 'results' });
    route(results, '#sessionTestingMenu');
    expect(value(results)).toEqual({ signedIn: { testingMenu: 'loading' } });

    // On the menu itself, or on the basic information form (nothing registered yet), the URL of the menu changes nothing.
    const menu = onMenu();
    route(menu, '#sessionTestingMenu');
    expect(value(menu)).toEqual({ signedIn: { testingMenu: 'ready' } });
    const form = boot({ storedSession: { ...myPage, grade_id: null } });
    expect(value(form)).toEqual({ signedIn: { inputInfo: 'editing' } });
    route(form, '#sessionTestingMenu');
    expect(value(form)).toEqual({ signedIn: { inputInfo: 'editing' } });
  });

  it('a reload of the menu: the restored session lands on the basic information, and the menu\'s URL goes on to the menu', () => {
    // The URL is accepted there: a my-page pupil who reloads the menu does not stay on /examinee-info.
    const info = boot({ storedSession: myPage });
    expect(value(info)).toEqual({ signedIn: 'info' });
    route(info, '#sessionTestingMenu');
    expect(value(info)).toEqual({ signedIn: { testingMenu: 'loading' } });
  });

  it('the login code page, /403 and /404 only while nobody is signed in', () => {
    for (const target of ['#sessionLoginCode', '#sessionForbidden', '#sessionNotFound']) {
      const signedIn = onMenu();
      route(signedIn, target);
      expect(value(signedIn)).toEqual({ signedIn: { testingMenu: 'ready' } });
    }
    const signedOut = boot();
    route(signedOut, '#sessionNotFound');
    expect(value(signedOut)).toEqual({ signedOut: 'notFound' });
    route(signedOut, '#sessionForbidden');
    expect(value(signedOut)).toEqual({ signedOut: 'forbidden' });
    route(signedOut, '#sessionLoginCode');
    expect(value(signedOut)).toEqual({ signedOut: { loginCode: 'editing' } });
  });
});

const done = (actor: Session, id: string, output?: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
const failed = (actor: Session, id: string) => actor.send({ type: `xstate.error.actor.${id}`, error: new ApiFailure('NETWORK_ERROR') } as never);
const unmatched = (actor: Session, path: string, search: Record<string, string> = {}) =>
  actor.send({ type: 'location.unmatched', path, known: true, search });

describe('the session machine: what a screen forgets when the pupil leaves it', () => {
  it('signing out forgets a failed load and the basic information typed', () => {
    const menu = boot({ storedSession: myPage });
    menu.send({ type: 'basicInfo.acknowledged' });
    failed(menu, 'loadTestingMenu');
    expect(menu.getSnapshot().context.failure).toBe('NETWORK_ERROR');
    menu.send({ type: 'logout.requested' });
    done(menu, 'endServerSession');
    expect(value(menu)).toEqual({ signedOut: { loginCode: 'editing' } });
    expect(menu.getSnapshot().context.failure).toBeNull();

    const form = boot({ storedSession: { ...myPage, grade_id: null } });
    form.send({ type: 'basicInfo.changed', values: { examinee_name: 'Aiko', grade_id: 3, email: 'x' } });
    form.send({ type: 'basicInfo.reviewed' });
    expect(form.getSnapshot().context.basicInfo.errors).toEqual({ email: 'invalid' });
    form.send({ type: 'logout.requested' });
    done(form, 'endServerSession');
    expect(form.getSnapshot().context.basicInfo).toEqual({ values: { examinee_name: '', grade_id: null, email: '' }, errors: {}, failure: null });
  });

  it('"go to the login page" from /403, /404 and a kept end screen is the code login page without the earlier query', () => {
    for (const [path, known] of [
      ['/exam', true],
      ['/nope', false],
      ['/exam-end', true],
    ] as const) {
      const actor = boot({ storedErrorCode: 'ER_SCHEDULE_HISTORY_RETAKE' });
      unmatched(actor, '/login', { school: 'ORG1', error_code: 'ACCOUNT_LOCKED' });
      actor.send({ type: 'location.unmatched', path, known, search: {} });
      expect(value(actor)).not.toEqual({ signedOut: { login: 'loadingPlace' } });
      actor.send({ type: 'login.requested' });
      expect(value(actor)).toEqual({ signedOut: { loginCode: 'editing' } });
      expect(actor.getSnapshot().context).toMatchObject({ search: {}, loginError: null });
    }
  });

  it("the results forget the provider's redirect back once they end", () => {
    const actor = onMenu();
    const search = { schedule_history_id: '9', reference: 'GR-00000000-0000-4000-8000-000000000001', sessionId: 'CS1', redirectResult: 'R' };
    unmatched(actor, '/pay-exam-result', search);
    expect(value(actor)).toEqual({ signedIn: 'results' });
    expect(actor.getSnapshot().context.paymentReturn).toMatchObject({ scheduleHistoryId: 9 });
    done(actor, 'results', { refusal: null });
    expect(value(actor)).toEqual({ signedIn: { testingMenu: 'loading' } });
    expect(actor.getSnapshot().context.paymentReturn).toBeNull();
  });
});

describe('the session machine: which rule judges an entry URL', () => {
  it('rule 1 is /oauth\'s alone: an error or a stored token on another entry route is that route\'s (no token: unknown)', () => {
    const error = [] as string[];
    const kaigen = boot({}, error);
    unmatched(kaigen, '/oauth-kaigen', { error: 'x', errorCode: 'disabled_class', schoolId: 'S1' });
    expect(value(kaigen)).toEqual({ signedOut: 'entryFailed' });
    expect(kaigen.getSnapshot().context.entryError).toEqual({ kind: 'sso', code: 'unknown' });
    expect(error).toEqual([]);

    const kept = boot({ storedToken: 'kept' });
    unmatched(kept, '/oauth-kaigen', { schoolId: 'S1' });
    expect(value(kept)).toEqual({ signedOut: 'entryFailed' });
    expect(kept.getSnapshot().context).toMatchObject({ entry: null, entryError: { kind: 'sso', code: 'unknown' } });

    // A partner's `token` on /oauth is no access token of rule 1.
    const oauth = boot();
    unmatched(oauth, '/oauth', { token: 't' });
    expect(value(oauth)).toEqual({ signedOut: 'entryFailed' });
    expect(oauth.getSnapshot().context.entryError).toEqual({ kind: 'sso', code: 'unknown' });
  });

  it('an entry without a school: "go to the login page" is the code login page, the query and the failure forgotten', () => {
    const actor = boot();
    unmatched(actor, '/login', { school: 'ORG1' });
    unmatched(actor, '/oauth');
    expect(value(actor)).toEqual({ signedOut: 'entryFailed' });
    expect(actor.getSnapshot().context.search).toEqual({ school: 'ORG1' });
    actor.send({ type: 'login.requested' });
    expect(value(actor)).toEqual({ signedOut: { loginCode: 'editing' } });
    expect(actor.getSnapshot().context).toMatchObject({ search: {}, entry: null, entryError: null });
  });

  it("a Kenya exchange that fails is the entry's failure screen", () => {
    const actor = boot();
    unmatched(actor, '/oauth-kenya', { token: 'ke', orgCode: 'KE1' });
    failed(actor, 'exchangeKenyaToken');
    expect(value(actor)).toEqual({ signedOut: 'entryFailed' });
  });

  it('an identified entry stores the session it signs in with', () => {
    const actions: string[] = [];
    const actor = boot({}, actions);
    unmatched(actor, '/oauth-egypt', { token: 't', orgCode: 'EG1' });
    done(actor, 'identifyToken', { access_token: 't', examinee: demoExaminee, server_time: serverTime });
    expect(actions).toEqual(['persistEntry', 'persistSession']);
  });

  it('the kept end screen is /exam-end only; another protected path with a kept code is /403', () => {
    const actor = boot({ storedErrorCode: 'ER_SCHEDULE_HISTORY_RETAKE' });
    unmatched(actor, '/testing-menu');
    expect(value(actor)).toEqual({ signedOut: 'forbidden' });
  });

  it('a stored session with a chosen exam resumes it, even for a login type that lands on the exam list', () => {
    const actor = boot({ storedSession: { ...myPage, is_my_page_login: false, login_type: 5, schedule_history_id: 7 } });
    expect(value(actor)).toEqual({ signedIn: 'examFlow' });
  });

  it("the result payment's URL without the provider's return is no return: the menu stays", () => {
    const actor = onMenu();
    unmatched(actor, '/pay-exam-result', { schedule_history_id: '9' });
    expect(value(actor)).toEqual({ signedIn: { testingMenu: 'ready' } });
  });
});

describe('the session machine: what its parent (the kiosk) is told', () => {
  it('"signed in" with the session on entering the exam flow; "signed out" once the session has ended', () => {
    const told: Array<{ type: string; session?: unknown }> = [];
    const session = { ...myPage, is_my_page_login: false, schedule_history_id: 7 };
    const parent = createActor(
      createMachine({
        invoke: { id: 'session', src: sessionLogic([], false), input: { storedSession: session } },
        on: { '*': { actions: ({ event }) => void told.push(event) } },
      }),
    ).start();
    expect(told).toEqual([{ type: 'session.signedIn', session }]);
    const child = parent.getSnapshot().children.session!;
    child.send({ type: 'logout.requested' });
    child.send({ type: 'xstate.done.actor.endServerSession' } as never);
    expect(told.map((event) => event.type)).toEqual(['session.signedIn', 'session.signedOut']);
  });
});

describe('the session machine: signed in', () => {
  it('the basic information form starts from what the session has, a missing field empty', () => {
    const actor = boot({ storedSession: { ...myPage, grade_id: 3, email: null } });
    expect(value(actor)).toEqual({ signedIn: { inputInfo: 'editing' } });
    expect(actor.getSnapshot().context.basicInfo.values).toEqual({ examinee_name: myPage.examinee_name, grade_id: 3, email: '' });
  });

  it('the exam fee runs as the child `payment`, which its screen talks to', () => {
    const actor = onMenu();
    actor.send({ type: 'fee.payRequested' });
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['payment']);
  });

  it('a 401 at logout: the token held for revocation is dropped, that same token', () => {
    const actions: string[] = [];
    const actor = boot({ storedSession: { ...myPage, token: 'tok' } }, actions);
    actor.send({ type: 'logout.requested' });
    actor.send({ type: 'xstate.error.actor.endServerSession', error: new ApiFailure('NOT_LOGGED_IN', 401) } as never);
    expect(actions).toEqual(['holdRevocation tok', 'dropRevocation tok']);
  });
});
