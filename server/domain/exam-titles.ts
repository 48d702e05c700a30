/**
 * An exam's title in the caller's language. Content may give a title per language
 * (`exams.titles`, catalog key or BCP 47 tag -> title, from the exam import); every answer that
 * names an exam to a pupil (the exam list, the exam details, the results the documents print)
 * names it in the first of the caller's languages that has one: X-Locale (the catalog key), then
 * Accept-Language. A language matches a key exactly, through its catalog and its BCP 47 tag
 * (`ar-nu-arab` reads `ar`, `zh_yue_Hant` reads `yue-Hant-HK`), then with its last subtags
 * dropped (`pt-BR` reads `pt`), case and `_`/`-` aside. No match: the exam's own `title`.
 */
import { isLanguageKey, languages } from '../../contract/languages.ts';

/** The caller's languages, most wanted first (X-Locale, then Accept-Language); either may be missing. */
export type CallerLanguages = readonly (string | undefined)[];

/** The caller's languages from the parsed request headers (server/http/env.ts ClientHeaders). */
export function callerLanguages(headers: { locale: string | undefined; acceptLanguage: string | undefined }): CallerLanguages {
  return [headers.locale, headers.acceptLanguage];
}

function normal(tag: string): string {
  return tag.replaceAll('_', '-').toLowerCase();
}

/** The forms of one wanted language, most exact first. */
function formsOf(wanted: string): string[] {
  const exact = [wanted];
  if (isLanguageKey(wanted)) exact.push(languages[wanted].catalog, languages[wanted].tag);
  const forms: string[] = [];
  for (const tag of exact) {
    const parts = normal(tag).split('-');
    for (let n = parts.length; n > 0; n--) {
      const form = parts.slice(0, n).join('-');
      if (!forms.includes(form)) forms.push(form);
    }
  }
  return forms;
}

export function titleIn(exam: { title: string; titles: Readonly<Record<string, string>> | null }, wanted: CallerLanguages): string {
  const titles = new Map(Object.entries(exam.titles ?? {}).map(([key, title]) => [normal(key), title]));
  if (titles.size === 0) return exam.title;
  for (const language of wanted) {
    if (language === undefined) continue;
    for (const form of formsOf(language)) {
      const title = titles.get(form);
      if (title !== undefined && title !== '') return title;
    }
  }
  return exam.title;
}
