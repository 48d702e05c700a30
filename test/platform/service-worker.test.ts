/**
 * The service worker's update policy (src/platform/service-worker.ts): may a waiting version of
 * the app take over now? Never in the exam past Start; yes on the login screen, before Start
 * and on the end screen; never while a call is in flight. Checked as a pure function, then on
 * the kiosk's real snapshots as a pupil goes through the exam (fake API). And `shellReady`, which
 * Start waits for, over a stand-in of navigator.serviceWorker.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import type { ScreenName } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { readSession } from '../../machines/shared/storage.ts';
import { mayActivateUpdate, shellReady, startServiceWorker, updateMomentOf, type ShellEnvironment } from '../../src/platform/service-worker.ts';
import { createFakeApi, demoQuestions, VALID_CODE } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { createFakeConnectivity } from '../helpers/fake-connectivity.ts';
import { examOf } from '../helpers/kiosk-exam.ts';

describe('may a waiting version activate now?', () => {
  const safe: ScreenName[] = [
    'login-code',
    'login',
    'not-found',
    'forbidden',
    'login-confirm',
    'exam-tutorial',
    'exam-start',
    'exam-end',
    'examinee-info',
    'testing-menu',
    'exam-list',
    'short-result',
    'purchased-result',
    'score-report',
    'proctor',
    'connectivity',
  ];
  const unsafe: ScreenName[] = ['exam', 'booting', 'entry', 'pay-exam-fee', 'pay-exam-result', 'examinee-input-info', 'score-report-embed'];

  it.each(safe)('yes on %s when nothing is in flight', (screen) => {
    expect(mayActivateUpdate({ screen, busy: false })).toBe(true);
  });

  it.each(safe)('not on %s while a call is in flight', (screen) => {
    expect(mayActivateUpdate({ screen, busy: true })).toBe(false);
  });

  it.each(unsafe)('never on %s', (screen) => {
    expect(mayActivateUpdate({ screen, busy: false })).toBe(false);
  });
});

describe('the policy on the kiosk as a pupil sits the exam', () => {
  it('allows an update before Start and after the end, never in between', async () => {
    const storage = memoryStorage();
    const api = createFakeApi();
    const kiosk = createActor(createKioskMachine({ api, storage }), { input: { storedSession: readSession(storage) } }).start();
    const mayNow = () => mayActivateUpdate(updateMomentOf(kiosk.getSnapshot()));

    expect(updateMomentOf(kiosk.getSnapshot())).toEqual({ screen: 'login-code', busy: false });
    expect(mayNow()).toBe(true);

    kiosk.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await waitForKiosk(kiosk, (s) => updateMomentOf(s).screen === 'login-confirm' && !updateMomentOf(s).busy);
    expect(mayNow()).toBe(true);
    examOf(kiosk).send({ type: 'identity.confirmed' });
    expect(updateMomentOf(kiosk.getSnapshot()).screen).toBe('exam-tutorial');
    expect(mayNow()).toBe(true);
    examOf(kiosk).send({ type: 'tutorial.completed' });
    expect(updateMomentOf(kiosk.getSnapshot())).toEqual({ screen: 'exam-start', busy: false });
    expect(mayNow()).toBe(true);

    // Start pressed: from here until the end screen, no version swaps under the pupil.
    examOf(kiosk).send({ type: 'start.confirmed' });
    expect(updateMomentOf(kiosk.getSnapshot())).toEqual({ screen: 'exam-start', busy: true });
    expect(mayNow()).toBe(false);
    await waitForKiosk(kiosk, (s) => s.children.exam?.getSnapshot().matches('answering') ?? false);
    expect(updateMomentOf(kiosk.getSnapshot())).toEqual({ screen: 'exam', busy: false });
    expect(mayNow()).toBe(false);
    examOf(kiosk).send({ type: 'answer.given', questionId: demoQuestions[0]!.id, value: 'a' });
    examOf(kiosk).send({ type: 'finish.requested' });
    expect(mayNow()).toBe(false);
    examOf(kiosk).send({ type: 'finish.confirmed' });
    expect(mayNow()).toBe(false);

    await waitForKiosk(kiosk, (s) => updateMomentOf(s).screen === 'exam-end');
    expect(mayNow()).toBe(true);

    // Logging out: not while POST /logout is in flight; the login screen afterwards is safe.
    examOf(kiosk).send({ type: 'logout.requested' });
    await waitForKiosk(kiosk, (s) => updateMomentOf(s).screen === 'login-code');
    expect(mayNow()).toBe(true);
    kiosk.stop();
  });

  it('allows an update on the terminal check once its checks are done, not while one runs', async () => {
    const storage = memoryStorage();
    const connectivity = createFakeConnectivity();
    connectivity.hold = true;
    const kiosk = createActor(createKioskMachine({ api: createFakeApi(), storage, connectivity }), {
      input: { storedSession: readSession(storage) },
    }).start();
    const mayNow = () => mayActivateUpdate(updateMomentOf(kiosk.getSnapshot()));

    kiosk.send({ type: 'location.changed', path: '/checking-domain-connection', search: {} });
    await waitForKiosk(kiosk, (s) => s.children.connectivity !== undefined);
    // The checks run (held): a reload now would cut one short.
    expect(updateMomentOf(kiosk.getSnapshot())).toEqual({ screen: 'connectivity', busy: true });
    expect(mayNow()).toBe(false);

    connectivity.hold = false;
    connectivity.release();
    await waitForKiosk(kiosk, (s) => s.children.connectivity?.getSnapshot().matches('done') ?? false);
    expect(updateMomentOf(kiosk.getSnapshot())).toEqual({ screen: 'connectivity', busy: false });
    expect(mayNow()).toBe(true);
    kiosk.stop();
  });

  it('does not register a worker outside a production build (Vitest, npm run dev)', () => {
    let watched = false;
    const stop = startServiceWorker({
      getSnapshot: () => {
        throw new Error('read the kiosk');
      },
      watch: () => {
        watched = true;
        return () => undefined;
      },
    });
    stop();
    expect(import.meta.env.PROD).toBe(false);
    expect(watched).toBe(false);
  });
});

/** A stand-in of navigator.serviceWorker: a page not yet controlled, whose registration installs a worker. */
function fakeWorkers(options: { controlled?: boolean; shellCached?: boolean } = {}) {
  const events = new EventTarget();
  let installing = Object.assign(new EventTarget(), { state: 'installing' as ServiceWorkerState });
  let updates = 0;
  /** registration.update(): the browser installs the worker once more. */
  const update = async () => {
    updates++;
    installing = Object.assign(new EventTarget(), { state: 'installing' as ServiceWorkerState });
    registration = { installing, update };
  };
  let registration: { installing: typeof installing | null; update(): Promise<void> } | undefined = { installing, update };
  const state = { shellCached: options.shellCached ?? true, controller: options.controlled ? ({} as ServiceWorker) : null };
  const container = {
    get controller() {
      return state.controller;
    },
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    getRegistration: async () => registration,
  } as unknown as NonNullable<ShellEnvironment['container']>;
  return {
    environment: { container, registers: true, hasShell: async () => state.shellCached } satisfies ShellEnvironment,
    /** The install ends and the new worker claims the page (clientsClaim). */
    claims() {
      installing.state = 'activated';
      installing.dispatchEvent(new Event('statechange'));
      state.controller = installing as unknown as ServiceWorker;
      events.dispatchEvent(new Event('controllerchange'));
    },
    /** The install fails (a precached file could not be fetched): the worker is thrown away. */
    failsToInstall() {
      installing.state = 'redundant';
      installing.dispatchEvent(new Event('statechange'));
    },
    noRegistrationYet() {
      registration = undefined;
    },
    registers() {
      registration = { installing, update };
    },
    updates: () => updates,
  };
}

/** Whether the promise has settled after everything already queued has run. */
async function settledNow(promise: Promise<unknown>): Promise<'resolved' | 'rejected' | 'pending'> {
  let outcome: 'resolved' | 'rejected' | 'pending' = 'pending';
  promise.then(
    () => (outcome = 'resolved'),
    () => (outcome = 'rejected'),
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return outcome;
}

describe('is the app shell ready for a reload without the network? (shellReady, Start waits for it)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has nothing to wait for where the browser has no service worker, or none is registered (npm run dev)', async () => {
    await expect(shellReady(undefined, { container: undefined, registers: true, hasShell: async () => false })).resolves.toBeUndefined();
    const workers = fakeWorkers();
    await expect(shellReady(undefined, { ...workers.environment, registers: false })).resolves.toBeUndefined();
    // Vitest is not a production build: the browser's own environment waits for nothing either.
    await expect(shellReady()).resolves.toBeUndefined();
  });

  it('is ready at once on a page the worker already controls, with the shell in its precache', async () => {
    const workers = fakeWorkers({ controlled: true });
    expect(await settledNow(shellReady(undefined, workers.environment))).toBe('resolved');
  });

  it('waits on a fresh profile until the first install claims the page', async () => {
    const workers = fakeWorkers();
    const ready = shellReady(undefined, workers.environment);
    expect(await settledNow(ready)).toBe('pending');
    workers.claims();
    expect(await settledNow(ready)).toBe('resolved');
  });

  it('keeps waiting while the worker controls the page but the shell is not in the precache', async () => {
    const workers = fakeWorkers({ controlled: true, shellCached: false });
    expect(await settledNow(shellReady(undefined, workers.environment))).toBe('pending');
  });

  it('tries a failed install again, 2 s later, then 4 s, and is ready once one succeeds', async () => {
    vi.useFakeTimers();
    const workers = fakeWorkers();
    const ready = shellReady(undefined, workers.environment);
    await vi.advanceTimersByTimeAsync(0);
    workers.failsToInstall();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(workers.updates()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(workers.updates()).toBe(1);
    // The new install is found (the check after the update) and fails too: the next try waits longer.
    await vi.advanceTimersByTimeAsync(0);
    workers.failsToInstall();
    await vi.advanceTimersByTimeAsync(3_999);
    expect(workers.updates()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(workers.updates()).toBe(2);
    await vi.advanceTimersByTimeAsync(0);
    workers.claims();
    await expect(ready).resolves.toBeUndefined();
  });

  it('finds a registration made after it began to wait (the worker is registered after the first screen)', async () => {
    vi.useFakeTimers();
    const workers = fakeWorkers();
    workers.noRegistrationYet();
    const ready = shellReady(undefined, workers.environment);
    await vi.advanceTimersByTimeAsync(0);
    workers.registers();
    await vi.advanceTimersByTimeAsync(1_000);
    workers.failsToInstall();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(workers.updates()).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    workers.claims();
    await expect(ready).resolves.toBeUndefined();
  });

  it('stops waiting once it is no longer wanted (the pupil started anyway)', async () => {
    const workers = fakeWorkers();
    const waiting = new AbortController();
    const ready = shellReady(waiting.signal, workers.environment);
    expect(await settledNow(ready)).toBe('pending');
    waiting.abort();
    await expect(ready).rejects.toThrow('no longer waited for');
    await expect(shellReady(waiting.signal, workers.environment)).rejects.toThrow('no longer waited for');
  });
});
