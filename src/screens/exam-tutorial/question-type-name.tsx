/**
 * The name of a question type as the tutorial says it ("Choose one answer", "Number keypad"...):
 * message descriptors defined once and picked by the type.
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { MessageDescriptor } from '@lingui/core';
import type { QuestionType } from '../../../contract/exam.ts';

export const questionTypeNames: Record<QuestionType, MessageDescriptor> = {
  single_choice: msg`Choose one answer`,
  text: msg`Type a word`,
  number: msg`Number keypad`,
  ordering: msg`Put the blocks in order`,
};

export function QuestionTypeName({ type }: { type: QuestionType }) {
  const { i18n } = useLingui();
  return <>{i18n._(questionTypeNames[type])}</>;
}
