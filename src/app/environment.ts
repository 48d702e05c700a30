/**
 * The browser's edges, made once at boot: the storage, the Lingui instance and the language
 * controller, and the API client. The kiosk machine is given these (`machine.provide`); tests
 * make their own.
 */
import { setupI18n, type I18n } from '@lingui/core';
import { createMemoryOutbox } from '../../machines/shared/memory-outbox.ts';
import type { ApiPort, OutboxPort, StoragePort } from '../../machines/shared/ports.ts';
import { createIndexedDbOutbox } from '../platform/outbox.ts';
import { createIndexedDbExamCache } from '../platform/exam-cache.ts';
import { createMemoryExamCache } from '../../machines/exam/memory-exam-cache.ts';
import type { ExamCachePort } from '../../machines/exam/exam.types.ts';
import { deviceToken, readToken } from '../../machines/shared/storage.ts';
import { createApiClient } from '../api/client.ts';
import { createAdminClient } from '../api/admin-client.ts';
import type { AdminPort } from '../../machines/proctor/proctor.types.ts';
import { createLanguageController, type LanguageController } from '../i18n/language-controller.ts';
import { uuidV4 } from '../../machines/shared/uuid.ts';
import type { ConnectivityPort } from '../../machines/connectivity/connectivity.types.ts';
import { createBrowserConnectivity } from '../platform/connectivity.ts';

export interface BrowserEnvironment {
  storage: StoragePort;
  i18n: I18n;
  language: LanguageController;
  api: ApiPort;
  /** The staff API (/api/admin) for the proctor page: its own token, never the pupil's. */
  admin: AdminPort;
  /** Answers waiting for the server: IndexedDB, or memory where a browser refuses it. */
  outbox: OutboxPort;
  /** The running exam, kept to resume offline after a reload: IndexedDB, or memory where a browser refuses it. */
  examCache: ExamCachePort;
  /** Where single sign-on starts for a school: the API's OpenID Connect entry. */
  ssoStartUrl: (orgCode: string) => string;
  /** The terminal check's browser work (/checking-domain-connection). */
  connectivity: ConnectivityPort;
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
  const admin = createAdminClient({ baseURL: apiBase, getLanguage: () => language.language });
  const outbox = typeof indexedDB === 'undefined' ? createMemoryOutbox() : createIndexedDbOutbox();
  const examCache = typeof indexedDB === 'undefined' ? createMemoryExamCache() : createIndexedDbExamCache();
  const ssoStartUrl = (orgCode: string) => `${apiBase}/sso/oidc/start?school=${encodeURIComponent(orgCode)}`;
  const connectivity = createBrowserConnectivity({ apiBase, language: () => language.language, baseUrl: import.meta.env.BASE_URL });
  return { storage, i18n, language, api, admin, outbox, examCache, ssoStartUrl, connectivity };
}
