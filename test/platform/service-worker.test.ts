/**
 * The service worker's update policy (src/platform/service-worker.ts): may a waiting version of
 * the app take over now? Never in the exam past Start; yes on the login screen, before Start
 * and on the end screen; never while a call is in flight. Checked as a pure function, then on
 * the kiosk's real snapshots as a pupil goes through the exam (fake API).
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import type { ScreenName } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { readSession } from '../../machines/shared/storage.ts';
import { mayActivateUpdate, startServiceWorker, updateMomentOf } from '../../src/platform/service-worker.ts';
import { createFakeApi, createMemoryStorage, demoQuestions, VALID_CODE } from '../helpers/fake-api.ts';
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
    const storage = createMemoryStorage();
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
    const storage = createMemoryStorage();
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
