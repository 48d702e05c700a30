/**
 * Subject names (seed section 1) in the pupil's language, picked by subject id; a subject this
 * build does not know keeps the name the server sent.
 */
import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';

const subjectNames: Record<number, MessageDescriptor> = {
  1: msg`English (vocabulary)`,
  2: msg`Calculation`,
  3: msg`Japanese (kanji and vocabulary)`,
  6: msg`Visual Programming`,
};

export function subjectName(i18n: I18n, subject: { id: number; name: string }): string {
  const descriptor = subjectNames[subject.id];
  return descriptor ? i18n._(descriptor) : subject.name;
}
