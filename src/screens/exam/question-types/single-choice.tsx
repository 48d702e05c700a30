/**
 * A single-choice answer: a radio group of large tiles labelled with the choices (set with
 * KaTeX when the question is a math question); the answer is the chosen choice's id.
 */
import type { Question } from '../../../../contract/exam.ts';
import { questionText } from './question-text.tsx';
import styles from '../exam.module.css';

export interface SingleChoiceProps {
  question: Question;
  /** The id of the chosen choice, or "" when none. */
  value: string;
  headingId: string;
  disabled: boolean;
  onChoose(choiceId: string): void;
}

export function SingleChoice({ question, value, headingId, disabled, onChoose }: SingleChoiceProps) {
  return (
    <fieldset className={styles.choices} aria-labelledby={headingId} disabled={disabled}>
      {question.choices.map((choice) => (
        <label key={choice.id} className={styles.choice} data-checked={value === choice.id || undefined}>
          <input
            type="radio"
            name={`question-${question.id}`}
            value={choice.id}
            checked={value === choice.id}
            onChange={() => onChoose(choice.id)}
          />
          <span className={styles.choiceLabel} dir="auto">
            {questionText(choice.label, question.math === true)}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
