/**
 * Dates and numbers through Intl with the language's BCP 47 tag.
 *
 * Date display follows seed section 9: the Japanese long format for ja and Cantonese;
 * MM/DD/YYYY for English; day, month name, year for th, hi, pa, km, kk and ar; DD/MM/YYYY
 * otherwise. British English reads DD/MM/YYYY: that is why it is a language of its own.
 * Thai dates use the Buddhist calendar, the one Thai schools and pupils read every day
 * (a deliberate choice, DESIGN.md); the year is labelled by Intl (พ.ศ.).
 * Khmer, Burmese, Kazakh and Punjabi dates use the formatjs polyfill once it is loaded
 * (intl-polyfills.ts): the browser has no date data for them.
 */
import { polyfilledDateTimeFormat } from './intl-polyfills.ts';
import { intlLocale, type LanguageKey } from './languages.ts';

const longFormat = new Set<LanguageKey>(['ja', 'zh_yue_Hant']);
const dayMonthNameYear = new Set<LanguageKey>(['th', 'hi', 'pa', 'km', 'kk', 'ar', 'ar-nu-arab']);

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
    return dateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', ...calendar, ...zone }).format(value);
  }
  const p = parts(value, language, { day: '2-digit', month: '2-digit', year: 'numeric', ...zone });
  return language === 'en' ? `${p.month}/${p.day}/${p.year}` : `${p.day}/${p.month}/${p.year}`;
}

/** A time of day (hours and minutes). */
export function formatTime(date: Date | number | string, language: LanguageKey, timeZone?: string): string {
  return dateTimeFormat(language, { timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(new Date(date));
}

export function formatNumber(value: number, language: LanguageKey, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlLocale(language), options).format(value);
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

/** Minutes and seconds for the exam timer ("39:07"), digits in the language's numbering system. */
export function formatClock(totalSeconds: number, language: LanguageKey): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const two = (n: number) => formatNumber(n, language, { minimumIntegerDigits: 2, useGrouping: false });
  return `${two(Math.floor(seconds / 60))}:${two(seconds % 60)}`;
}
