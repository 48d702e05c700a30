/**
 * School grades (seed section 3): 1 to 12 read "Grade n", 99 reads "Other", in the pupil's
 * language and numbering system. The order is the one the basic-information form offers.
 */
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import type * as v from 'valibot';
import type { GradeIdSchema } from '../../contract/session.ts';
import { formatNumber } from './format.ts';
import type { LanguageKey } from '../../contract/languages.ts';

export type GradeId = v.InferOutput<typeof GradeIdSchema>;

/** Grade 1 to 12, then Other (seed section 9: 99 is the unknown grade). */
export const gradeIds: readonly GradeId[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 99];

export const OTHER_GRADE = 99;

export function isGradeId(value: number): value is GradeId {
  return (gradeIds as readonly number[]).includes(value);
}

export function gradeName(i18n: I18n, grade: number, language: LanguageKey): string {
  if (grade === OTHER_GRADE) return i18n._(msg({ message: 'Other', context: 'grade' }));
  const n = formatNumber(grade, language);
  return i18n._(msg`Grade ${n}`);
}
