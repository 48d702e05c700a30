/**
 * The address bar and the browser's buttons for a pupil who is logged in, through the router
 * sync (src/app/router-sync.ts) and the real kiosk over the fake API:
 * - a reload of the my-page menu stays on the menu, not /examinee-info (the restored session
 *   lands on the basic information, and the menu's URL goes on from there to the menu);
 * - an unknown path typed on /login-confirm is judged as on every other screen of a logged-in
 *   pupil: it reaches the machine, the pupil keeps the screen and the URL is corrected in place,
 *   leaving nothing in the history under the pushed screen;
 * - Back on the score report returns to the screen it was opened from (the report's screen is
 *   not pushed again);
 * - a reload on the fee's payment or on a results screen comes back to that screen, loaded anew,
 *   where the screen can still be shown; otherwise to the menu, never /examinee-info;
 * - Back on the purchased result and on the result payment goes where the pupil came from.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef, type AnyMachineSnapshot } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { selectPath, selectScreen } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk, watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { readSession } from '../../machines/shared/storage.ts';
import { syncRouterWithKiosk } from '../../src/app/router-sync.ts';
import { createFakeApi, DEMO_PASSWORD, demoLogins, demoOrganizations, VALID_CODE, type FakeApi } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

type Kiosk = ReturnType<typeof bootAt>['kiosk'];

/** The app at `url` over `storage`, as src/main.tsx boots it (a reload: a new kiosk over the same storage). */
function bootAt(url: string, storage = memoryStorage(), api: FakeApi = createFakeApi()) {
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
  const app = bootAt(`/login?org_code=${demoOrganizations.id}`, memoryStorage(), api);
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

  it('the payment is no way back from the report', async () => {
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

/** The menu with the result released; the result items owned as `paid` says. */
function releasedApi(paid: Partial<FakeApi['paid']> = {}) {
  const api = createFakeApi();
  api.menu = { ...api.menu, exam: { ...api.menu.exam, can_take: false }, result: { released: true, payment_status: 0 } };
  api.paid = { ...api.paid, exam_fee: 2, ...paid };
  return api;
}
const resultsOf = (kiosk: Kiosk) => session(kiosk).getSnapshot().children.results as AnyActorRef | undefined;
const onResultsScreen = (kiosk: Kiosk, state: 'shortResult' | 'purchasedResult' | 'scoreReport') =>
  waitForKiosk(kiosk, (s) => {
    const snapshot = s.children.session?.getSnapshot().children.results?.getSnapshot() as AnyMachineSnapshot | undefined;
    return snapshot?.matches({ [state]: 'ready' }) ?? false;
  });
const onPayment = (kiosk: Kiosk, where: 'payExamFee' | 'results') =>
  waitForKiosk(kiosk, (s) => {
    const owner = (where === 'payExamFee' ? s.children.session : s.children.session?.getSnapshot().children.results) as AnyActorRef | undefined;
    const payment = (owner?.getSnapshot() as AnyMachineSnapshot | undefined)?.children.payment?.getSnapshot() as AnyMachineSnapshot | undefined;
    return payment !== undefined && !payment.matches('loading');
  });

describe('a reload on a my-page screen past the menu', () => {
  /** The pupil's terminal reloads at `url`: a new kiosk over the same storage (the menu is read again). */
  async function reloadAt(url: string, api: FakeApi) {
    const first = await myPagePupilOnMenu(api);
    first.stop();
    return bootAt(url, first.storage, api);
  }

  it('on the fee to pay: the fee payment again, the URL kept, no entry added', async () => {
    const api = createFakeApi();
    api.menu = { ...api.menu, exam_fee: { required: true, status: 0 }, exam: { ...api.menu.exam, can_take: false } };
    const app = await reloadAt('/pay-exam-fee', api);
    await onPayment(app.kiosk, 'payExamFee');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('pay-exam-fee');
    expect(app.history.location.pathname).toBe('/pay-exam-fee');
    expect(app.history.length).toBe(1);
    // Back is the menu, as before the reload.
    app.history.push('/testing-menu');
    await onMenu(app.kiosk);
  });

  it('on the fee paid meanwhile: the menu (it says the fee is paid), in place of the payment', async () => {
    const api = createFakeApi();
    api.menu = { ...api.menu, exam_fee: { required: true, status: 2 } };
    const app = await reloadAt('/pay-exam-fee', api);
    await onMenu(app.kiosk);
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('testing-menu');
    expect(app.history.location.pathname).toBe('/testing-menu');
    expect(app.history.length).toBe(1);
  });

  it('on the short result: the short result again', async () => {
    const app = await reloadAt('/short-result', releasedApi());
    await onResultsScreen(app.kiosk, 'shortResult');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('short-result');
    expect(app.history.location.pathname).toBe('/short-result');
    expect(app.history.length).toBe(1);
  });

  it('on a result no longer to be seen: the menu', async () => {
    const api = createFakeApi();
    api.menu = { ...api.menu, exam: { ...api.menu.exam, can_take: false } };
    const app = await reloadAt('/short-result', api);
    await onMenu(app.kiosk);
    expect(app.history.location.pathname).toBe('/testing-menu');
    expect(app.history.length).toBe(1);
  });

  it('on the purchased result: the purchased result again', async () => {
    const app = await reloadAt('/purchased-result', releasedApi({ result_sheet: 2, certificate: 2 }));
    await onResultsScreen(app.kiosk, 'purchasedResult');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('purchased-result');
    expect(app.history.location.pathname).toBe('/purchased-result');
  });

  it('on the result payment: the result payment again (what was ticked is chosen anew)', async () => {
    const app = await reloadAt('/pay-exam-result', releasedApi());
    await onPayment(app.kiosk, 'results');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('pay-exam-result');
    expect(app.history.location.pathname).toBe('/pay-exam-result');
    expect(app.history.length).toBe(1);
  });

  it('on the score report: the score report again, with what is owned known (its certificate)', async () => {
    const app = await reloadAt('/score-report/7', releasedApi({ result_sheet: 2, certificate: 2 }));
    await onResultsScreen(app.kiosk, 'scoreReport');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('score-report');
    expect(app.history.location.pathname).toBe('/score-report/7');
    expect(app.history.length).toBe(1);
    expect((resultsOf(app.kiosk)!.getSnapshot().context as { owned: unknown }).owned).toEqual({ result_sheet: true, certificate: true });
  });

  it('on a score report whose sheet is not owned: the short result', async () => {
    const app = await reloadAt('/score-report/7', releasedApi());
    await onResultsScreen(app.kiosk, 'shortResult');
    expect(app.history.location.pathname).toBe('/short-result');
    expect(app.history.length).toBe(1);
  });

  it("the provider's redirect back keeps its own way: the payment confirms that checkout", async () => {
    const app = await reloadAt('/pay-exam-result?schedule_history_id=7&reference=GR-00000000-0000-4000-8000-000000000001', releasedApi());
    await waitForKiosk(app.kiosk, (s) => selectPath(s) === '/pay-exam-result');
    const payment = (resultsOf(app.kiosk)!.getSnapshot() as AnyMachineSnapshot).children.payment!.getSnapshot() as AnyMachineSnapshot;
    expect((payment.context as { returning: unknown }).returning).toMatchObject({ reference: 'GR-00000000-0000-4000-8000-000000000001' });
  });
});

describe("the browser's Back on the result payment and the purchased result", () => {
  it('the result payment opened from the short result: Back is the short result', async () => {
    const app = await myPagePupilOnMenu(releasedApi());
    session(app.kiosk).send({ type: 'results.viewRequested' });
    await onResultsScreen(app.kiosk, 'shortResult');
    resultsOf(app.kiosk)!.send({ type: 'resultItems.buyRequested' });
    await at(app.kiosk, '/pay-exam-result');
    app.history.back();
    expect(app.history.location.pathname).toBe('/short-result');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('short-result');
    await onResultsScreen(app.kiosk, 'shortResult');
  });

  it('the purchased result: Back is the payment it came from; Back again the short result', async () => {
    const app = await myPagePupilOnMenu(releasedApi({ result_sheet: 2 }));
    session(app.kiosk).send({ type: 'results.viewRequested' });
    await onResultsScreen(app.kiosk, 'shortResult');
    resultsOf(app.kiosk)!.send({ type: 'resultItems.buyRequested' });
    await at(app.kiosk, '/pay-exam-result');
    resultsOf(app.kiosk)!.send({ type: 'payment.continued' });
    await onResultsScreen(app.kiosk, 'purchasedResult');
    // The certificate is still for sale: the purchased result's "Buy" opens the payment again.
    resultsOf(app.kiosk)!.send({ type: 'resultItems.buyRequested' });
    await at(app.kiosk, '/pay-exam-result');

    app.history.back();
    expect(app.history.location.pathname).toBe('/purchased-result');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('purchased-result');
    await onResultsScreen(app.kiosk, 'purchasedResult');
    app.history.back();
    expect(app.history.location.pathname).toBe('/pay-exam-result');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('pay-exam-result');
    app.history.back();
    expect(app.history.location.pathname).toBe('/short-result');
    expect(selectScreen(app.kiosk.getSnapshot())).toBe('short-result');
  });
});
