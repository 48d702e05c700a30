/**
 * School grades in words (seed section 3): 1 to 12 read "Grade n", 99 (the contract's
 * OTHER_GRADE) reads "Other", in the pupil's language and numbering system. Which grades exist,
 * and in which order a form offers them, is the contract's (`gradeIds`).
 */
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { OTHER_GRADE } from '../../contract/session.ts';
import { formatNumber } from './format.ts';
import type { LanguageKey } from '../../contract/languages.ts';

export function gradeName(i18n: I18n, grade: number, language: LanguageKey): string {
  if (grade === OTHER_GRADE) return i18n._(msg({ message: 'Other', context: 'grade' }));
  const n = formatNumber(grade, language);
  return i18n._(msg`Grade ${n}`);
}
