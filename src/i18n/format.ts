/**
 * Dates, numbers, digits and region names through Intl with the language's BCP 47 tag.
 *
 * Date display follows seed section 9: the Japanese long format for ja and Cantonese;
 * MM/DD/YYYY for English; day, month name, year for th, hi, pa, km, kk and ar; DD/MM/YYYY
 * otherwise. British English reads DD/MM/YYYY: that is why it is a language of its own.
 * Thai dates use the Buddhist calendar, the one Thai schools and pupils read every day
 * (a deliberate choice, ARCHITECTURE.md); the year is labelled by Intl (พ.ศ.).
 * Kazakh dates too are day, month name, year ("15 наурыз 2026 ж."), although CLDR writes them
 * year first.
 * Khmer, Burmese, Kazakh and Punjabi dates, and the numbers and region names of those and of
 * Uzbek, use the formatjs polyfills once loaded (intl-polyfills.ts): the browser has no data for
 * them.
 *
 * Every number a pupil reads goes through here, so the language's numbering system reaches it
 * (Arabic-Indic digits for ar-nu-arab, Burmese digits for my): the timer, the time limit, the
 * keypad's keys and display, the reports. What is sent to the server stays ASCII (asciiDigits).
 */
import { polyfilledDateTimeFormat, polyfilledDisplayNames, polyfilledNumberFormat } from './intl-polyfills.ts';
import { intlLocale, type LanguageKey } from '../../contract/languages.ts';

const longFormat = new Set<LanguageKey>(['ja', 'zh_yue_Hant']);
const dayMonthNameYear = new Set<LanguageKey>(['th', 'hi', 'pa', 'km', 'kk', 'ar', 'ar-nu-arab']);
/** Languages whose CLDR pattern puts the year first, where the seed wants day, month name, year. */
const yearFirstInCldr = new Set<LanguageKey>(['kk']);

/**
 * A formatter for the language: the browser's Intl, or the polyfill where the browser has no
 * date data. The polyfill has no time-zone database, so the wall-clock time in the wanted zone
 * (or the terminal's own) is read with the browser's Intl and handed to the polyfill as UTC.
 */
function dateTimeFormat(language: LanguageKey, options: Intl.DateTimeFormatOptions) {
  const locale = intlLocale(language);
  const Polyfill = polyfilledDateTimeFormat(language);
  if (!Polyfill) return new Intl.DateTimeFormat(locale, options);
  const { timeZone, ...rest } = options;
  const formatter = new Polyfill(locale, { ...rest, timeZone: 'UTC' });
  const asUtc = (date: Date) => {
    const wall: Record<string, number> = {};
    const clock = new Intl.DateTimeFormat('en-US', {
      timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23',
    });
    for (const part of clock.formatToParts(date)) wall[part.type] = Number(part.value);
    return new Date(Date.UTC(wall.year!, wall.month! - 1, wall.day!, wall.hour!, wall.minute!, wall.second!));
  };
  return {
    format: (date: Date) => formatter.format(asUtc(date)),
    formatToParts: (date: Date) => formatter.formatToParts(asUtc(date)),
  };
}

function parts(date: Date, language: LanguageKey, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of dateTimeFormat(language, options).formatToParts(date)) out[part.type] = part.value ?? '';
  return out;
}

/** A calendar date (no time), in the language's convention. */
export function formatDate(date: Date | number | string, language: LanguageKey, timeZone?: string): string {
  const value = new Date(date);
  const zone = timeZone ? { timeZone } : {};
  if (longFormat.has(language)) return dateTimeFormat(language, { dateStyle: 'long', ...zone }).format(value);
  if (dayMonthNameYear.has(language)) {
    const calendar = language === 'th' ? { calendar: 'buddhist' } : {};
    const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric', ...calendar, ...zone };
    if (yearFirstInCldr.has(language)) return dayMonthYearOf(dateTimeFormat(language, options).formatToParts(value));
    return dateTimeFormat(language, options).format(value);
  }
  const p = parts(value, language, { day: '2-digit', month: '2-digit', year: 'numeric', ...zone });
  return language === 'en' ? `${p.month}/${p.day}/${p.year}` : `${p.day}/${p.month}/${p.year}`;
}

/**
 * Day, month name, year from a year-first date's parts ("2026 ж. 15 наурыз" -> "15 наурыз
 * 2026 ж."): the year keeps the word that labels it, the month its own (genitive) form.
 */
function dayMonthYearOf(parts: readonly { type: string; value?: string }[]): string {
  const at = (type: string) => parts.findIndex((p) => p.type === type);
  const year = at('year');
  const label = parts[year + 1]?.type === 'literal' ? (parts[year + 1]!.value ?? '').trim() : '';
  const yearText = label ? `${parts[year]?.value ?? ''} ${label}` : (parts[year]?.value ?? '');
  return [parts[at('day')]?.value, parts[at('month')]?.value, yearText].filter(Boolean).join(' ');
}

/** A time of day (hours and minutes). */
export function formatTime(date: Date | number | string, language: LanguageKey, timeZone?: string): string {
  return dateTimeFormat(language, { timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(new Date(date));
}

/**
 * Number formatters made once per language, options and implementation (the polyfill once its
 * data is loaded, else the browser's): making one costs far more than using it, and the timer
 * and the question counter format on every render.
 */
const numberFormats = new Map<string, { format(value: number): string }>();

function numberFormat(
  language: LanguageKey,
  options?: Intl.NumberFormatOptions,
  optionsKey = options ? JSON.stringify(options) : '',
): { format(value: number): string } {
  const Polyfill = polyfilledNumberFormat(language);
  const key = `${language} ${Polyfill ? 'polyfill' : 'intl'} ${optionsKey}`;
  let formatter = numberFormats.get(key);
  if (!formatter) {
    formatter = Polyfill
      ? new Polyfill(intlLocale(language), options as ConstructorParameters<typeof Polyfill>[1])
      : new Intl.NumberFormat(intlLocale(language), options);
    numberFormats.set(key, formatter);
  }
  return formatter;
}

export function formatNumber(value: number, language: LanguageKey, options?: Intl.NumberFormatOptions): string {
  return numberFormat(language, options).format(value);
}

const digitCache = new Map<LanguageKey, readonly string[]>();

/** The ten digits, 0 to 9, of the language's numbering system ("٠".."٩" for ar-nu-arab). */
export function digitsOf(language: LanguageKey): readonly string[] {
  let digits = digitCache.get(language);
  if (!digits) {
    digits = Array.from({ length: 10 }, (_, d) => formatNumber(d, language, { useGrouping: false }));
    digitCache.set(language, digits);
  }
  return digits;
}

/**
 * A length of time in minutes and seconds, in the language's own unit words and digits ("1 minute,
 * 38 seconds", "دقيقة و٣٨ ثانية"); a part that is zero is left out, and no time is "0 seconds".
 */
export function formatDuration(totalSeconds: number, language: LanguageKey): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const minutes = Math.floor(whole / 60);
  const seconds = whole % 60;
  const part = (value: number, unit: 'minute' | 'second') => formatNumber(value, language, { style: 'unit', unit, unitDisplay: 'long' });
  const parts = [...(minutes > 0 ? [part(minutes, 'minute')] : []), ...(seconds > 0 || minutes === 0 ? [part(seconds, 'second')] : [])];
  if (parts.length === 1) return parts[0]!;
  try {
    return new Intl.ListFormat(intlLocale(language), { type: 'unit', style: 'long' }).format(parts);
  } catch {
    return parts.join(' ');
  }
}

const separatorCache = new Map<LanguageKey, string>();

/** The language's decimal separator, as its numbers are written ("٫" for ar-nu-arab, "," for de). */
export function decimalSeparatorOf(language: LanguageKey): string {
  let separator = separatorCache.get(language);
  if (separator === undefined) {
    const digits = digitsOf(language);
    const text = formatNumber(1.5, language, { useGrouping: false, minimumFractionDigits: 1 });
    separator = text.slice(digits[1]!.length, text.length - digits[5]!.length) || '.';
    separatorCache.set(language, separator);
  }
  return separator;
}

/** ASCII digits in a text written with the language's digits; every other character unchanged. */
export function localizeDigits(text: string, language: LanguageKey): string {
  const digits = digitsOf(language);
  return text.replace(/[0-9]/g, (d) => digits[Number(d)]!);
}

/** The first code point (zero) of each run of decimal digits a pupil's keyboard may type. */
const digitZeros = [0x0660, 0x06f0, 0x0966, 0x09e6, 0x0a66, 0x0e50, 0x1040, 0x17e0, 0xff10];

/** Any language's decimal digits back to ASCII, as the server reads numbers (seed: answers in ASCII). */
export function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (char) => {
    const code = char.codePointAt(0)!;
    const zero = digitZeros.find((z) => code >= z && code <= z + 9);
    return zero === undefined ? char : String(code - zero);
  });
}

/**
 * A country or region's name in the interface language (seed section 3, regions), from the
 * polyfill's CLDR names where the browser has none; English where no name is known at all
 * (the browser answers the code itself, "JP"); the code as the last resort.
 */
export function formatRegion(region: string, language: LanguageKey): string {
  try {
    const Polyfill = polyfilledDisplayNames(language);
    const name = Polyfill
      ? new Polyfill([intlLocale(language)], { type: 'region' }).of(region)
      : new Intl.DisplayNames([intlLocale(language), 'en'], { type: 'region' }).of(region);
    return name && name !== region ? name : (new Intl.DisplayNames(['en'], { type: 'region' }).of(region) ?? region);
  } catch {
    return region;
  }
}

/** A rate between 0 and 1 as a percentage with one decimal (seed section 3: correct rate). */
export function formatPercent(rate: number, language: LanguageKey): string {
  return formatNumber(rate, language, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/**
 * An amount of US dollars given in minor units (cents), as the payment contract carries it
 * (seed section 9: currency USD), in the language's number format and numbering system.
 */
export function formatUsd(minor: number, language: LanguageKey): string {
  return formatNumber(minor / 100, language, { style: 'currency', currency: 'USD' });
}

const twoDigits: Intl.NumberFormatOptions = { minimumIntegerDigits: 2, useGrouping: false };

/** Minutes and seconds for the exam timer ("39:07"), digits in the language's numbering system. */
export function formatClock(totalSeconds: number, language: LanguageKey): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const two = numberFormat(language, twoDigits, 'clock');
  return `${two.format(Math.floor(seconds / 60))}:${two.format(seconds % 60)}`;
}
