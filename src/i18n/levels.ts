/**
 * A level's name in the pupil's language, as the score report and the certificate say it:
 * "Level" and the level's place in its subject (1, 2, 3...), in the language's digits. Where the
 * place is not known, the name the server sent.
 */
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { formatNumber } from './format.ts';
import type { LanguageKey } from '../../contract/languages.ts';

export function levelName(i18n: I18n, level: { name: string; order?: number | undefined }, language: LanguageKey): string {
  if (level.order === undefined) return level.name;
  const number = formatNumber(level.order, language);
  return i18n._(msg`Level ${number}`);
}
