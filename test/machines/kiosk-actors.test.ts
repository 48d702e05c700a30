/**
 * The production kiosk's children (machines/kiosk/kiosk.actors.ts, createKioskMachine), stated
 * outright: what each child's real calls are given (the edge's own ports, passed on as they are),
 * the fallbacks of an edge without a staff API (every staff call fails as GENERIC_ERROR) or
 * without the terminal check's browser work (a port whose every part fails, so every check ends
 * as `broken`), and the terminal check's port given as it is or as a module loaded on demand.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, type AnyActorLogic } from 'xstate';
import { broken, clockUnknown, notInBuild, unreachable } from '../../machines/connectivity/connectivity.rules.ts';
import { checkIds, type CheckId, type CheckResult, type ConnectivityPort } from '../../machines/connectivity/connectivity.types.ts';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import type { AdminPort } from '../../machines/proctor/proctor.types.ts';
import { isPendingSnapshot, lazyModule } from '../../machines/shared/lazy-machine.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { createFakeApi } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const NO_PORT = 'No ConnectivityPort was given to createKioskMachine';
const signal = new AbortController().signal;

/** A terminal-check port with fixed answers: the math files not in this build, no host answering, the rest failing. */
function fakePort(): ConnectivityPort & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    now: () => 1_000,
    urls: () => ({ apiHealth: 'https://api.test/health', front: 'https://front.test/', mathScript: null, mathStyle: null }),
    get: (url) => {
      asked.push(url);
      return Promise.reject(new Error('offline'));
    },
    storage: () => Promise.reject(new Error('no storage facts')),
    offlineShell: () => Promise.reject(new Error('no shell facts')),
    fonts: () => Promise.reject(new Error('no font facts')),
  };
}
/** What fakePort's checks conclude. */
const fakePortResults: Record<CheckId, CheckResult> = {
  api: unreachable(0, 'https://api.test/health'),
  front: unreachable(0, 'https://front.test/'),
  mathScript: notInBuild(0),
  mathStyle: notInBuild(0),
  clock: clockUnknown(0),
  storage: broken(),
  offlineShell: broken(),
  fonts: broken(),
};

/** A kiosk at the terminal check (the URL opens it), and the check's child. */
function atTerminalCheck(deps: Partial<Parameters<typeof createKioskMachine>[0]> = {}) {
  const actor = createActor(createKioskMachine({ api: createFakeApi(), storage: memoryStorage(), ...deps }), {
    input: { storedSession: null },
  }).start();
  actor.send({ type: 'location.changed', path: '/checking-domain-connection' });
  expect(actor.getSnapshot().value).toBe('connectivity');
  return { actor, check: actor.getSnapshot().children.connectivity! };
}
const resultsOf = (check: { getSnapshot(): { context: unknown } }) => (check.getSnapshot().context as { results: Record<CheckId, CheckResult | null> }).results;
const allDone = async (check: { getSnapshot(): { context: unknown } }) =>
  vi.waitFor(() => expect(checkIds.every((id) => resultsOf(check)[id] !== null)).toBe(true), { timeout: 10_000 });

describe('kiosk actors: the terminal check', () => {
  it('without a port: every one of the eight checks ends as broken', async () => {
    const { actor, check } = atTerminalCheck();
    await allDone(check);
    expect(resultsOf(check)).toEqual(Object.fromEntries(checkIds.map((id) => [id, broken()])));
    actor.stop();
  });

  it('a port given as it is: its checks ask it, from the first step', async () => {
    const port = fakePort();
    const { actor, check } = atTerminalCheck({ connectivity: port });
    expect(isPendingSnapshot(check.getSnapshot())).toBe(false);
    await allDone(check);
    expect(resultsOf(check)).toEqual(fakePortResults);
    expect(port.asked).toEqual(['https://api.test/health', 'https://front.test/', 'https://api.test/health']);
    actor.stop();
  });

  it('a port given as a module loaded on demand: the check waits for it, then asks it', async () => {
    const port = fakePort();
    let arrive!: (loaded: ConnectivityPort) => void;
    const importer = vi.fn(() => new Promise<ConnectivityPort>((resolve) => (arrive = resolve)));
    const { actor, check } = atTerminalCheck({ connectivity: lazyModule(importer) });
    expect(isPendingSnapshot(check.getSnapshot())).toBe(true);
    expect(importer).toHaveBeenCalledTimes(1);
    expect(port.asked).toEqual([]);
    arrive(port);
    await allDone(check);
    expect(resultsOf(check)).toEqual(fakePortResults);
    expect(port.asked).toEqual(['https://api.test/health', 'https://front.test/', 'https://api.test/health']);
    actor.stop();
  });
});

describe('kiosk actors: the staff API', () => {
  it('without one: the login fails as GENERIC_ERROR', async () => {
    const actor = createActor(createKioskMachine({ api: createFakeApi(), storage: memoryStorage() }), { input: { storedSession: null } }).start();
    actor.send({ type: 'location.changed', path: '/proctor' });
    const proctor = actor.getSnapshot().children.proctor!;
    await vi.waitFor(() => expect(proctor.getSnapshot().matches('signedOut')).toBe(true), { timeout: 10_000 });
    proctor.send({ type: 'login.submitted', values: { org_code: 'ORG1', login_id: 'staff1', password: 'secret-password' } });
    await vi.waitFor(() => expect(proctor.getSnapshot().context.loginError).toEqual({ kind: 'failure', code: 'GENERIC_ERROR' }), { timeout: 10_000 });
    actor.stop();
  });
});

/**
 * What each child's real calls are given: the calls' modules wrapped (vi.doMock) to write down
 * their arguments, and the kiosk's modules loaded again after them.
 */
describe('kiosk actors: what each child is given', () => {
  afterEach(() => {
    for (const name of ['exam', 'document', 'proctor', 'connectivity']) vi.doUnmock(`../../machines/${name}/${name}.actors.ts`);
    vi.resetModules();
    vi.useRealTimers();
  });

  async function recordingKiosk() {
    const given: Record<string, unknown[]> = {};
    const wrap = (name: string, fn: string) =>
      vi.doMock(`../../machines/${name}/${name}.actors.ts`, async (importOriginal) => {
        const original = await importOriginal<Record<string, (deps: unknown) => unknown>>();
        return {
          ...original,
          [fn]: (deps: unknown) => {
            (given[name] ??= []).push(deps);
            return original[fn]!(deps);
          },
        };
      });
    wrap('exam', 'examImplementations');
    wrap('document', 'documentImplementations');
    wrap('proctor', 'proctorImplementations');
    wrap('connectivity', 'connectivityImplementations');
    vi.resetModules();
    const kiosk = await import('../../machines/kiosk/kiosk.actors.ts');
    await (await import('../../machines/kiosk/kiosk.lazy.ts')).preloadKioskChildren();
    /** Makes each child's logic build its machine (as invoking it does), and gives what each was given. */
    const build = (machine: ReturnType<typeof createKioskMachine>) => {
      for (const name of ['exam', 'document', 'proctor', 'connectivity']) {
        createActor((machine.implementations.actors as Record<string, AnyActorLogic>)[name]!, { input: {} });
      }
      return given;
    };
    // The failures of the modules loaded again are their own ApiFailure class.
    const { ApiFailure: FreshApiFailure } = await import('../../machines/shared/ports.ts');
    return { createKioskMachine: kiosk.createKioskMachine, build, given, ApiFailure: FreshApiFailure };
  }

  it('with every port: each child gets the edge’s own ports, as they are', async () => {
    const { createKioskMachine: create, build } = await recordingKiosk();
    const api = createFakeApi();
    const storage = memoryStorage();
    const language = { change: async () => {} };
    const admin: AdminPort = { send: () => Promise.reject(new ApiFailure('ACCOUNT_LOCKED', 403)) };
    const connectivity = fakePort();
    const deps = { api, storage, language, admin, connectivity } as Parameters<typeof createKioskMachine>[0];
    const given = build(create(deps));
    expect(given.exam).toHaveLength(1);
    expect(given.exam![0]).toBe(deps);
    expect(given.document).toHaveLength(1);
    expect(given.document![0]).toStrictEqual({ api, language });
    expect((given.document![0] as { api: unknown }).api).toBe(api);
    expect(given.proctor).toHaveLength(1);
    expect(given.proctor![0]).toStrictEqual({ admin, storage });
    expect((given.proctor![0] as { admin: unknown }).admin).toBe(admin);
    expect((given.proctor![0] as { storage: unknown }).storage).toBe(storage);
    expect(given.connectivity).toHaveLength(1);
    expect(given.connectivity![0]).toBe(connectivity);
  });

  it('a terminal-check module: its port once loaded, nothing before', async () => {
    const { createKioskMachine: create, build } = await recordingKiosk();
    const port = fakePort();
    let arrive!: (loaded: ConnectivityPort) => void;
    const module = lazyModule(() => new Promise<ConnectivityPort>((resolve) => (arrive = resolve)));
    const machine = create({ api: createFakeApi(), storage: memoryStorage(), connectivity: module });
    expect(build(machine).connectivity).toBeUndefined();
    void module.load();
    arrive(port);
    await module.load();
    expect(build(machine).connectivity).toEqual([port]);
    expect(build(machine).connectivity![0]).toBe(port);
  });

  it('without a staff API: a port whose every call rejects as GENERIC_ERROR', async () => {
    const { createKioskMachine: create, build, ApiFailure: FreshApiFailure } = await recordingKiosk();
    const storage = memoryStorage();
    const given = build(create({ api: createFakeApi(), storage }));
    const { admin, storage: kept } = given.proctor![0] as { admin: AdminPort; storage: unknown };
    expect(kept).toBe(storage);
    const refusal: unknown = await admin.send({ method: 'POST', path: '/admin/login', body: {} } as never).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(FreshApiFailure);
    expect(refusal).toMatchObject({ code: 'GENERIC_ERROR', status: undefined });
  });

  it('without a terminal-check port: the clock is this terminal’s; every other part fails, naming what is missing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T09:00:00.000Z'));
    const { createKioskMachine: create, build } = await recordingKiosk();
    const port = build(create({ api: createFakeApi(), storage: memoryStorage() })).connectivity![0] as ConnectivityPort;
    expect(port.now()).toBe(Date.parse('2026-06-01T09:00:00.000Z'));
    vi.setSystemTime(new Date('2026-06-01T09:00:01.500Z'));
    expect(port.now()).toBe(Date.parse('2026-06-01T09:00:01.500Z'));
    expect(() => port.urls()).toThrow(new Error(NO_PORT));
    await expect(port.get('https://api.test/health', signal)).rejects.toThrow(new Error(NO_PORT));
    await expect(port.storage(signal)).rejects.toThrow(new Error(NO_PORT));
    await expect(port.offlineShell(signal)).rejects.toThrow(new Error(NO_PORT));
    await expect(port.fonts(signal)).rejects.toThrow(new Error(NO_PORT));
  });
});
