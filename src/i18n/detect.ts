/**
 * Picks the interface language (seed section 1): the stored preference, else the browser's
 * languages in order of preference, else English. Pure: the caller passes what it read.
 */
import { catalogKeys, defaultLanguage, isLanguageKey, languages, type LanguageKey } from '../../contract/languages.ts';

/** Browser tags that name a catalog under another spelling (Filipino, Cantonese). */
const aliases: Record<string, LanguageKey> = {
  fil: 'tl',
  yue: 'zh_yue_Hant',
  'zh-hk': 'zh_yue_Hant',
  'zh-mo': 'zh_yue_Hant',
  'zh-hant-hk': 'zh_yue_Hant',
  'zh-hant-mo': 'zh_yue_Hant',
};

function normalise(tag: string): string {
  return tag.trim().replace(/_/g, '-').toLowerCase();
}

/** The language a single browser tag selects: exact key or tag, then alias, then base language. */
export function matchBrowserLanguage(tag: string): LanguageKey | null {
  const wanted = normalise(tag);
  if (!wanted) return null;
  for (const key of Object.keys(languages) as LanguageKey[]) {
    if (normalise(key) === wanted || normalise(languages[key].tag) === wanted) return key;
  }
  if (aliases[wanted]) return aliases[wanted];
  // Strip an extension (-u-…) and then subtags one by one: "pt-BR" → "pt", "zh-Hant-HK" → "zh-hant".
  const parts = wanted.split('-u-')[0]!.split('-');
  while (parts.length > 1) {
    parts.pop();
    const shorter = parts.join('-');
    if (aliases[shorter]) return aliases[shorter];
    const key = catalogKeys.find((k) => normalise(k) === shorter);
    if (key) return key;
  }
  return null;
}

export function detectLanguage(stored: string | null, browserLanguages: readonly string[]): LanguageKey {
  if (isLanguageKey(stored)) return stored;
  for (const tag of browserLanguages) {
    const match = matchBrowserLanguage(tag);
    if (match) return match;
  }
  return defaultLanguage;
}
