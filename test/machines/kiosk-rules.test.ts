/**
 * The kiosk's own rules, stated outright with stand-in children that write down what they are
 * given: which event a location becomes for the session or the exam (a routable state's
 * `xstate.route`, or `location.unmatched` with whether the app knows the path and its query),
 * which child is started when, what the session's input is, and which of the exam's reports
 * reach the session as what. Also the route table helpers (routes.ts), the edge's fallbacks
 * without a staff API or terminal check (kiosk.actors.ts) and waitForKiosk's time-out.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, setup, type AnyEventObject, type AnyStateMachine } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { connectivityModules, documentModules, examModules, preloadKioskChildren, proctorModules } from '../../machines/kiosk/kiosk.lazy.ts';
import { kioskMachine, knownPaths } from '../../machines/kiosk/kiosk.machine.ts';
import { matchesPath, pathOf, routeTableOf, screenActorOf, screenOf } from '../../machines/kiosk/routes.ts';
import { selectActiveChild, selectPath, selectScreen } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk, watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { createFakeApi, demoExaminee } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const session = sessionFromLogin(
  { access_token: 'token-1', examinee: demoExaminee, server_time: '2026-11-22T09:00:00.000Z' },
  '0f0e0d0c-0b0a-4908-8706-050403020100',
);

interface Log {
  events: AnyEventObject[];
  inputs: unknown[];
}

/** A child that keeps every event and its input; `done` ends it on `stand.done`. */
function recorder(log: Log, meta?: Record<string, unknown>) {
  return createMachine({
    context: ({ input }) => {
      log.inputs.push(input);
      return {};
    },
    initial: 'shown',
    states: { shown: { ...(meta ? { meta } : {}), on: { 'stand.done': 'over' } }, over: { type: 'final' } },
    on: { '*': { actions: ({ event }) => void log.events.push(event) } },
  });
}

const newLog = (): Log => ({ events: [], inputs: [] });

function boot(input: Record<string, unknown> = { storedSession: null }) {
  const logs = { session: newLog(), exam: newLog(), document: newLog(), proctor: newLog(), connectivity: newLog() };
  const machine = kioskMachine.provide({
    actors: {
      session: recorder(logs.session, { screen: 'login-code', path: '/login-code' }),
      exam: recorder(logs.exam, { screen: 'exam-start', path: '/exam-start' }),
      document: recorder(logs.document, { screen: 'score-report-embed' }),
      proctor: recorder(logs.proctor, { screen: 'proctor', path: '/proctor' }),
      connectivity: recorder(logs.connectivity, { screen: 'connectivity', path: '/checking-domain-connection' }),
    } as never,
  });
  const actor = createActor(machine, { input: input as never }).start();
  return { actor, logs };
}

const typesOf = (log: Log) => log.events.map((event) => event.type).filter((type) => !type.startsWith('xstate.init'));
const lastOf = (log: Log) => log.events.at(-1);

// First in this file: nothing has loaded the children's modules yet.
describe('kiosk: the children that load on demand', () => {
  it('preloads each child: its machine and its real calls', async () => {
    await preloadKioskChildren();
    const [exam, examCalls] = examModules.current()!;
    expect(exam.examMachine.id).toBe('exam');
    expect(typeof examCalls.examImplementations).toBe('function');
    const [proctor, proctorCalls] = proctorModules.current()!;
    expect(proctor.proctorMachine.id).toBe('proctor');
    expect(typeof proctorCalls.proctorImplementations).toBe('function');
    const [connectivity, connectivityCalls] = connectivityModules.current()!;
    expect(connectivity.connectivityMachine.id).toBe('connectivity');
    expect(typeof connectivityCalls.connectivityImplementations).toBe('function');
    const [document, documentCalls] = documentModules.current()!;
    expect(document.documentMachine.id).toBe('document');
    expect(typeof documentCalls.documentImplementations).toBe('function');
  });
});

describe('kiosk: locations become events for the session', () => {
  it('a routable session path is an xstate.route to its state', () => {
    const { actor, logs } = boot();
    actor.send({ type: 'location.changed', path: '/login-code' });
    expect(lastOf(logs.session)).toStrictEqual({ type: 'xstate.route', to: '#sessionLoginCode' });
    actor.send({ type: 'location.changed', path: '/testing-menu', search: { a: '1' } });
    expect(lastOf(logs.session)).toStrictEqual({ type: 'xstate.route', to: '#sessionTestingMenu' });
  });

  it.each([
    ['/', true],
    ['/login', true],
    ['/exam', true],
    ['/start', true],
    ['/exam-end', true],
    ['/short-result', true],
    ['/pay-exam-result', true],
    ['/oauth', true],
    ['/oauth-kenya', true],
    ['/app-entry', true],
    ['/score-report/42', true],
    ['/score-report/0', false],
    ['/score-report/abc', false],
    ['/score-report/', false],
    ['/no-such-page', false],
    ['/login-codes', false],
  ])('%s is unmatched for the session, known: %s, with an empty query by default', (path, known) => {
    const { actor, logs } = boot();
    actor.send({ type: 'location.changed', path });
    expect(lastOf(logs.session)).toStrictEqual({ type: 'location.unmatched', path, known, search: {} });
    expect(actor.getSnapshot().value).toBe('visitor');
  });

  it('passes the query on with an unmatched path', () => {
    const { actor, logs } = boot();
    actor.send({ type: 'location.changed', path: '/login', search: { org_code: 'ORG1' } });
    expect(lastOf(logs.session)).toStrictEqual({ type: 'location.unmatched', path: '/login', known: true, search: { org_code: 'ORG1' } });
  });

  it('knows the root, every machine path, the entry routes, the proctor page and the terminal check', () => {
    for (const path of ['/', '/login-code', '/login-confirm', '/oauth-egypt', '/proctor', '/checking-domain-connection', '/score-report/$id'])
      expect(knownPaths.has(path)).toBe(true);
    expect(knownPaths.has('/nope')).toBe(false);
  });
});

describe('kiosk: which child decides', () => {
  it('hands the session its input, with defaults for what boot did not find', () => {
    expect(boot().logs.session.inputs).toStrictEqual([
      { storedSession: null, storedToken: null, storedErrorCode: null, appOrigin: 'http://localhost' },
    ]);
    const given = { storedSession: session, storedToken: 't', storedErrorCode: 'INCORRECT_DEVICE', appOrigin: 'https://gradus.test' };
    const { actor, logs } = boot(given);
    expect(logs.session.inputs).toStrictEqual([given]);
    expect(actor.getSnapshot().context).toStrictEqual({
      session: null,
      restoredSession: session,
      storedToken: 't',
      storedErrorCode: 'INCORRECT_DEVICE',
      appOrigin: 'https://gradus.test',
    });
  });

  it('starts the exam only for a signed-in session with a schedule history, and tells it INIT_TEST', () => {
    const { actor, logs } = boot();
    actor.send({ type: 'session.signedIn', session: { ...session, schedule_history_id: null } });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(actor.getSnapshot().children.exam).toBeUndefined();
    actor.send({ type: 'session.signedIn', session });
    expect(actor.getSnapshot().value).toBe('examinee');
    expect(actor.getSnapshot().context.session).toBe(session);
    expect(logs.exam.inputs).toStrictEqual([{ session }]);
    expect(typesOf(logs.exam)).toEqual(['INIT_TEST']);
    expect(selectScreen(actor.getSnapshot())).toBe('exam-start');
    expect(selectActiveChild(actor.getSnapshot())).toBe(actor.getSnapshot().children.exam);
  });

  it("routes the examinee's locations to the exam: routable or unmatched with whether it is known", () => {
    const { actor, logs } = boot();
    actor.send({ type: 'session.signedIn', session });
    actor.send({ type: 'location.changed', path: '/exam-tutorial' });
    expect(lastOf(logs.exam)).toStrictEqual({ type: 'xstate.route', to: '#examTutorial' });
    actor.send({ type: 'location.changed', path: '/login-confirm' });
    expect(lastOf(logs.exam)).toStrictEqual({ type: 'xstate.route', to: '#examConfirming' });
    actor.send({ type: 'location.changed', path: '/start' });
    expect(lastOf(logs.exam)).toStrictEqual({ type: 'location.unmatched', path: '/start', known: true, search: {} });
    actor.send({ type: 'location.changed', path: '/nowhere', search: { q: '1' } });
    expect(lastOf(logs.exam)).toStrictEqual({ type: 'location.unmatched', path: '/nowhere', known: false, search: { q: '1' } });
    // The proctor page and the terminal check are not the examinee's: the exam judges them.
    actor.send({ type: 'location.changed', path: '/proctor' });
    expect(actor.getSnapshot().value).toBe('examinee');
    expect(typesOf(logs.session).filter((type) => type.startsWith('location') || type === 'xstate.route')).toEqual([]);
  });

  it("passes the exam's reports to the session as its own events, and signs out back to visitor", () => {
    const { actor, logs } = boot();
    actor.send({ type: 'session.signedIn', session });
    actor.send({ type: 'exam.progressed', change: { question_index: 3 } });
    expect(lastOf(logs.session)).toStrictEqual({ type: 'session.updated', change: { question_index: 3 } });
    actor.send({ type: 'exam.logoutRequested', errorCode: 'INCORRECT_DEVICE' });
    expect(lastOf(logs.session)).toStrictEqual({ type: 'logout.requested', errorCode: 'INCORRECT_DEVICE' });
    actor.send({ type: 'exam.logoutRequested' });
    expect(lastOf(logs.session)).toStrictEqual({ type: 'logout.requested', errorCode: undefined });
    actor.send({ type: 'exam.unauthorized' });
    expect(lastOf(logs.session)).toStrictEqual({ type: 'logout.requested' });
    actor.send({ type: 'session.signedOut' });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().children.exam).toBeUndefined();
  });

  it('ignores the exam reports and signing out while a visitor', () => {
    const { actor, logs } = boot();
    actor.send({ type: 'exam.unauthorized' });
    actor.send({ type: 'exam.progressed', change: { question_index: 3 } });
    actor.send({ type: 'session.signedOut' });
    expect(typesOf(logs.session)).toEqual([]);
    expect(actor.getSnapshot().value).toBe('visitor');
  });

  it('opens the print route only with the token in its URL, and hands the document machine the request', () => {
    const token = 'a'.repeat(43);
    const without = boot();
    without.actor.send({ type: 'location.changed', path: '/score-report-embed/4217' });
    expect(without.actor.getSnapshot().value).toBe('visitor');
    expect(lastOf(without.logs.session)).toMatchObject({ type: 'location.unmatched', path: '/score-report-embed/4217' });
    const { actor, logs } = boot();
    actor.send({ type: 'location.changed', path: '/score-report-embed/4217', search: { token } });
    expect(actor.getSnapshot().value).toBe('document');
    expect(logs.document.inputs).toStrictEqual([{ scheduleHistoryId: 4217, token, document: expect.anything(), locale: null }]);
    expect(selectActiveChild(actor.getSnapshot())).toBe(actor.getSnapshot().children.document);
    expect(selectScreen(actor.getSnapshot())).toBe('score-report-embed');
    expect(typesOf(logs.session)).toEqual([]);
  });

  it('opens the proctor page at /proctor and leaves it for the session at any other path', () => {
    const { actor, logs } = boot();
    actor.send({ type: 'location.changed', path: '/proctor' });
    expect(actor.getSnapshot().value).toBe('proctor');
    expect(selectScreen(actor.getSnapshot())).toBe('proctor');
    expect(typesOf(logs.session)).toEqual([]);
    actor.send({ type: 'location.changed', path: '/proctor' });
    expect(actor.getSnapshot().value).toBe('proctor');
    expect(typesOf(logs.session)).toEqual([]);
    actor.send({ type: 'location.changed', path: '/login-code' });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(actor.getSnapshot().children.proctor).toBeUndefined();
    expect(lastOf(logs.session)).toStrictEqual({ type: 'xstate.route', to: '#sessionLoginCode' });
  });

  it('opens the terminal check by URL or request, leaves it by URL or when done, and for a login that went through', () => {
    const { actor, logs } = boot();
    actor.send({ type: 'connectivity.requested' });
    expect(actor.getSnapshot().value).toBe('connectivity');
    expect(selectScreen(actor.getSnapshot())).toBe('connectivity');
    actor.send({ type: 'location.changed', path: '/checking-domain-connection' });
    expect(actor.getSnapshot().value).toBe('connectivity');
    expect(typesOf(logs.session)).toEqual([]);
    actor.send({ type: 'location.changed', path: '/404' });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(lastOf(logs.session)).toStrictEqual({ type: 'xstate.route', to: '#sessionNotFound' });

    actor.send({ type: 'location.changed', path: '/checking-domain-connection' });
    expect(actor.getSnapshot().value).toBe('connectivity');
    actor.getSnapshot().children.connectivity!.send({ type: 'stand.done' } as never);
    expect(actor.getSnapshot().value).toBe('visitor');

    actor.send({ type: 'connectivity.requested' });
    actor.send({ type: 'session.signedIn', session: { ...session, schedule_history_id: null } });
    expect(actor.getSnapshot().value).toBe('connectivity');
    actor.send({ type: 'session.signedIn', session });
    expect(actor.getSnapshot().value).toBe('examinee');
    expect(actor.getSnapshot().context.session).toBe(session);
  });
});

describe('kiosk: the edge without a staff API or terminal check', () => {
  it('fails every staff call as GENERIC_ERROR and every terminal check as not available', async () => {
    const actor = createActor(createKioskMachine({ api: createFakeApi(), storage: memoryStorage() }), {
      input: { storedSession: null },
    }).start();
    actor.send({ type: 'location.changed', path: '/proctor' });
    const proctor = actor.getSnapshot().children.proctor!;
    await vi.waitFor(() => expect(proctor.getSnapshot().matches('signedOut')).toBe(true), { timeout: 10_000 });
    proctor.send({ type: 'login.submitted', values: { org_code: 'ORG1', login_id: 'staff1', password: 'secret-password' } });
    await vi.waitFor(() => expect(proctor.getSnapshot().context.loginError).toEqual({ kind: 'failure', code: 'GENERIC_ERROR' }), { timeout: 10_000 });
    // From the proctor page any other path is the session's first; then the terminal check opens.
    actor.send({ type: 'location.changed', path: '/checking-domain-connection' });
    expect(actor.getSnapshot().value).toBe('visitor');
    actor.send({ type: 'location.changed', path: '/checking-domain-connection' });
    const connectivity = actor.getSnapshot().children.connectivity!;
    await vi.waitFor(() => expect(JSON.stringify(connectivity.getSnapshot().context)).toContain('broken'), { timeout: 10_000 });
    actor.stop();
  });
});

describe('kiosk: the edge with a staff API', () => {
  it("sends the proctor's calls to the staff API it is given", async () => {
    const sent: string[] = [];
    const admin = {
      send: (request: { path: string }) => {
        sent.push(request.path);
        return Promise.reject(new ApiFailure('ACCOUNT_LOCKED', 403));
      },
    };
    const actor = createActor(createKioskMachine({ api: createFakeApi(), storage: memoryStorage(), admin: admin as never }), {
      input: { storedSession: null },
    }).start();
    actor.send({ type: 'location.changed', path: '/proctor' });
    const proctor = actor.getSnapshot().children.proctor!;
    await vi.waitFor(() => expect(proctor.getSnapshot().matches('signedOut')).toBe(true), { timeout: 10_000 });
    proctor.send({ type: 'login.submitted', values: { org_code: 'ORG1', login_id: 'staff1', password: 'secret-password' } });
    await vi.waitFor(() => expect(proctor.getSnapshot().context.loginError).toEqual({ kind: 'failure', code: 'ACCOUNT_LOCKED' }), { timeout: 10_000 });
    expect(sent).toEqual(['/admin/login']);
    actor.stop();
  });
});

describe('routes', () => {
  it('matches a pattern with $id only for a number 1 to 10 digits long without a leading zero', () => {
    expect(matchesPath('/score-report/$id', '/score-report/42')).toBe(true);
    expect(matchesPath('/score-report/$id', '/score-report/1234567890')).toBe(true);
    expect(matchesPath('/score-report/$id', '/score-report/12345678901')).toBe(false);
    expect(matchesPath('/score-report/$id', '/score-report/042')).toBe(false);
    expect(matchesPath('/score-report/$id', '/score-report/4x')).toBe(false);
    expect(matchesPath('/score-report/$id', '/x/score-report/4')).toBe(false);
    expect(matchesPath('/score-report/$id/pdf', '/score-report/4/pdf')).toBe(true);
    expect(matchesPath('/score-report/$id/pdf', '/score-report/4/png')).toBe(false);
    expect(matchesPath('/login', '/login')).toBe(true);
    expect(matchesPath('/login', '/login-code')).toBe(false);
  });

  it("reads paths from meta, routable ones only where `route` is set, and a child's through screensOf (never routable)", () => {
    const child = createMachine({ initial: 'a', states: { a: { meta: { path: '/child' }, route: {} } } });
    const parent = setup({ actors: { child } }).createMachine({
      id: 'p',
      initial: 'one',
      states: {
        one: { id: 'one', meta: { path: '/one' }, route: {} },
        two: { meta: { path: '/two' } },
        three: { id: 'three', meta: { path: '/one' }, route: {} },
        host: { meta: { screensOf: 'kid' }, invoke: { id: 'kid', src: 'child' } },
        none: { meta: { screensOf: 'missing' } },
      },
    });
    const table = routeTableOf(parent as AnyStateMachine);
    expect([...table.routable]).toEqual([['/one', 'one']]);
    expect([...table.paths].sort()).toEqual(['/child', '/one', '/two']);
  });

  it('walks only the child that screensOf names, and takes a logic without states as showing nothing', () => {
    const first = createMachine({ initial: 'f', states: { f: { meta: { path: '/first' } } } });
    const kid = createMachine({ initial: 'k', states: { k: { meta: { path: '/kid' } } } });
    const parent = setup({ actors: { first, kid, call: fromPromise(() => new Promise<never>(() => {})) } }).createMachine({
      initial: 'host',
      states: {
        host: { meta: { screensOf: 'kid' }, invoke: [{ id: 'first', src: 'first' }, { id: 'kid', src: 'kid' }] },
        calling: { meta: { screensOf: 'call' }, invoke: { id: 'call', src: 'call' } },
      },
    });
    expect([...routeTableOf(parent as AnyStateMachine).paths]).toEqual(['/kid']);
    const promise = createActor(fromPromise(() => new Promise<never>(() => {}))).start();
    expect(screenActorOf(promise as never)).toBe(promise);
  });

  it('follows the screens down to the child that shows them, while it runs', () => {
    const child = createMachine({ initial: 'a', states: { a: { meta: { path: '/child', screen: 'kid' } } } });
    const parent = setup({ actors: { child } }).createMachine({
      initial: 'host',
      states: {
        host: { meta: { screensOf: 'kid', path: '/parent', screen: 'parent' }, invoke: { id: 'kid', src: 'child' }, on: { go: 'plain' } },
        plain: { meta: { path: '/plain', screen: 'plain' } },
      },
    });
    const actor = createActor(parent).start();
    const shown = screenActorOf(actor);
    expect(shown).toBe(actor.getSnapshot().children.kid);
    expect(pathOf(shown.getSnapshot())).toBe('/child');
    expect(screenOf(shown.getSnapshot())).toBe('kid');
    actor.send({ type: 'go' });
    expect(screenActorOf(actor)).toBe(actor);
    expect(pathOf(actor.getSnapshot())).toBe('/plain');
  });

  it('takes the deepest path and screen, and none where no state has one', () => {
    const machine = createMachine({
      initial: 'outer',
      states: { outer: { meta: { path: '/outer', screen: 'outer' }, initial: 'inner', states: { inner: { meta: { path: '/inner', screen: 'inner' } } } } },
    });
    const snapshot = createActor(machine).start().getSnapshot();
    expect(pathOf(snapshot)).toBe('/inner');
    expect(screenOf(snapshot)).toBe('inner');
    const bare = createActor(createMachine({ initial: 'a', states: { a: { meta: { other: 1 } } } })).start().getSnapshot();
    expect(pathOf(bare)).toBeUndefined();
    expect(screenOf(bare)).toBeUndefined();
  });
});

describe('kiosk selectors', () => {
  it('shows the id the machine holds in a path with $id, and the query only where the state says so', () => {
    const shown = (meta: Record<string, unknown>, context: Record<string, unknown>) =>
      createMachine({ context, initial: 's', states: { s: { meta } } });
    const run = (child: AnyStateMachine) =>
      createActor(
        kioskMachine.provide({
          actors: { session: child, exam: createMachine({}), document: createMachine({}), proctor: createMachine({}), connectivity: createMachine({}) } as never,
        }),
        { input: { storedSession: null } },
      ).start();
    expect(selectPath(run(shown({ path: '/score-report/$id' }, { id: 42 })).getSnapshot())).toBe('/score-report/42');
    expect(selectPath(run(shown({ path: '/score-report/$id' }, {})).getSnapshot())).toBe('/score-report/');
    expect(selectPath(run(shown({ path: '/login', withSearch: true }, { search: { school: 'ORG1' } })).getSnapshot())).toBe('/login?school=ORG1');
    expect(selectPath(run(shown({ path: '/login', withSearch: true }, { search: {} })).getSnapshot())).toBe('/login');
    expect(selectPath(run(shown({ path: '/login', withSearch: true }, {})).getSnapshot())).toBe('/login');
    expect(selectPath(run(shown({ path: '/login' }, { search: { school: 'ORG1' } })).getSnapshot())).toBe('/login');
    expect(selectPath(run(shown({ screen: 'entry' }, {})).getSnapshot())).toBeUndefined();
    expect(selectScreen(run(shown({}, {})).getSnapshot())).toBe('booting');
  });
});

describe('waitForKiosk', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves at once when the condition holds, on a later change otherwise, and stops watching', async () => {
    const { actor } = boot();
    await expect(waitForKiosk(actor, () => true)).resolves.toBe(actor.getSnapshot());
    const seen: string[] = [];
    const stop = watchKiosk(actor, (snapshot) => void seen.push(String(snapshot.value)));
    const waiting = waitForKiosk(actor, (snapshot) => snapshot.matches('proctor'));
    actor.send({ type: 'location.changed', path: '/proctor' });
    await expect(waiting).resolves.toMatchObject({ value: 'proctor' });
    expect(seen).toContain('proctor');
    // Once per snapshot of the system, not per other inspection event.
    let snapshots = 0;
    const counting = actor.system.inspect((event) => {
      if (event.type === '@xstate.snapshot') snapshots += 1;
    });
    const before = seen.length;
    actor.send({ type: 'location.changed', path: '/login-code' });
    expect(seen.length - before).toBe(snapshots);
    expect(snapshots).toBeGreaterThan(0);
    counting.unsubscribe();
    stop();
    const count = seen.length;
    actor.send({ type: 'location.changed', path: '/login-code' });
    expect(seen.length).toBe(count);
  });

  it('however many watch the kiosk, one inspector serves them; a watcher stopped meanwhile is not called', async () => {
    const { actor } = boot();
    const inspect = vi.spyOn(actor.system, 'inspect');
    const heard: string[] = [];
    // The first watcher stops the shell's while the first change is being told, before its turn.
    let stopShell: (() => void) | null = null;
    const stopFirst = watchKiosk(actor, () => {
      stopShell?.();
      stopShell = null;
    });
    const stops = ['router', 'shell', 'screen'].map((name) => watchKiosk(actor, () => void heard.push(name)));
    stopShell = stops[1]!;
    expect(inspect).toHaveBeenCalledTimes(1);
    actor.send({ type: 'location.changed', path: '/proctor' });
    await waitForKiosk(actor, (snapshot) => snapshot.matches('proctor'));
    const changes = heard.filter((name) => name === 'router').length;
    expect(changes).toBeGreaterThan(0);
    expect(heard.filter((name) => name === 'screen').length).toBe(changes);
    expect(heard).not.toContain('shell');
    // All stopped: the inspector goes; the next watcher starts a new one.
    stopFirst();
    for (const stop of stops) stop();
    const before = heard.length;
    actor.send({ type: 'location.changed', path: '/login-code' });
    expect(heard.length).toBe(before);
    const again = watchKiosk(actor, () => void heard.push('again'));
    expect(inspect).toHaveBeenCalledTimes(2);
    actor.send({ type: 'location.changed', path: '/proctor' });
    expect(heard).toContain('again');
    again();
  });

  it('rejects when the condition is not met in time (5 s unless told)', async () => {
    vi.useFakeTimers();
    const { actor } = boot();
    const never = waitForKiosk(actor, () => false);
    const caught = never.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(4999);
    let settled = false;
    void caught.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await caught).toBe('waitForKiosk: condition not met within 5000 ms');
    const short = waitForKiosk(actor, () => false, 10).catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(10);
    expect(await short).toBe('waitForKiosk: condition not met within 10 ms');
  });
});

