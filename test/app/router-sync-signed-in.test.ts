/**
 * The address bar and the browser's buttons for a pupil who is logged in, through the router
 * sync (src/app/router-sync.ts) and the real kiosk over the fake API, as a tester found them in
 * Chromium:
 * - a reload of the my-page menu stays on the menu (it used to land on /examinee-info: the
 *   restored session lands on the basic information, and the menu's URL was refused there);
 * - an unknown path typed on /login-confirm is judged as on every other screen of a logged-in
 *   pupil: the pupil keeps the screen and the URL is corrected in place (it used to reach the
 *   machine never, and stay in the history under the pushed screen);
 * - Back on the score report returns to the screen it was opened from (it used to do nothing:
 *   the report's screen was pushed again).
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { selectPath, selectScreen } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk, watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { readSession } from '../../machines/shared/storage.ts';
import { syncRouterWithKiosk } from '../../src/app/router-sync.ts';
import { createFakeApi, createMemoryStorage, DEMO_PASSWORD, demoLogins, demoOrganizations, VALID_CODE, type FakeApi } from '../helpers/fake-api.ts';

type Kiosk = ReturnType<typeof bootAt>['kiosk'];

/** The app at `url` over `storage`, as src/main.tsx boots it (a reload: a new kiosk over the same storage). */
function bootAt(url: string, storage = createMemoryStorage(), api: FakeApi = createFakeApi()) {
  const kiosk = createActor(createKioskMachine({ api, storage }), { input: { storedSession: readSession(storage) } }).start();
  const history = createMemoryHistory({ initialEntries: [url] });
  const stop = syncRouterWithKiosk(history, kiosk, (listener) => watchKiosk(kiosk, listener));
  return { kiosk, history, storage, api, stop: () => (stop(), kiosk.stop()) };
}

const session = (kiosk: Kiosk) => kiosk.getSnapshot().children.session!;
const at = (kiosk: Kiosk, path: string) => waitForKiosk(kiosk, (s) => selectPath(s) === path);
const onMenu = (kiosk: Kiosk) =>
  waitForKiosk(kiosk, (s) => s.children.session?.getSnapshot().matches({ signedIn: { testingMenu: 'ready' } }) ?? false);

/** A registered my-page pupil (basic information present) logged in on the school's page, on the menu. */
async function myPagePupilOnMenu(api = createFakeApi()) {
  const app = bootAt(`/login?org_code=${demoOrganizations.id}`, createMemoryStorage(), api);
  await waitForKiosk(app.kiosk, (s) => s.children.session?.getSnapshot().matches({ signedOut: { login: 'ready' } }) ?? false);
  session(app.kiosk).send({ type: 'login.submitted', login_id: demoLogins.registered, password: DEMO_PASSWORD });
  await at(app.kiosk, '/examinee-info');
  session(app.kiosk).send({ type: 'basicInfo.acknowledged' });
  await onMenu(app.kiosk);
  expect(app.history.location.pathname).toBe('/testing-menu');
  return app;
}

describe('a reload of the my-page menu', () => {
  it('stays on the menu, loaded anew, leaving no entry behind', async () => {
    const first = await myPagePupilOnMenu();
    first.stop();
    const reloaded = bootAt('/testing-menu', first.storage);
    await onMenu(reloaded.kiosk);
    expect(reloaded.history.location.pathname).toBe('/testing-menu');
    expect(selectScreen(reloaded.kiosk.getSnapshot())).toBe('testing-menu');
    expect(reloaded.history.length).toBe(1);
  });

  it('a reload of the basic information still shows the basic information', async () => {
    const first = await myPagePupilOnMenu();
    first.stop();
    const reloaded = bootAt('/examinee-info', first.storage);
    expect(reloaded.history.location.pathname).toBe('/examinee-info');
    expect(selectScreen(reloaded.kiosk.getSnapshot())).toBe('examinee-info');
  });
});

describe('an unknown path typed while a logged-in pupil is on a screen', () => {
  it('on the menu (the session shows it at once): the pupil keeps the screen, the URL corrected in place', async () => {
    const first = await myPagePupilOnMenu();
    first.stop();
    const typed = bootAt('/no-such-page', first.storage);
    await waitForKiosk(typed.kiosk, (s) => selectPath(s) !== undefined);
    expect(typed.history.location.pathname).toBe(selectPath(typed.kiosk.getSnapshot()));
    expect(typed.history.length).toBe(1);
  });

  it('on /login-confirm (the exam shows it once its details are loaded): the same, judged once the screen comes', async () => {
    const first = bootAt('/login-code');
    session(first.kiosk).send({ type: 'loginCode.submitted', code: VALID_CODE });
    await at(first.kiosk, '/login-confirm');
    first.stop();
    const typed = bootAt('/no-such-page', first.storage);
    await at(typed.kiosk, '/login-confirm');
    expect(selectScreen(typed.kiosk.getSnapshot())).toBe('login-confirm');
    expect(typed.history.location.pathname).toBe('/login-confirm');
    // Corrected in place: Back does not return to the unknown path.
    expect(typed.history.length).toBe(1);
  });

  it('a known path the exam refuses before its screen comes (the tutorial, not reached yet) is corrected in place as well', async () => {
    const first = bootAt('/login-code');
    session(first.kiosk).send({ type: 'loginCode.submitted', code: VALID_CODE });
    await at(first.kiosk, '/login-confirm');
    first.stop();
    const typed = bootAt('/exam-tutorial', first.storage);
    await at(typed.kiosk, '/login-confirm');
    expect(typed.history.location.pathname).toBe('/login-confirm');
    expect(typed.history.length).toBe(1);
  });
});

describe("the browser's Back on the score report", () => {
  /** The menu with the result released and the result sheet and certificate bought. */
  function paidApi() {
    const api = createFakeApi();
    api.menu = { ...api.menu, exam: { ...api.menu.exam, can_take: false }, result: { released: true, payment_status: 1 } };
    api.paid = { exam_fee: 2, result_sheet: 2, certificate: 2 };
    return api;
  }
  const onResults = (kiosk: Kiosk, state: 'shortResult' | 'purchasedResult' | 'scoreReport') =>
    waitForKiosk(kiosk, (s) => {
      const snapshot = s.children.session?.getSnapshot().children.results?.getSnapshot() as AnyMachineSnapshot | undefined;
      return snapshot?.matches({ [state]: 'ready' }) ?? false;
    });
  const results = (kiosk: Kiosk) => session(kiosk).getSnapshot().children.results!;

  it('returns to the short result it was opened from, loaded anew; Back again is the menu', async () => {
    const app = await myPagePupilOnMenu(paidApi());
    session(app.kiosk).send({ type: 'results.viewRequested' });
    await onResults(app.kiosk, 'shortResult');
    expect(app.history.location.pathname).toBe('/short-result');
    results(app.kiosk).send({ type: 'report.openRequested' });
    await onResults(app.kiosk, 'scoreReport');
    expect(app.history.location.pathname).toBe('/score-report/7');

    app.history.back();
    expect(app.history.location.pathname).toBe('/short-result');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('short-result');
    await onResults(app.kiosk, 'shortResult');
    app.history.back();
    expect(app.history.location.pathname).toBe('/testing-menu');
    await onMenu(app.kiosk);
  });

  it('returns to the purchased result it was opened from', async () => {
    const app = await myPagePupilOnMenu(paidApi());
    session(app.kiosk).send({ type: 'results.viewRequested' });
    await onResults(app.kiosk, 'shortResult');
    // A result bought on this visit: pay-exam-result, then the purchased result (the payment's "Continue").
    results(app.kiosk).send({ type: 'resultItems.buyRequested' });
    await at(app.kiosk, '/pay-exam-result');
    results(app.kiosk).send({ type: 'payment.continued' });
    await onResults(app.kiosk, 'purchasedResult');
    results(app.kiosk).send({ type: 'report.openRequested' });
    await onResults(app.kiosk, 'scoreReport');

    app.history.back();
    expect(app.history.location.pathname).toBe('/purchased-result');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('purchased-result');
  });

  it('the payment is no way back from the report, and a payment screen ignores the other results paths', async () => {
    const app = await myPagePupilOnMenu(paidApi());
    session(app.kiosk).send({ type: 'results.viewRequested' });
    await onResults(app.kiosk, 'shortResult');
    results(app.kiosk).send({ type: 'report.openRequested' });
    await onResults(app.kiosk, 'scoreReport');
    app.history.push('/pay-exam-result');
    expect(app.history.location.pathname).toBe('/score-report/7');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('score-report');
  });
});
