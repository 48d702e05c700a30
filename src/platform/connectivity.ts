/**
 * The browser's ConnectivityPort (machines/connectivity/connectivity.types.ts): the real work
 * behind the terminal check, each step stopped by the check's AbortSignal.
 *
 * Promises:
 * - `get` asks the network itself, never a cache: `cache: 'no-store'` past the HTTP cache, and a
 *   `gradus-check` query parameter so the offline shell's precache (which answers the app's own
 *   URLs) does not match and lets the request through. It resolves with any answer (status,
 *   Content-Type, the whole body) and rejects only when none came;
 * - the URLs are this page's own: `<API base>/health`, the app's base URL on this origin, and
 *   KaTeX's built files as index.html names them (src/platform/math-assets.ts);
 * - `storage` reads navigator.storage.estimate() and writes, reads back and deletes one record
 *   in IndexedDB, in a database of its own (never the answer outbox's, never a pupil's data);
 * - `offlineShell` only reads the service worker's state; on a first visit, while the worker the
 *   app registered is still installing, it waits (at most SHELL_SETTLE_MS) for it to take control;
 * - `fonts` draws the interface language's own name (in its script) with the app's font stack on
 *   a canvas, character by character, and counts the characters drawn exactly like a code point no
 *   font has (the "missing glyph" box). The browser falls back to any installed font that has a
 *   character, so a count of 0 means the terminal can show the language, whichever font does it.
 *   Web fonts of the stack, if the app ever ships any, are loaded first (document.fonts.load).
 */
import { wrap, type IDBPDatabase } from 'idb';
import type { ConnectivityPort, FontFacts, HttpAnswer, OfflineShellFacts, StorageFacts } from '../../machines/connectivity/connectivity.types.ts';
import { languages, type LanguageKey } from '../../contract/languages.ts';
import { readMathAssets } from './math-assets.ts';

/** The storage check's own database: one store, one record at a time, deleted again. */
export const CHECK_DB = 'gradus-terminal-check';
const CHECK_STORE = 'probe';
/** How long a first install may take to control the page before the check says "reload once". */
export const SHELL_SETTLE_MS = 5_000;
/** The query parameter that keeps the offline shell's precache from answering a check. */
export const CHECK_PARAM = 'gradus-check';
/** A code point no font has (unassigned in Unicode): how this browser draws a missing glyph. */
const NO_GLYPH = '\u0378';

export interface BrowserConnectivityOptions {
  /** The API base the app calls (VITE_API_BASE, default /api). */
  apiBase: string;
  /** The interface language now (the language controller's). */
  language: () => LanguageKey;
  /** The app's base URL (import.meta.env.BASE_URL). */
  baseUrl?: string;
  fetch?: typeof fetch;
  document?: Document;
  navigator?: Navigator;
  /** The IndexedDB factory (default: the global one); null: this browser has none. */
  indexedDB?: IDBFactory | null;
}

function bust(url: string, base: string): string {
  const target = new URL(url, base);
  target.searchParams.set(CHECK_PARAM, String(Date.now()));
  return target.href;
}

/** Rejects when the signal aborts; resolves after `ms` otherwise. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

async function indexedDbRoundTrip(factory: IDBFactory | null): Promise<StorageFacts['roundTrip']> {
  if (!factory) return 'unavailable';
  try {
    const request = factory.open(CHECK_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(CHECK_STORE);
    const db = (await wrap(request)) as IDBPDatabase;
    try {
      const key = `probe-${Date.now()}`;
      // Written as an answer is (durable before it counts), in several scripts.
      const written = { at: new Date().toISOString(), text: 'Gradus ✓ العربية 日本語 ខ្មែរ' };
      const tx = db.transaction(CHECK_STORE, 'readwrite', { durability: 'strict' });
      await Promise.all([tx.store.put(written, key), tx.done]);
      const read = (await db.get(CHECK_STORE, key)) as typeof written | undefined;
      await db.delete(CHECK_STORE, key);
      const gone = (await db.get(CHECK_STORE, key)) === undefined;
      return read?.at === written.at && read.text === written.text && gone ? 'ok' : 'mismatch';
    } finally {
      db.close();
    }
  } catch {
    return 'failed';
  }
}

/** The page's pixels of `text` drawn in `font`, with its advance width, as one comparable string. */
function glyphPrint(context: CanvasRenderingContext2D, text: string, font: string): string {
  const { width, height } = context.canvas;
  context.clearRect(0, 0, width, height);
  context.font = font;
  context.textBaseline = 'middle';
  context.fillStyle = '#000';
  context.fillText(text, 8, height / 2);
  const pixels = context.getImageData(0, 0, width, height).data;
  let hash = 0;
  for (let i = 3; i < pixels.length; i += 4) hash = (Math.imul(hash, 31) + pixels[i]! * ((i >> 2) + 1)) | 0;
  return `${context.measureText(text).width.toFixed(2)}:${hash}`;
}

export function createBrowserConnectivity(options: BrowserConnectivityOptions): ConnectivityPort {
  const doc = options.document ?? document;
  const nav = options.navigator ?? navigator;
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const factory = options.indexedDB !== undefined ? options.indexedDB : typeof indexedDB === 'undefined' ? null : indexedDB;
  const base = () => doc.baseURI;

  return {
    now: () => Date.now(),

    urls() {
      const math = readMathAssets(doc);
      return {
        apiHealth: new URL(`${options.apiBase.replace(/\/+$/, '')}/health`, base()).href,
        front: new URL(options.baseUrl ?? '/', base()).href,
        mathScript: math.script,
        mathStyle: math.style,
      };
    },

    async get(url, signal): Promise<HttpAnswer> {
      const response = await fetchFn(bust(url, base()), { cache: 'no-store', credentials: 'same-origin', redirect: 'follow', signal });
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: await response.text() };
    },

    async storage(): Promise<StorageFacts> {
      let availableBytes: number | null = null;
      try {
        const estimate = await nav.storage?.estimate();
        if (estimate && typeof estimate.quota === 'number') availableBytes = Math.max(0, estimate.quota - (estimate.usage ?? 0));
      } catch {
        availableBytes = null;
      }
      return { availableBytes, roundTrip: await indexedDbRoundTrip(factory) };
    },

    async offlineShell(signal): Promise<OfflineShellFacts> {
      const container = 'serviceWorker' in nav ? nav.serviceWorker : undefined;
      const secure = doc.defaultView?.isSecureContext ?? true;
      if (!container || !secure) return { supported: false, registered: false, active: false, controlled: false };
      let registration = await container.getRegistration();
      if (registration && !registration.active && !container.controller) {
        // A first install under way: with clientsClaim it takes this page as soon as it is active.
        const taken = new Promise<void>((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }));
        await Promise.race([taken, wait(SHELL_SETTLE_MS, signal)]);
        registration = await container.getRegistration();
      }
      return {
        supported: true,
        registered: Boolean(registration),
        active: Boolean(registration?.active),
        controlled: Boolean(container.controller),
      };
    },

    async fonts(): Promise<FontFacts> {
      const language = options.language();
      const sample = languages[language].nativeName;
      const family = doc.defaultView?.getComputedStyle(doc.documentElement).fontFamily || 'sans-serif';
      const font = `32px ${family}`;
      try {
        await doc.fonts?.load(font, sample);
      } catch {
        // A web font that cannot load is drawn with the fallback: the drawing below tells.
      }
      const canvas = doc.createElement('canvas');
      canvas.width = 96;
      canvas.height = 64;
      let context: CanvasRenderingContext2D | null = null;
      try {
        context = canvas.getContext('2d', { willReadFrequently: true });
      } catch {
        context = null;
      }
      if (!context) return { language, sample, measured: false, missing: 0 };
      const missingGlyph = glyphPrint(context, NO_GLYPH, font);
      const characters = [...new Set([...sample].filter((c) => /[\p{L}\p{N}]/u.test(c)))];
      const missing = characters.filter((c) => glyphPrint(context, c, font) === missingGlyph).length;
      return { language, sample, measured: true, missing };
    },
  };
}
