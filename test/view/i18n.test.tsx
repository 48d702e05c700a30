// @vitest-environment jsdom
/**
 * i18n: the 23 catalog keys as lingui.config.ts lists them, each with its catalog; BCP 47 tags;
 * choosing the language (stored, browser, en); every FailureCode with a message; en and ja
 * complete; dates and numbers by the seed's rules; lang and dir on <html>.
 */
import { setupI18n } from '@lingui/core';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogLocales } from '../../lingui.config.ts';
import { errorCodes } from '../../contract/errors.ts';
import { failureMessage, failureMessages } from '../../src/i18n/failure-messages.ts';
import { detectLanguage, matchBrowserLanguage } from '../../src/i18n/detect.ts';
import { formatDate, formatPercent } from '../../src/i18n/format.ts';
import { createLanguageController } from '../../src/i18n/language-controller.ts';
import { catalogKeys, catalogOf, intlLocale, languageOptions, languages } from '../../contract/languages.ts';
import { loadCatalog } from '../../src/i18n/catalog.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

describe('catalog keys', () => {
  it('are exactly the ones lingui.config.ts lists, each with a PO catalog', () => {
    expect([...catalogKeys]).toEqual(catalogLocales);
    for (const key of catalogKeys) expect(existsSync(`locales/${key}/messages.po`), key).toBe(true);
  });

  it('map to BCP 47 tags for Intl', () => {
    expect(languages['en-gb'].tag).toBe('en-GB');
    expect(languages.zh_yue_Hant.tag).toBe('yue-Hant-HK');
    expect(languages.zh_yue_Hant.fallbackTag).toBe('zh-Hant-HK');
    expect(languages['ar-nu-arab'].tag).toBe('ar-u-nu-arab');
    expect(catalogOf('ar-nu-arab')).toBe('ar');
    expect(languages.tl.tag).toBe('fil');
    for (const key of languageOptions) expect(() => new Intl.Locale(languages[key].tag), key).not.toThrow();
    expect(intlLocale('en')).toBe('en');
  });

  it('offer all 23 plus the Arabic numerals variant in the picker, right-to-left only for Arabic', () => {
    expect(languageOptions).toHaveLength(24);
    expect(languageOptions.filter((k) => languages[k].dir === 'rtl')).toEqual(['ar', 'ar-nu-arab']);
  });
});

describe('choosing the language', () => {
  it('takes the stored preference first', () => {
    expect(detectLanguage('ja', ['fr-FR'])).toBe('ja');
    expect(detectLanguage('ar-nu-arab', [])).toBe('ar-nu-arab');
  });

  it('ignores a stored value that is no language', () => {
    expect(detectLanguage('klingon', ['de-DE'])).toBe('de');
  });

  it('then the browser languages in order: exact, then base language', () => {
    expect(detectLanguage(null, ['en-GB', 'ja'])).toBe('en-gb');
    expect(detectLanguage(null, ['pt-BR'])).toBe('pt');
    expect(detectLanguage(null, ['xx', 'th-TH'])).toBe('th');
    expect(matchBrowserLanguage('fil-PH')).toBe('tl');
    expect(matchBrowserLanguage('zh-HK')).toBe('zh_yue_Hant');
    expect(matchBrowserLanguage('yue-Hant-HK')).toBe('zh_yue_Hant');
    expect(matchBrowserLanguage('zh_yue_Hant')).toBe('zh_yue_Hant');
    expect(matchBrowserLanguage('ar-EG')).toBe('ar');
    expect(matchBrowserLanguage('zh-CN')).toBeNull();
  });

  it('else English', () => {
    expect(detectLanguage(null, [])).toBe('en');
    expect(detectLanguage(null, ['sv-SE', 'nl'])).toBe('en');
  });
});

describe('the language controller', () => {
  it('loads one catalog, sets lang and dir, and remembers a change', async () => {
    const i18n = setupI18n();
    const storage = memoryStorage();
    const root = document.createElement('html');
    const controller = createLanguageController({ i18n, storage, browserLanguages: ['ar-SA'], root });
    expect(await controller.start()).toBe('ar');
    expect(root.dir).toBe('rtl');
    expect(root.lang).toBe('ar');
    expect(storage.getItem('language')).toBeNull();
    await controller.change('zh_yue_Hant');
    expect(root.dir).toBe('ltr');
    expect(root.lang).toBe('yue-Hant-HK');
    expect(i18n.locale).toBe('yue-Hant-HK');
    expect(storage.getItem('language')).toBe('zh_yue_Hant');
  });

  it('falls back to English when a catalog cannot be loaded', async () => {
    const i18n = setupI18n();
    const storage = memoryStorage();
    storage.setItem('language', 'fr');
    const controller = createLanguageController({
      i18n,
      storage,
      browserLanguages: [],
      load: async (key) => {
        if (key !== 'en') throw new Error('offline');
        return loadCatalog('en');
      },
    });
    expect(await controller.start()).toBe('en');
  });

  it('starts with the first screen\'s part of the catalog and merges the rest when complete() resolves, asking again after a failure', async () => {
    const i18n = setupI18n();
    const asked: Array<string | undefined> = [];
    const rests: Array<{ resolve(messages: Record<string, string>): void; reject(error: Error): void }> = [];
    const controller = createLanguageController({
      i18n,
      storage: memoryStorage(),
      browserLanguages: [],
      load: (_key, part) => {
        asked.push(part);
        if (part === 'first-screen') return Promise.resolve({ first: 'First' });
        return new Promise((resolve, reject) => rests.push({ resolve, reject }));
      },
    });
    await controller.start();
    // Shown with the first screen's messages; the rest is still on its way.
    expect(i18n._('first')).toBe('First');
    expect(i18n._('later')).toBe('later');
    const first = controller.complete();
    rests[0]!.reject(new Error('offline'));
    await first;
    // The rest failed: the first screen's messages stay, and the next call asks again.
    expect(i18n._('later')).toBe('later');
    expect(asked).toEqual(['later', 'first-screen']);
    const again = controller.complete();
    expect(asked).toEqual(['later', 'first-screen', 'later']);
    rests[1]!.resolve({ later: 'Later' });
    await again;
    expect(i18n._('later')).toBe('Later');
    expect(i18n._('first')).toBe('First');
  });

  it('loads the whole catalog before a change of language is shown', async () => {
    const i18n = setupI18n();
    const asked: Array<string | undefined> = [];
    const controller = createLanguageController({
      i18n,
      storage: memoryStorage(),
      browserLanguages: [],
      load: async (key, part) => {
        asked.push(part);
        return { hello: `${key} ${part ?? 'whole'}` };
      },
    });
    await controller.start();
    await controller.change('ja');
    expect(i18n._('hello')).toBe('ja whole');
    await controller.complete();
    expect(asked.at(-1)).toBeUndefined();
  });
});

describe('catalog parts', () => {
  it('split each catalog in two: the first screen\'s messages and the rest, apart and together the whole', async () => {
    for (const key of ['en', 'ja'] as const) {
      const [first, later, whole] = await Promise.all([loadCatalog(key, 'first-screen'), loadCatalog(key, 'later'), loadCatalog(key)]);
      expect(Object.keys(first).filter((id) => id in later), key).toEqual([]);
      expect(Object.keys(whole).sort(), key).toEqual([...Object.keys(first), ...Object.keys(later)].sort());
      // The first screen shows failures (src/i18n/failure-messages.ts); the score report's units are not on it.
      expect(failureMessage('LOGIN_CODE_INCORRECT').id! in first, key).toBe(true);
      expect(Object.keys(first).length, key).toBeLessThan(Object.keys(later).length / 5);
    }
  });
});

describe('failure messages', () => {
  const i18n = setupI18n({ locale: 'en', messages: { en: {} } });

  it('has one for every code of the contract and the network', () => {
    for (const code of [...errorCodes, 'NETWORK_ERROR', 'TIMEOUT'] as const) {
      expect(failureMessages[code], code).toBeDefined();
      expect(i18n._(failureMessage(code)), code).not.toBe('');
    }
    expect(Object.keys(failureMessages)).toHaveLength(errorCodes.length + 2);
  });

  it.each([
    ['LOGIN_CODE_INCORRECT', 'The login code is incorrect.'],
    ['NETWORK_ERROR', 'Network error. Please check the connection and try again.'],
    ['TIMEOUT', 'Network error. Please check the connection and try again.'],
    ['TIME_START', 'The test period has not started yet.'],
    ['ER_SCHEDULE_HISTORY_COMPLETED', 'This account has already been used or the exam has ended.'],
    ['DURING_MAINTENANCE', 'This is outside test hours.'],
    ['ACCOUNT_LOCKED', 'The account is locked. Please try again in 1 minute.'],
    ['ER_SCHEDULE_HISTORY_RETAKE', 'An administrator has reset this account. Please log in again.'],
    ['INCORRECT_DEVICE', 'An exam was already started for this account on another terminal.'],
    ['VALIDATION_ERROR', 'Please check what you entered.'],
    ['NOT_LOGGED_IN', 'You are not logged in.'],
    ['GENERIC_ERROR', 'An error has occurred.'],
    ['SOMETHING_NEW', 'An error has occurred.'],
  ])('%s reads "%s"', (code, text) => {
    expect(i18n._(failureMessage(code))).toBe(text);
  });
});

/** msgid → msgstr of a PO file (single-line entries, as Lingui writes them). */
function readPo(key: string): Map<string, string> {
  const entries = new Map<string, string>();
  const text = readFileSync(`locales/${key}/messages.po`, 'utf8');
  const pattern = /^msgid "(.*)"\nmsgstr "(.*)"$/gm;
  for (const match of text.matchAll(pattern)) if (match[1]) entries.set(match[1], match[2] ?? '');
  return entries;
}

describe('catalogs', () => {
  it.each(catalogKeys)('%s translates every message', (key) => {
    const entries = readPo(key);
    expect(entries.size).toBeGreaterThan(50);
    const missing = [...entries].filter(([, translation]) => translation === '').map(([id]) => id);
    expect(missing).toEqual([]);
  });

  // The arguments a message uses: `{name}`, and `{count, plural, ...}` / select / number / date.
  // Compared as sets: a plural branch may repeat an argument the translation names once, in the
  // one branch its language has (ja, km, th... have only `other`).
  const argumentsOf = (s: string) =>
    [...new Set([...s.matchAll(/\{(\w+)(?:\}|\s*,\s*(?:plural|selectordinal|select|number|date|time)\b)/g)].map((m) => m[1]))].sort();
  // Tags of rich text (<0>...</0>, <1/>) keep their numbers.
  const tagsOf = (s: string) => [...new Set([...s.matchAll(/<\/?(\d+)\/?>/g)].map((m) => m[1]))].sort();

  it.each(catalogKeys)('%s keeps every placeholder and tag of the English message', (key) => {
    for (const [id, translation] of readPo(key)) {
      if (translation === '') continue;
      expect(argumentsOf(translation), `${key}: ${id}`).toEqual(argumentsOf(id));
      expect(tagsOf(translation), `${key}: ${id}`).toEqual(tagsOf(id));
    }
  });

  it.each(catalogKeys)('%s compiles: every message formats without leftover ICU syntax', async (key) => {
    const messages = await loadCatalog(key);
    const i18n = setupI18n({ locale: languages[key].tag, messages: { [languages[key].tag]: messages } });
    const values = { attribute: 'X', questionCount: 3, timeLimitMinutes: 40, unanswered: 2, n: 1, total: 3 };
    for (const id of Object.keys(messages)) {
      for (const count of [0, 1, 2, 5, 11, 21]) {
        const text = i18n._(id, { ...values, questionCount: count, unanswered: count, timeLimitMinutes: count });
        expect(text, `${key} ${id}`).not.toMatch(/[{}#]/);
      }
    }
  });

  it('loads a catalog as compiled messages', async () => {
    const messages = await loadCatalog('ja');
    expect(Object.keys(messages).length).toBeGreaterThan(50);
  });
});

describe('dates and numbers', () => {
  const date = new Date('2026-11-05T12:00:00Z');
  it('follow the seed: long for ja, MM/DD/YYYY for English, day-month-year by name, else DD/MM/YYYY', () => {
    expect(formatDate(date, 'ja', 'UTC')).toBe('2026年11月5日');
    expect(formatDate(date, 'en', 'UTC')).toBe('11/05/2026');
    expect(formatDate(date, 'en-gb', 'UTC')).toBe('05/11/2026');
    expect(formatDate(date, 'fr', 'UTC')).toBe('05/11/2026');
    expect(formatDate(date, 'hi', 'UTC')).toMatch(/5 नवंबर 2026/);
    expect(formatDate(date, 'th', 'UTC')).toMatch(/2569/);
  });

  it('show the correct rate with one decimal', () => {
    expect(formatPercent(0.8765, 'en')).toBe('87.7%');
    expect(formatPercent(0.5, 'ar-nu-arab')).toContain('٥٠٫٠');
  });
});
