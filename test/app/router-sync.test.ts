/**
 * The router reflects the machine both ways: typed URLs and Back are events the machine
 * judges, and the machine's state sets the URL.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { selectPath } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk, watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { readSession } from '../../machines/shared/storage.ts';
import { syncRouterWithKiosk } from '../../src/app/router-sync.ts';
import { createFakeApi, createMemoryStorage, VALID_CODE } from '../helpers/fake-api.ts';

function bootAt(url: string, storage = createMemoryStorage()) {
  const kiosk = createActor(createKioskMachine({ api: createFakeApi(), storage }), {
    input: { storedSession: readSession(storage) },
  }).start();
  const history = createMemoryHistory({ initialEntries: [url] });
  const stop = syncRouterWithKiosk(history, kiosk, (listener) => watchKiosk(kiosk, listener));
  return { kiosk, history, stop, storage };
}

describe('router sync', () => {
  it('lands a typed /start before login on the login page, leaving no entry behind', () => {
    const { history } = bootAt('/start');
    expect(history.location.pathname).toBe('/login-code');
    expect(history.length).toBe(1);
  });

  it('sends an unknown path to /404, and back to login from there', () => {
    const { history, kiosk } = bootAt('/nowhere');
    expect(history.location.pathname).toBe('/404');
    kiosk.send({ type: 'login.requested' });
    expect(history.location.pathname).toBe('/login-code');
  });

  it('follows the machine through the journey and keeps the exam when Back is pressed', async () => {
    const { history, kiosk } = bootAt('/login-code');
    kiosk.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await waitForKiosk(kiosk, (s) => selectPath(s) === '/login-confirm');
    expect(history.location.pathname).toBe('/login-confirm');
    kiosk.send({ type: 'identity.confirmed' });
    kiosk.send({ type: 'tutorial.completed' });
    expect(history.location.pathname).toBe('/exam-start');
    kiosk.send({ type: 'start.confirmed' });
    await waitForKiosk(kiosk, (s) => s.children.exam?.getSnapshot().matches('answering') ?? false);
    expect(history.location.pathname).toBe('/start');

    // A pupil presses Back again and again, or follows a link to the start screen: the exam stays.
    for (let press = 0; press < 6; press++) {
      history.back();
      expect(history.location.pathname).toBe('/start');
    }
    history.push('/login-code');
    expect(history.location.pathname).toBe('/start');
    expect(kiosk.getSnapshot().children.exam?.getSnapshot().matches('answering')).toBe(true);
  });

  it('lets Back return from the start screen to the tutorial before Start', async () => {
    const { history, kiosk } = bootAt('/login-code');
    kiosk.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await waitForKiosk(kiosk, (s) => selectPath(s) === '/login-confirm');
    kiosk.send({ type: 'identity.confirmed' });
    kiosk.send({ type: 'tutorial.completed' });
    history.back();
    expect(history.location.pathname).toBe('/exam-tutorial');
    expect(kiosk.getSnapshot().children.exam?.getSnapshot().matches('tutorial')).toBe(true);
    // Forward again is not a way to skip ahead: the machine decides, and stays.
    history.forward();
    expect(history.location.pathname).toBe('/exam-tutorial');
  });
});
