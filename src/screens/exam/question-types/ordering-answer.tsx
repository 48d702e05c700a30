/**
 * An ordering answer (Visual Programming): the question's blocks as a program to arrange.
 * The saved answer's order is shown when it names exactly these blocks, else the order the
 * question gives; each finished move hands over the ids joined with "," ("b3,b1,b2").
 */
import type { Question } from '../../../../contract/exam.ts';
import { ProgramBlocks } from '../../../components/program-blocks/program-blocks.tsx';

export interface OrderingAnswerProps {
  question: Question;
  value: string;
  disabled: boolean;
  onAnswer(value: string): void;
}

export function initialOrder(question: Question, value: string): string[] {
  const ids = (question.blocks ?? []).map((block) => block.id);
  const saved = value === '' ? [] : value.split(',');
  const same = saved.length === ids.length && [...saved].sort().join(',') === [...ids].sort().join(',');
  return same ? saved : ids;
}

export function OrderingAnswer({ question, value, disabled, onAnswer }: OrderingAnswerProps) {
  return (
    <ProgramBlocks
      blocks={question.blocks ?? []}
      order={initialOrder(question, value)}
      disabled={disabled}
      onReorder={(order) => onAnswer(order.join(','))}
    />
  );
}
