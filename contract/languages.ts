/**
 * The languages of the interface (seed section 1): the 23 catalog keys exactly as the seed and
 * lingui.config.ts name them, plus the Arabic numerals variant `ar-nu-arab`, which is a
 * selectable language of its own that shares the `ar` catalog.
 *
 * Each language maps to a BCP 47 tag for Intl and the `lang` attribute, a writing direction and
 * its own name in its own language (what the picker shows). Names are data, not messages: a
 * pupil must find their language whatever the interface currently speaks.
 */

/** The catalog keys, in the seed's order. test/view/i18n.test.ts checks this equals lingui.config.ts. */
export const catalogKeys = [
  'en', 'en-gb', 'ja', 'id', 'my', 'th', 'ar', 'zh_yue_Hant', 'tl', 'es', 'fr', 'pt',
  'pl', 'tr', 'de', 'hi', 'bn', 'pa', 'vi', 'ru', 'km', 'kk', 'uz',
] as const;
export type CatalogKey = (typeof catalogKeys)[number];

/** Every selectable language: a catalog key, or the Arabic numerals variant. */
export const languageKeys = [...catalogKeys, 'ar-nu-arab'] as const;
export type LanguageKey = (typeof languageKeys)[number];

export const defaultLanguage: LanguageKey = 'en';

export interface LanguageInfo {
  /** Which PO catalog holds its messages. */
  catalog: CatalogKey;
  /** BCP 47 tag for Intl, Accept-Language and `lang`. */
  tag: string;
  /** Used when the runtime has no data for `tag`. */
  fallbackTag?: string;
  /** The language's name in its own language (endonym). */
  nativeName: string;
  dir: 'ltr' | 'rtl';
}

export const languages: Record<LanguageKey, LanguageInfo> = {
  en: { catalog: 'en', tag: 'en', nativeName: 'English', dir: 'ltr' },
  'en-gb': { catalog: 'en-gb', tag: 'en-GB', nativeName: 'English (UK)', dir: 'ltr' },
  ja: { catalog: 'ja', tag: 'ja', nativeName: '日本語', dir: 'ltr' },
  id: { catalog: 'id', tag: 'id', nativeName: 'Bahasa Indonesia', dir: 'ltr' },
  my: { catalog: 'my', tag: 'my', nativeName: 'မြန်မာ', dir: 'ltr' },
  th: { catalog: 'th', tag: 'th', nativeName: 'ไทย', dir: 'ltr' },
  ar: { catalog: 'ar', tag: 'ar', nativeName: 'العربية', dir: 'rtl' },
  'ar-nu-arab': { catalog: 'ar', tag: 'ar-u-nu-arab', fallbackTag: 'ar', nativeName: 'العربية (٠١٢٣)', dir: 'rtl' },
  zh_yue_Hant: { catalog: 'zh_yue_Hant', tag: 'yue-Hant-HK', fallbackTag: 'zh-Hant-HK', nativeName: '粵語（繁體）', dir: 'ltr' },
  tl: { catalog: 'tl', tag: 'fil', fallbackTag: 'tl', nativeName: 'Filipino', dir: 'ltr' },
  es: { catalog: 'es', tag: 'es', nativeName: 'Español', dir: 'ltr' },
  fr: { catalog: 'fr', tag: 'fr', nativeName: 'Français', dir: 'ltr' },
  pt: { catalog: 'pt', tag: 'pt', nativeName: 'Português', dir: 'ltr' },
  pl: { catalog: 'pl', tag: 'pl', nativeName: 'Polski', dir: 'ltr' },
  tr: { catalog: 'tr', tag: 'tr', nativeName: 'Türkçe', dir: 'ltr' },
  de: { catalog: 'de', tag: 'de', nativeName: 'Deutsch', dir: 'ltr' },
  hi: { catalog: 'hi', tag: 'hi', nativeName: 'हिन्दी', dir: 'ltr' },
  bn: { catalog: 'bn', tag: 'bn', nativeName: 'বাংলা', dir: 'ltr' },
  pa: { catalog: 'pa', tag: 'pa', nativeName: 'ਪੰਜਾਬੀ', dir: 'ltr' },
  vi: { catalog: 'vi', tag: 'vi', nativeName: 'Tiếng Việt', dir: 'ltr' },
  ru: { catalog: 'ru', tag: 'ru', nativeName: 'Русский', dir: 'ltr' },
  km: { catalog: 'km', tag: 'km', nativeName: 'ខ្មែរ', dir: 'ltr' },
  kk: { catalog: 'kk', tag: 'kk', nativeName: 'Қазақ тілі', dir: 'ltr' },
  uz: { catalog: 'uz', tag: 'uz', nativeName: 'Oʻzbekcha', dir: 'ltr' },
};

/** The picker's order: the seed's order, the Arabic numerals variant right after Arabic. */
export const languageOptions: readonly LanguageKey[] = [
  'en', 'en-gb', 'ja', 'id', 'my', 'th', 'ar', 'ar-nu-arab', 'zh_yue_Hant', 'tl', 'es', 'fr', 'pt',
  'pl', 'tr', 'de', 'hi', 'bn', 'pa', 'vi', 'ru', 'km', 'kk', 'uz',
];

export function isLanguageKey(value: unknown): value is LanguageKey {
  return typeof value === 'string' && Object.hasOwn(languages, value);
}

/** The catalog a language reads its messages from. */
export function catalogOf(language: LanguageKey): CatalogKey {
  return languages[language].catalog;
}

/** The BCP 47 tag to hand to Intl: the language's own tag when supported, else its fallback. */
export function intlLocale(language: LanguageKey): string {
  const { tag, fallbackTag } = languages[language];
  if (!fallbackTag) return tag;
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0 ? tag : fallbackTag;
  } catch {
    return fallbackTag;
  }
}
