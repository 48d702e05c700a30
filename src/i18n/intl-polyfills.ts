/**
 * Date data for the languages the browser cannot format (DESIGN.md, i18n): Debian's Chromium
 * ships a reduced ICU with no date data for Khmer and Burmese (Intl falls back to en-US,
 * "March 15, 2026") and only the root locale's patterns for Kazakh and Punjabi ("2026 M03
 * 15"; Uzbek has those too, but its DD/MM/YYYY dates are built from numeric parts, which
 * the root data gets right). For exactly those four languages, `@formatjs/intl-datetimeformat` with the
 * language's CLDR data is loaded when the language is activated, as its own chunk.
 *
 * The global Intl is left alone: every other language keeps the browser's own formatter.
 * format.ts asks `polyfilledDateTimeFormat` for a constructor and falls back to Intl's.
 * The polyfill carries no time-zone database (almost a megabyte): format.ts resolves the
 * wall-clock fields in the wanted zone with the browser's Intl and hands the polyfill UTC.
 */
import type { DateTimeFormatConstructor } from '@formatjs/intl-datetimeformat';
import type { LanguageKey } from './languages.ts';

/** The CLDR date data of each language the browser lacks, one chunk each. */
const localeData: Partial<Record<LanguageKey, () => Promise<unknown>>> = {
  km: () => import('@formatjs/intl-datetimeformat/locale-data/km.js'),
  my: () => import('@formatjs/intl-datetimeformat/locale-data/my.js'),
  kk: () => import('@formatjs/intl-datetimeformat/locale-data/kk.js'),
  pa: () => import('@formatjs/intl-datetimeformat/locale-data/pa.js'),
};

/** Where the locale-data modules queue their data while the global Intl is not the polyfill. */
const queueKey = '__FORMATJS_DATETIMEFORMAT_DATA__';

let polyfill: DateTimeFormatConstructor | undefined;
const ready = new Set<LanguageKey>();

export function needsDatePolyfill(language: LanguageKey): boolean {
  return Object.hasOwn(localeData, language);
}

/** Loads the date polyfill and this language's data if the language needs them; else nothing. */
export async function loadIntlPolyfills(language: LanguageKey): Promise<void> {
  const load = localeData[language];
  if (!load || ready.has(language)) return;
  const [module] = await Promise.all([import('@formatjs/intl-datetimeformat'), load()]);
  polyfill = module.DateTimeFormat;
  const globals = globalThis as Record<string, unknown>;
  const queued = globals[queueKey];
  if (Array.isArray(queued)) {
    polyfill.__addLocaleData(...(queued as Parameters<DateTimeFormatConstructor['__addLocaleData']>));
    delete globals[queueKey];
  }
  ready.add(language);
}

/** The polyfill's DateTimeFormat when this language uses it and its data is loaded. */
export function polyfilledDateTimeFormat(language: LanguageKey): DateTimeFormatConstructor | undefined {
  return ready.has(language) ? polyfill : undefined;
}
