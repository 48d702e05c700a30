/**
 * The browser entry: makes the environment (storage, language, API client), loads the pupil's
 * language before the first paint so no screen flashes in another language, then renders.
 * It also starts the offline app shell's service worker (src/platform/service-worker.ts), and
 * sends the revocations of tokens whose logout found no network (machines/session/
 * session.revocation.ts) at boot, when the network returns, and now and then while any wait.
 */
import { createBrowserHistory } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { connectivityRouteTable, proctorRouteTable } from '../machines/kiosk/child-routes.ts';
import { createKioskMachine } from '../machines/kiosk/kiosk.actors.ts';
import { connectivityModules, documentModules, examModules, preloadKioskChildren, proctorModules } from '../machines/kiosk/kiosk.lazy.ts';
import { watchKiosk } from '../machines/kiosk/kiosk.watch.ts';
import { createRevocationSender } from '../machines/session/session.revocation.ts';
import { readSession, readStoredErrorCode, readToken } from '../machines/shared/storage.ts';
import { startEmbedBridge } from './app/embed.ts';
import { App } from './app/app.tsx';
import { loadLaterSchemas } from './api/client.ts';
import { createBrowserEnvironment, type BrowserEnvironment } from './app/environment.ts';
import { preloadLikelyScreens } from './app/preload.ts';
import { createAppRouter } from './app/router.ts';
import { followHistoryUntilRendered, syncRouterWithKiosk } from './app/router-sync.ts';
import { createBrowserTerminal } from './platform/terminal.ts';
import './styles/tokens.css';
import './styles/base.css';

/** While a revocation waits and no online event comes (the server, not the network, was down): tried again this often. */
const REVOCATION_RETRY_MS = 60_000;

/**
 * The machines of the exam, the proctor page, the terminal check and the print route are not in
 * the first chunk (machines/kiosk/kiosk.lazy.ts). One that decides the very first screen is loaded
 * before it, with the language: the exam for a stored session (a reload mid-exam resumes it), the
 * others for their typed URL. Later ones come with the preload (src/app/preload.ts).
 */
function loadFirstMachine(environment: BrowserEnvironment, pathname: string): Promise<unknown> {
  const first = readSession(environment.storage)
    ? [examModules]
    : proctorRouteTable.paths.has(pathname)
      ? [proctorModules]
      : connectivityRouteTable.paths.has(pathname)
        ? [connectivityModules, environment.connectivity]
        : pathname.startsWith('/score-report-embed') || pathname.startsWith('/login-slips/')
          ? [documentModules]
          : [];
  // A failure is left to the kiosk: the lazy machine tries again (machines/shared/lazy-machine.ts).
  return Promise.all(first.map((module) => module.load().catch(() => undefined)));
}

async function boot() {
  const environment = createBrowserEnvironment();
  await Promise.all([environment.language.start(), loadFirstMachine(environment, window.location.pathname)]);
  // The machines decide; the stored session (validated) is where they start from.
  const kiosk = createActor(
    createKioskMachine({
      api: environment.api,
      // The proctor page's staff calls (/proctor).
      admin: environment.admin,
      // The terminal check's browser work (/checking-domain-connection).
      connectivity: environment.connectivity,
      storage: environment.storage,
      outbox: environment.outbox,
      // The running exam, kept to resume after a reload without the network.
      examCache: environment.examCache,
      // The exam's clock and wake-up signals: ticks, visibilitychange, focus, online.
      terminal: createBrowserTerminal(),
      // Partner login types leave for their own sites at logout (seed section 4).
      leaveApp: (url) => window.location.assign(url),
      ssoStartUrl: environment.ssoStartUrl,
      // The print route's `locale` (score-report-embed): the document is written in that language.
      language: environment.language,
      // Kiosk: fullscreen where the browser allows it (asked inside the Start press); a refusal is ignored.
      requestFullscreen: () => {
        if (document.fullscreenElement || !document.documentElement.requestFullscreen) return;
        void document.documentElement.requestFullscreen().catch(() => undefined);
      },
      // The score report's print button and its PDF / certificate downloads.
      print: () => window.print(),
      saveFile: (file, name) => {
        const url = URL.createObjectURL(file);
        const link = Object.assign(document.createElement('a'), { href: url, download: name });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      },
    }),
    {
      input: {
        storedSession: readSession(environment.storage),
        storedToken: readToken(environment.storage),
        storedErrorCode: readStoredErrorCode(environment.storage),
        appOrigin: window.location.origin,
      },
    },
  ).start();
  // Tokens whose logout found no network: revoked as soon as the server can be reached.
  const revocations = createRevocationSender({ api: environment.api, storage: environment.storage });
  void revocations.flush();
  setInterval(() => {
    if (revocations.pending() > 0) void revocations.flush();
  }, REVOCATION_RETRY_MS);
  // Back online: calls waiting to be tried again go now (the retry machine decides). The exam
  // hears it itself, when one runs.
  window.addEventListener('online', () => {
    kiosk.getSnapshot().children.exam?.send({ type: 'connection.restored' });
    void revocations.flush();
  });
  const history = createBrowserHistory();
  const router = createAppRouter({ history, catalogComplete: () => environment.language.complete() });
  syncRouterWithKiosk(history, kiosk, (listener) => watchKiosk(kiosk, listener));
  startEmbedBridge({ history, host: window, loadConfig: () => environment.api.clientConfig() });
  // After the first location is judged: the print route gets no worker. Its module (and
  // workbox-window after it) is not part of the first screen's chunk.
  void import('./platform/service-worker.ts').then(({ startServiceWorker }) =>
    startServiceWorker({ getSnapshot: () => kiosk.getSnapshot(), watch: (listener) => watchKiosk(kiosk, listener) }),
  );
  // A first screen other than /login-code (a URL typed at boot: /403, /login, the print route...)
  // has its view in a lazy chunk: loaded before the first paint, so the page is never blank.
  // The machine may move while that chunk loads (a single sign-on return signs in and pushes the
  // exam list) and while React renders: the router follows every move from the start until its
  // first screen is rendered (router-sync.ts `followHistoryUntilRendered`).
  followHistoryUntilRendered(history, router);
  await router.load().catch(() => undefined);
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  createRoot(root).render(
    <StrictMode>
      <App environment={environment} kiosk={kiosk} router={router} />
    </StrictMode>,
  );
  // The route views, the exam's next screens first, once the first screen is up (src/app/preload.ts).
  preloadLikelyScreens(router, undefined, () => Promise.all([preloadKioskChildren(), environment.preloadPorts(), loadLaterSchemas()]));
}

void boot();
