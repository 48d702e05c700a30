/**
 * The offline app shell's service worker (Workbox's generated worker, built by vite-plugin-pwa:
 * vite.config.ts): its registration, and when a new version may take over.
 *
 * Promises:
 * - registered only in a production build, in a browser that has service workers, and never on
 *   the print route (the server's own Chromium renders PDFs there); never in `npm run dev`,
 *   jsdom or the tests;
 * - a new version installs in the background and waits (registerType 'prompt'); it is
 *   activated only at a safe moment (`mayActivateUpdate`): a screen where a reload loses
 *   nothing and no call is in flight, and never in the exam past Start (the questions, the
 *   finish, or a restored sitting not yet known to be before Start). A version found waiting
 *   mid-exam is applied at the next safe moment: the end screen, the login screen, the terminal
 *   check once its checks are done;
 * - once applied, the page reloads once onto the new version, so it never runs old code
 *   against the new version's chunks.
 * The decision is this tab's: a kiosk runs one. A second tab of the same exam is not asked.
 *
 * `shellReady` (the exam's TerminalPort.shellReady: Start waits for it) says when a reload
 * without the network would show the app: the worker controls this page (a first install claims
 * the page it was registered from: clientsClaim, vite.config.ts) and the shell is in its
 * precache. Workbox's install stores every precached file or fails, so a controlling worker has
 * the whole shell; index.html in CacheStorage is checked as well (the navigation fallback serves
 * it). Where the browser has no service worker at all (or in `npm run dev`, which registers
 * none), it resolves at once: nothing would ever come of waiting, and such a terminal still runs
 * the exam online. A failed install (the new worker turns redundant with none in control: a
 * precached file could not be fetched) is tried again (`registration.update()`), after a wait
 * that grows with each failure (machines/shared/backoff.ts); Start's own time-out tells the pupil.
 */
import type { Workbox } from 'workbox-window';
import { backoffMs } from '../../machines/shared/backoff.ts';
import { selectActiveChild, selectScreen, type KioskSnapshot, type ScreenName } from '../../machines/kiosk/kiosk.selectors.ts';

/** What the update policy reads of the kiosk: the screen shown and whether a call is in flight. */
export interface UpdateMoment {
  screen: ScreenName;
  /** The active machine is waiting for the server (tag `busy`: logging in, starting, signing out...). */
  busy: boolean;
}

/**
 * Screens where a reload loses nothing: the stored session brings the pupil back to the same
 * place (or, before Start, to "Is this you?"). Left out: the exam past Start ('exam'), a
 * restored sitting still loading ('booting': it may be past Start), the entry routes and the
 * print route (a redirect or a document in progress), the payment screens (a checkout may be
 * open with the provider), and the basic-information form (typed and not yet sent).
 */
const restingScreens: ReadonlySet<ScreenName> = new Set<ScreenName>([
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
  // The proctor console (a staff page, no exam of its own): it reloads onto the live roster.
  'proctor',
  // The terminal check (/checking-domain-connection): public, no exam of its own; a reload runs
  // the checks again. Not while a check is under way (tag `busy`).
  'connectivity',
]);

/** May a waiting version of the app be activated now? */
export function mayActivateUpdate(moment: UpdateMoment): boolean {
  return !moment.busy && restingScreens.has(moment.screen);
}

/** The update moment the kiosk is at. */
export function updateMomentOf(snapshot: KioskSnapshot): UpdateMoment {
  const child = selectActiveChild(snapshot);
  const busy = Boolean(child && (child.getSnapshot() as { hasTag(tag: string): boolean }).hasTag('busy'));
  return { screen: selectScreen(snapshot), busy };
}

/** How often a terminal left open asks whether a new version was deployed. */
export const UPDATE_CHECK_INTERVAL_MS = 30 * 60_000;

export interface ServiceWorkerOptions {
  /** The kiosk's current snapshot. */
  getSnapshot(): KioskSnapshot;
  /** Calls `listener` on every change anywhere in the kiosk (kiosk.watch.ts). */
  watch(listener: () => void): () => void;
  /** The worker's URL (vite.config.ts: `sw.js` at the root, scope `/`). */
  scriptUrl?: string;
  /** Reloads the page onto the new version (window.location.reload). */
  reload?: () => void;
}

/** Registers the worker and applies waiting versions by the policy above; returns a stop function. */
export function startServiceWorker(options: ServiceWorkerOptions): () => void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return () => undefined;
  const { getSnapshot, watch, scriptUrl = '/sw.js', reload = () => window.location.reload() } = options;
  if (getSnapshot().matches('document')) return () => undefined;

  // workbox-window is loaded after the first screen.
  let stopped = false;
  let stop: () => void = () => undefined;
  void import('workbox-window').then((module) => {
    if (!stopped) stop = register(new module.Workbox(scriptUrl, { scope: '/' }), getSnapshot, watch, reload);
  });
  return () => {
    stopped = true;
    stop();
  };
}

function register(
  workbox: Workbox,
  getSnapshot: ServiceWorkerOptions['getSnapshot'],
  watch: ServiceWorkerOptions['watch'],
  reload: () => void,
): () => void {
  let waiting = false;
  let applying = false;

  const applyIfSafe = () => {
    if (!waiting || applying || !mayActivateUpdate(updateMomentOf(getSnapshot()))) return;
    applying = true;
    // The new worker takes control (clientsClaim) once it is active: then this page reloads onto it.
    workbox.addEventListener('controlling', () => reload());
    workbox.messageSkipWaiting();
  };

  workbox.addEventListener('waiting', () => {
    waiting = true;
    applyIfSafe();
  });
  const stopWatching = watch(applyIfSafe);
  void workbox.register().catch(() => undefined);
  const timer = setInterval(() => void workbox.update().catch(() => undefined), UPDATE_CHECK_INTERVAL_MS);
  return () => {
    stopWatching();
    clearInterval(timer);
  };
}

/** What `shellReady` reads of the browser (tests give their own). */
export interface ShellEnvironment {
  /** navigator.serviceWorker; undefined where the browser has none. */
  container: Pick<ServiceWorkerContainer, 'controller' | 'addEventListener' | 'removeEventListener' | 'getRegistration'> | undefined;
  /** Whether the shell is in the precache (index.html in CacheStorage). */
  hasShell(): Promise<boolean>;
  /** A production build registers the worker; `npm run dev` never does. */
  registers: boolean;
}

function browserShellEnvironment(): ShellEnvironment {
  return {
    container: typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
    hasShell: async () => typeof caches !== 'undefined' && (await caches.match('/index.html', { ignoreSearch: true })) !== undefined,
    registers: import.meta.env.PROD,
  };
}

/** How often `shellReady` looks again while it waits (besides controllerchange and the install's own events). */
const SHELL_CHECK_INTERVAL_MS = 500;
/** A failed install is tried again after 2 s, doubling, at most this far apart. */
const SHELL_RETRY_MAX_MS = 30_000;

/**
 * Resolves once a reload without the network would show the app (see the header), trying a
 * failed install again meanwhile; rejects only when `signal` aborts (the wait is no longer
 * wanted: it stops looking).
 */
export function shellReady(signal?: AbortSignal, environment: ShellEnvironment = browserShellEnvironment()): Promise<void> {
  const { container, hasShell, registers } = environment;
  if (!registers || !container) return Promise.resolve();
  if (signal?.aborted) return Promise.reject(new Error('no longer waited for'));
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let failures = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const watched = new Set<ServiceWorker>();
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      container.removeEventListener('controllerchange', check);
      signal?.removeEventListener('abort', aborted);
      clearInterval(timer);
      clearTimeout(retry);
      if (error) reject(error);
      else resolve();
    };
    const installAgain = (registration: ServiceWorkerRegistration) => {
      retry = setTimeout(
        () => void registration.update().catch(() => undefined).then(check),
        backoffMs(failures++, { firstMs: 2_000, maxMs: SHELL_RETRY_MAX_MS }),
      );
    };
    const aborted = () => finish(new Error('no longer waited for'));
    signal?.addEventListener('abort', aborted);
    async function check() {
      if (settled) return;
      if (container!.controller && (await hasShell().catch(() => false))) return finish();
      const registration = await container!.getRegistration('/').catch(() => undefined);
      const installing = registration?.installing;
      if (registration && installing && !watched.has(installing)) {
        watched.add(installing);
        installing.addEventListener('statechange', () => {
          if (installing.state === 'redundant' && !container!.controller) {
            if (!settled) installAgain(registration);
          } else void check();
        });
      }
    }
    container.addEventListener('controllerchange', check);
    // The registration is made after the first screen (main.tsx): look for its install now and then.
    const timer = setInterval(() => void check(), SHELL_CHECK_INTERVAL_MS);
    void check();
  });
}

