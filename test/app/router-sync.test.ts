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
import { readSession, storageKeys } from '../../machines/shared/storage.ts';
import { syncRouterWithKiosk } from '../../src/app/router-sync.ts';
import { createFakeApi, VALID_CODE } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { examOf } from '../helpers/kiosk-exam.ts';

function bootAt(url: string, storage = memoryStorage(), storedErrorCode: 'INCORRECT_DEVICE' | null = null) {
  const kiosk = createActor(createKioskMachine({ api: createFakeApi(), storage }), {
    input: { storedSession: readSession(storage), storedErrorCode },
  }).start();
  const history = createMemoryHistory({ initialEntries: [url] });
  const stop = syncRouterWithKiosk(history, kiosk, (listener) => watchKiosk(kiosk, listener));
  return { kiosk, history, stop, storage };
}

describe('router sync', () => {
  it('lands a typed /start before login on /403 (rule 7), leaving no entry behind', () => {
    const { history } = bootAt('/start');
    expect(history.location.pathname).toBe('/403');
    expect(history.length).toBe(1);
  });

  it('lands a typed / before login on the login page (rule 5), leaving no entry behind', () => {
    const { history } = bootAt('/');
    expect(history.location.pathname).toBe('/login-code');
    expect(history.length).toBe(1);
  });

  it('sends an unknown path to /404, and back to login from there', () => {
    const { history, kiosk } = bootAt('/nowhere');
    expect(history.location.pathname).toBe('/404');
    kiosk.getSnapshot().children.session!.send({ type: 'login.requested' });
    expect(history.location.pathname).toBe('/login-code');
  });

  it('follows the machine through the journey and keeps the exam when Back is pressed', async () => {
    const { history, kiosk } = bootAt('/login-code');
    kiosk.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await waitForKiosk(kiosk, (s) => selectPath(s) === '/login-confirm');
    expect(history.location.pathname).toBe('/login-confirm');
    examOf(kiosk).send({ type: 'identity.confirmed' });
    examOf(kiosk).send({ type: 'tutorial.completed' });
    expect(history.location.pathname).toBe('/exam-start');
    examOf(kiosk).send({ type: 'start.confirmed' });
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
    kiosk.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await waitForKiosk(kiosk, (s) => selectPath(s) === '/login-confirm');
    examOf(kiosk).send({ type: 'identity.confirmed' });
    examOf(kiosk).send({ type: 'tutorial.completed' });
    history.back();
    expect(history.location.pathname).toBe('/exam-tutorial');
    expect(kiosk.getSnapshot().children.exam?.getSnapshot().matches('tutorial')).toBe(true);
    // Forward again is not a way to skip ahead: the machine decides, and stays.
    history.forward();
    expect(history.location.pathname).toBe('/exam-tutorial');
  });

  describe('typed URLs with a query (seed section 2, entry guard rules)', () => {
    it('/oauth with a token stores it and lands on the exam list after GET /me', async () => {
      const { history, kiosk, storage } = bootAt('/oauth?accessToken=sso-token&schoolId=S1&loginType=2&orgStepMode=0');
      expect(storage.getItem(storageKeys.token)).toBe('sso-token');
      expect(storage.getItem(storageKeys.schoolId)).toBe('S1');
      await waitForKiosk(kiosk, (s) => selectPath(s) === '/exam');
      expect(history.location.pathname).toBe('/exam');
    });

    it('/oauth with step mode on lands on /exam-step-mode', async () => {
      const { history, kiosk } = bootAt('/oauth?accessToken=sso-token&schoolId=S1&loginType=2&orgStepMode=1');
      await waitForKiosk(kiosk, (s) => selectPath(s) === '/exam-step-mode');
      expect(history.location.pathname).toBe('/exam-step-mode');
    });

    it('/oauth with an error stores the school id and shows the SSO error where it is', () => {
      const { history, kiosk, storage } = bootAt('/oauth?error=1&errorCode=invalid_state&schoolId=S9');
      expect(storage.getItem(storageKeys.schoolId)).toBe('S9');
      expect(storage.getItem(storageKeys.token)).toBeNull();
      expect(history.location.pathname).toBe('/oauth');
      expect(kiosk.getSnapshot().children.session?.getSnapshot().context.entryError).toEqual({ kind: 'sso', code: 'invalid_state' });
    });

    it('/oauth without a school id fails as unknown', () => {
      const { kiosk } = bootAt('/oauth?accessToken=sso-token');
      expect(kiosk.getSnapshot().children.session?.getSnapshot().context.entryError).toEqual({ kind: 'sso', code: 'unknown' });
    });

    it('/oauth-kenya exchanges its token first; a refused token is the SSO error', async () => {
      const ok = bootAt('/oauth-kenya?token=kenya-ok');
      await waitForKiosk(ok.kiosk, (s) => selectPath(s) === '/exam');
      expect(ok.storage.getItem(storageKeys.loginType)).toBe('6');
      const refused = bootAt('/oauth-kenya?token=stolen');
      await waitForKiosk(refused.kiosk, (s) => s.children.session?.getSnapshot().context.entryError !== null);
      expect(refused.kiosk.getSnapshot().children.session?.getSnapshot().context.entryError).toEqual({ kind: 'sso', code: 'user_notfound' });
    });

    it('/oauth-egypt is login type 7', async () => {
      const { kiosk, storage } = bootAt('/oauth-egypt?token=egypt&orgCode=EG1');
      expect(storage.getItem(storageKeys.loginType)).toBe('7');
      await waitForKiosk(kiosk, (s) => selectPath(s) === '/exam');
    });

    it('/app-entry without organization_code is /404', () => {
      const { history } = bootAt('/app-entry');
      expect(history.location.pathname).toBe('/404');
    });

    it('/app-entry with organization_code is the school login page, from=app_entry', () => {
      const { history } = bootAt('/app-entry?organization_code=ORG1');
      expect(`${history.location.pathname}${history.location.search}`).toBe('/login?org_code=ORG1&from=app_entry');
    });

    it('/examinee-info typed without login is /403', () => {
      const { history } = bootAt('/examinee-info');
      expect(history.location.pathname).toBe('/403');
      expect(history.length).toBe(1);
    });

    it('/exam-end stays without login only for INCORRECT_DEVICE or ER_SCHEDULE_HISTORY_RETAKE', () => {
      expect(bootAt('/exam-end', memoryStorage(), 'INCORRECT_DEVICE').history.location.pathname).toBe('/exam-end');
      expect(bootAt('/exam-end').history.location.pathname).toBe('/login-code');
    });

    it('an unknown path with a query is /404', () => {
      expect(bootAt('/nope?x=1').history.location.pathname).toBe('/404');
    });
  });
});
