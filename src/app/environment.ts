/**
 * The browser's edges, made once at boot: the storage, the Lingui instance and the language
 * controller, and the API client. The kiosk machine is given these (`machine.provide`); tests
 * make their own.
 */
import { setupI18n, type I18n } from '@lingui/core';
import { createMemoryOutbox } from '../../machines/shared/memory-outbox.ts';
import type { ApiPort, OutboxPort, StoragePort } from '../../machines/shared/ports.ts';
import { createMemoryExamCache } from '../../machines/exam/memory-exam-cache.ts';
import type { ExamCachePort } from '../../machines/exam/exam.types.ts';
import { deviceToken, readToken } from '../../machines/shared/storage.ts';
import { createApiClient } from '../api/client.ts';
import type { AdministrationPort } from '../../machines/administration/administration.types.ts';
import { createLanguageController, type LanguageController } from '../i18n/language-controller.ts';
import { uuidV4 } from '../../machines/shared/uuid.ts';
import type { ConnectivityPort } from '../../machines/connectivity/connectivity.types.ts';
import { lazyModule, type LazyModule } from '../../machines/shared/lazy-machine.ts';

/**
 * A port whose every method is asynchronous, made from a module loaded on its first call (the
 * staff API, IndexedDB's outbox and exam cache are not in the first screen's chunk;
 * src/app/preload.ts loads them early with the machines that use them).
 */
function lazyPort<T extends object, K extends keyof T & string>(port: LazyModule<T>, methods: readonly K[]): Pick<T, K> {
  const lazy: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of methods) {
    lazy[method] = async (...args) => ((await port.load())[method] as (...args: unknown[]) => Promise<unknown>)(...args);
  }
  // Only the methods named: a port whose type asks for one more is a type error where it is used.
  return lazy as Pick<T, K>;
}

export interface BrowserEnvironment {
  storage: StoragePort;
  i18n: I18n;
  language: LanguageController;
  api: ApiPort;
  /** The staff API (/api/admin) for the proctor page and the administrator's console: its own token, never the pupil's. */
  admin: AdministrationPort;
  /** Answers waiting for the server: IndexedDB, or memory where a browser refuses it. */
  outbox: OutboxPort;
  /** The running exam, kept to resume offline after a reload: IndexedDB, or memory where a browser refuses it. */
  examCache: ExamCachePort;
  /** Where single sign-on starts for a school: the API's OpenID Connect entry. */
  ssoStartUrl: (orgCode: string) => string;
  /** The terminal check's browser work (/checking-domain-connection), loaded with its machine. */
  connectivity: LazyModule<ConnectivityPort>;
  /** Loads what the ports above load on first use (src/app/preload.ts). */
  preloadPorts(): Promise<unknown>;
}

/** localStorage, or memory when a locked-down browser refuses it (the session then lasts one page). */
function browserStorage(): StoragePort {
  try {
    const probe = '__gradus_probe__';
    window.localStorage.setItem(probe, probe);
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    const memory = new Map<string, string>();
    return {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
      removeItem: (key) => void memory.delete(key),
    };
  }
}

export function createBrowserEnvironment(apiBase = import.meta.env.VITE_API_BASE ?? '/api'): BrowserEnvironment {
  const storage = browserStorage();
  const i18n = setupI18n();
  const language = createLanguageController({
    i18n,
    storage,
    browserLanguages: navigator.languages ?? [navigator.language],
    root: document.documentElement,
  });
  const api = createApiClient({
    baseURL: apiBase,
    getToken: () => readToken(storage),
    getLanguage: () => language.language,
    getDeviceToken: () => deviceToken(storage, uuidV4),
  });
  const adminClient = lazyModule(() =>
    import('../api/admin-client.ts').then((module) => module.createAdminClient({ baseURL: apiBase, getLanguage: () => language.language })),
  );
  const admin = lazyPort(adminClient, ['send', 'upload', 'download']);
  const indexedDbOutbox = lazyModule(() => import('../platform/outbox.ts').then((module) => module.createIndexedDbOutbox()));
  const outbox = typeof indexedDB === 'undefined' ? createMemoryOutbox() : lazyPort(indexedDbOutbox, ['put', 'list', 'remove']);
  const indexedDbExamCache = lazyModule(() => import('../platform/exam-cache.ts').then((module) => module.createIndexedDbExamCache()));
  const examCache = typeof indexedDB === 'undefined' ? createMemoryExamCache() : lazyPort(indexedDbExamCache, ['put', 'get', 'clear']);
  const ssoStartUrl = (orgCode: string) => `${apiBase}/sso/oidc/start?school=${encodeURIComponent(orgCode)}`;
  const connectivity = lazyModule(() =>
    import('../platform/connectivity.ts').then((module) =>
      module.createBrowserConnectivity({ apiBase, language: () => language.language, baseUrl: import.meta.env.BASE_URL }),
    ),
  );
  const preloadPorts = () =>
    Promise.all(
      [adminClient, connectivity, ...(typeof indexedDB === 'undefined' ? [] : [indexedDbOutbox, indexedDbExamCache])].map((port) =>
        port.load().catch(() => undefined),
      ),
    );
  return { storage, i18n, language, api, admin, outbox, examCache, ssoStartUrl, connectivity, preloadPorts };
}
