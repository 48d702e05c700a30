/**
 * The terminal's interface language: chooses it at boot (stored preference, else browser,
 * else en), loads its catalog into the Lingui instance, sets `lang` and `dir` on <html>, and
 * remembers a pupil's choice through the storage module (machines/shared/storage.ts), where
 * it survives logout as the terminal's setting.
 *
 * At boot only the first screen's part of the catalog is awaited (src/i18n/catalog.ts); the rest
 * loads at once beside it and `complete()` resolves when it is in, which every screen but the
 * first awaits (src/routes/__root.tsx). A change of language loads the whole catalog first.
 *
 * Framework-free; React reads it through language-context.tsx.
 */
import type { I18n, Messages } from '@lingui/core';
import type { StoragePort } from '../../machines/shared/ports.ts';
import { readLanguage, writeLanguage } from '../../machines/shared/storage.ts';
import { loadCatalog } from './catalog.ts';
import { detectLanguage } from './detect.ts';
import { loadIntlPolyfills } from './intl-polyfills.ts';
import { catalogOf, defaultLanguage, intlLocale, languages, type LanguageKey } from '../../contract/languages.ts';

export interface LanguageControllerOptions {
  i18n: I18n;
  storage: StoragePort;
  /** navigator.languages in the browser. */
  browserLanguages: readonly string[];
  /** The element that gets `lang` and `dir` (document.documentElement); none in tests. */
  root?: HTMLElement | null;
  /** Swappable for tests. */
  load?: typeof loadCatalog;
}

export interface LanguageController {
  /** The language now active (valid after `start()`). */
  readonly language: LanguageKey;
  /** The BCP 47 tag Intl should use for the active language. */
  readonly locale: string;
  /** Detects and activates the language; resolves when its first screen's messages are loaded. */
  start(): Promise<LanguageKey>;
  /**
   * Resolves when the active language's whole catalog is loaded. A part that failed to load is
   * asked for again by the next call; the promise never rejects.
   */
  complete(): Promise<void>;
  /** Activates another language and stores it as the terminal's preference. */
  change(language: LanguageKey): Promise<void>;
  subscribe(listener: () => void): () => void;
}

export function createLanguageController(options: LanguageControllerOptions): LanguageController {
  const { i18n, storage, browserLanguages, root = null, load = loadCatalog } = options;
  const listeners = new Set<() => void>();
  let current: LanguageKey = 'en';
  let request = 0;

  /** The rest of the active language's catalog (after `start()`): loaded, loading, or failed (asked again). */
  let completion: { ticket: number; done: Promise<void>; failed: boolean } = { ticket: 0, done: Promise.resolve(), failed: false };

  function loadRest(ticket: number, language: LanguageKey, rest: Promise<Messages>): void {
    const state = { ticket, failed: false, done: Promise.resolve() };
    state.done = rest.then(
      (messages) => {
        // Merged into the active catalog (Lingui's `load`), unless another language came since.
        if (ticket === request) i18n.load(intlLocale(language), messages);
      },
      () => {
        state.failed = true;
      },
    );
    completion = state;
  }

  /** With `firstScreenOnly`, the rest of the catalog loads beside it and is merged when it comes. */
  async function activate(language: LanguageKey, firstScreenOnly = false): Promise<void> {
    const ticket = ++request;
    const catalog = catalogOf(language);
    const rest = firstScreenOnly ? load(catalog, 'later') : undefined;
    // Its failure is `complete()`'s to handle.
    rest?.catch(() => undefined);
    // Date data the browser lacks (intl-polyfills.ts) loads with the catalog, before anything renders.
    const [messages] = await Promise.all([load(catalog, firstScreenOnly ? 'first-screen' : undefined), loadIntlPolyfills(language)]);
    // A later choice wins if two catalogs load out of order.
    if (ticket !== request) return;
    const locale = intlLocale(language);
    // Lingui keys the catalog by the Intl tag so plurals and ICU numbers follow the language.
    i18n.loadAndActivate({ locale, messages });
    current = language;
    if (rest) loadRest(ticket, language, rest);
    else completion = { ticket, done: Promise.resolve(), failed: false };
    if (root) {
      root.lang = languages[language].tag.split('-u-')[0]!;
      root.dir = languages[language].dir;
    }
    for (const listener of listeners) listener();
  }

  return {
    get language() {
      return current;
    },
    get locale() {
      return intlLocale(current);
    },
    async start() {
      const language = detectLanguage(readLanguage(storage), browserLanguages);
      try {
        await activate(language, true);
      } catch {
        // The catalog chunk could not be loaded: English is the source and always readable.
        if (language === defaultLanguage) throw new Error('The English catalog could not be loaded');
        await activate(defaultLanguage, true);
      }
      return current;
    },
    complete() {
      if (completion.failed && completion.ticket === request) loadRest(request, current, load(catalogOf(current), 'later'));
      return completion.done;
    },
    async change(language) {
      await activate(language);
      writeLanguage(storage, language);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
