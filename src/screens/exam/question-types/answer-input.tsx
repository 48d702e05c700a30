/**
 * The answer input of a question's type, chosen by `question.type`: the one switch the exam's
 * question (../question-view.tsx) and the tutorial's practice question
 * (../../exam-tutorial/practice-question.tsx) share, so both always show the same inputs.
 *
 * - single_choice: the radio tiles (SingleChoice), labelled by the question's heading;
 * - text: the text box with the on-screen alphabet keyboard where the question offers it;
 * - number: the on-screen keypad;
 * - ordering: the Visual Programming blocks.
 *
 * An input with a state of its own (a text box, a keypad draft, an order of blocks) is keyed by
 * the question: new for each question when one view shows one question after another.
 */
import type { Question } from '../../../../contract/exam.ts';
import { NumberAnswer } from './number-answer.tsx';
import { OrderingAnswer } from './ordering-answer.tsx';
import { SingleChoice } from './single-choice.tsx';
import { TextAnswer } from './text-answer.tsx';

export interface AnswerInputProps {
  question: Question;
  /** The answer value: the chosen choice's id, the number, the order ("" when none). */
  value: string;
  /** What the text box shows (the draft while typing). */
  textValue: string;
  /** The id of the question's heading (the choices' group label). */
  headingId: string;
  disabled: boolean;
  /** The on-screen alphabet keyboard is shown. */
  keyboardOpen: boolean;
  /** The alphabet keyboard types capitals. */
  upperCase: boolean;
  /** Hands over a finished answer value (a choice, a complete number, a new order). */
  onChoose(value: string): void;
  /** The text box's draft changed. */
  onType(value: string): void;
  /** The text box's draft is finished (blur, Enter). */
  onCommit(): void;
  onToggleKeyboard(): void;
  onToggleUpperCase(): void;
}

export function AnswerInput(props: AnswerInputProps) {
  const { question, value, headingId, disabled, onChoose } = props;
  switch (question.type) {
    case 'single_choice':
      return <SingleChoice question={question} value={value} headingId={headingId} disabled={disabled} onChoose={onChoose} />;
    case 'text':
      return (
        <TextAnswer
          key={question.id}
          input={question.input}
          value={props.textValue}
          disabled={disabled}
          keyboardOpen={props.keyboardOpen}
          capitals={props.upperCase}
          onToggleKeyboard={props.onToggleKeyboard}
          onToggleCapitals={props.onToggleUpperCase}
          onType={props.onType}
          onCommit={props.onCommit}
        />
      );
    case 'number':
      return <NumberAnswer key={question.id} input={question.input} value={value} disabled={disabled} onAnswer={onChoose} />;
    case 'ordering':
      return <OrderingAnswer key={question.id} question={question} value={value} disabled={disabled} onAnswer={onChoose} />;
  }
}
