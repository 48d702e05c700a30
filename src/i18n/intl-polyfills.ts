/**
 * CLDR data for the languages the browser cannot format (ARCHITECTURE.md, i18n). Debian's Chromium
 * ships a reduced ICU:
 * - dates: no data for Khmer and Burmese (Intl falls back to en-US, "March 15, 2026") and only
 *   the root locale's patterns for Kazakh and Punjabi ("2026 M03 15"; Uzbek has those too, but
 *   its DD/MM/YYYY dates are built from numeric parts, which the root data gets right);
 * - numbers: no data for Khmer and Burmese (en-US: Latin digits where Burmese writes its own,
 *   "$15.00" where Khmer writes "15.00$"), and the root's symbols for Kazakh and Uzbek ("1,234.5"
 *   where they write "1 234,5"); Punjabi's Indian grouping ("12,34,567") is missing too;
 * - country and region names: none for Khmer, Burmese, Kazakh, Punjabi and Uzbek (English, or
 *   the bare code "JP").
 * For exactly those languages, the formatjs polyfills (`@formatjs/intl-datetimeformat`,
 * `@formatjs/intl-numberformat`, `@formatjs/intl-displaynames`) with the language's CLDR data are
 * loaded when the language is activated, each as its own chunk.
 *
 * The global Intl is left alone: every other language keeps the browser's own formatters.
 * format.ts asks `polyfilledDateTimeFormat`, `polyfilledNumberFormat` and
 * `polyfilledDisplayNames` for a constructor and falls back to Intl's. The date polyfill
 * carries no time-zone database (almost a megabyte): format.ts resolves the wall-clock fields in
 * the wanted zone with the browser's Intl and hands the polyfill UTC.
 */
import type { DateTimeFormatConstructor } from '@formatjs/intl-datetimeformat';
import type { DisplayNames as DisplayNamesPolyfill } from '@formatjs/intl-displaynames';
import type { NumberFormat as NumberFormatPolyfill } from '@formatjs/intl-numberformat';
import type { LanguageKey } from '../../contract/languages.ts';

type Loader = () => Promise<unknown>;

/** The CLDR date data of each language the browser lacks, one chunk each. */
const dateData: Partial<Record<LanguageKey, Loader>> = {
  km: () => import('@formatjs/intl-datetimeformat/locale-data/km.js'),
  my: () => import('@formatjs/intl-datetimeformat/locale-data/my.js'),
  kk: () => import('@formatjs/intl-datetimeformat/locale-data/kk.js'),
  pa: () => import('@formatjs/intl-datetimeformat/locale-data/pa.js'),
};

/** The CLDR number data of each language the browser lacks or has only the root's for. */
const numberData: Partial<Record<LanguageKey, Loader>> = {
  km: () => import('@formatjs/intl-numberformat/locale-data/km.js'),
  my: () => import('@formatjs/intl-numberformat/locale-data/my.js'),
  kk: () => import('@formatjs/intl-numberformat/locale-data/kk.js'),
  pa: () => import('@formatjs/intl-numberformat/locale-data/pa.js'),
  uz: () => import('@formatjs/intl-numberformat/locale-data/uz.js'),
};

/** The CLDR display names (countries and regions) of each language the browser lacks. */
const displayNamesData: Partial<Record<LanguageKey, Loader>> = {
  km: () => import('@formatjs/intl-displaynames/locale-data/km.js'),
  my: () => import('@formatjs/intl-displaynames/locale-data/my.js'),
  kk: () => import('@formatjs/intl-displaynames/locale-data/kk.js'),
  pa: () => import('@formatjs/intl-displaynames/locale-data/pa.js'),
  uz: () => import('@formatjs/intl-displaynames/locale-data/uz.js'),
};

/** Where the date locale-data modules queue their data while the global Intl is not the polyfill. */
const queueKey = '__FORMATJS_DATETIMEFORMAT_DATA__';

type NumberFormatConstructor = typeof NumberFormatPolyfill;
type DisplayNamesConstructor = typeof DisplayNamesPolyfill;

let dateTimeFormat: DateTimeFormatConstructor | undefined;
let numberFormat: NumberFormatConstructor | undefined;
let displayNames: DisplayNamesConstructor | undefined;
const readyDates = new Set<LanguageKey>();
const readyNumbers = new Set<LanguageKey>();
const readyDisplayNames = new Set<LanguageKey>();

export function needsDatePolyfill(language: LanguageKey): boolean {
  return Object.hasOwn(dateData, language);
}

export function needsNumberPolyfill(language: LanguageKey): boolean {
  return Object.hasOwn(numberData, language);
}

export function needsDisplayNamesPolyfill(language: LanguageKey): boolean {
  return Object.hasOwn(displayNamesData, language);
}

/**
 * The number and display-name data modules add themselves only to a global constructor that has
 * `__addLocaleData` (they have no queue, unlike the date data). While one loads, the browser's
 * own constructor gets that one static, handing the data to the polyfill; nothing else of the
 * global changes, and the static goes once no load needs it.
 */
const pendingHooks = new Map<'NumberFormat' | 'DisplayNames', number>();

async function loadInto(name: 'NumberFormat' | 'DisplayNames', addLocaleData: (...data: never[]) => void, load: Loader): Promise<void> {
  const target = Intl[name] as unknown as { __addLocaleData?: (...data: never[]) => void };
  const own = Object.hasOwn(target, '__addLocaleData');
  if (!own) {
    pendingHooks.set(name, (pendingHooks.get(name) ?? 0) + 1);
    target.__addLocaleData = addLocaleData;
  }
  try {
    await load();
  } finally {
    if (!own) {
      const left = (pendingHooks.get(name) ?? 1) - 1;
      pendingHooks.set(name, left);
      if (left === 0) delete target.__addLocaleData;
    }
  }
}

async function loadDates(language: LanguageKey): Promise<void> {
  const load = dateData[language];
  if (!load || readyDates.has(language)) return;
  const [module] = await Promise.all([import('@formatjs/intl-datetimeformat'), load()]);
  dateTimeFormat = module.DateTimeFormat;
  const globals = globalThis as Record<string, unknown>;
  const queued = globals[queueKey];
  if (Array.isArray(queued)) {
    dateTimeFormat.__addLocaleData(...(queued as Parameters<DateTimeFormatConstructor['__addLocaleData']>));
    delete globals[queueKey];
  }
  readyDates.add(language);
}

async function loadNumbers(language: LanguageKey): Promise<void> {
  const load = numberData[language];
  if (!load || readyNumbers.has(language)) return;
  const { NumberFormat } = await import('@formatjs/intl-numberformat');
  await loadInto('NumberFormat', NumberFormat.__addLocaleData.bind(NumberFormat) as (...data: never[]) => void, load);
  numberFormat = NumberFormat;
  readyNumbers.add(language);
}

async function loadDisplayNames(language: LanguageKey): Promise<void> {
  const load = displayNamesData[language];
  if (!load || readyDisplayNames.has(language)) return;
  const { DisplayNames } = await import('@formatjs/intl-displaynames');
  await loadInto('DisplayNames', DisplayNames.__addLocaleData.bind(DisplayNames) as (...data: never[]) => void, load);
  displayNames = DisplayNames;
  readyDisplayNames.add(language);
}

/** Loads the polyfills and this language's data where the language needs them; else nothing. */
export async function loadIntlPolyfills(language: LanguageKey): Promise<void> {
  await Promise.all([loadDates(language), loadNumbers(language), loadDisplayNames(language)]);
}

/** The polyfill's DateTimeFormat when this language uses it and its data is loaded. */
export function polyfilledDateTimeFormat(language: LanguageKey): DateTimeFormatConstructor | undefined {
  return readyDates.has(language) ? dateTimeFormat : undefined;
}

/** The polyfill's NumberFormat when this language uses it and its data is loaded. */
export function polyfilledNumberFormat(language: LanguageKey): NumberFormatConstructor | undefined {
  return readyNumbers.has(language) ? numberFormat : undefined;
}

/** The polyfill's DisplayNames when this language uses it and its data is loaded. */
export function polyfilledDisplayNames(language: LanguageKey): DisplayNamesConstructor | undefined {
  return readyDisplayNames.has(language) ? displayNames : undefined;
}
