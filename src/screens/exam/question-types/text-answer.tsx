/**
 * A typed answer: a text box "Your answer" and, when the question asks for it
 * (input kind "alphabet", seed: alphabets_keyboard_flag), the on-screen alphabet keyboard,
 * in upper-case mode if the question says so (mode_upper_case_flag). On-screen keys add at
 * the end of the text. The draft is handed over like any typed answer (exam.tsx): on blur,
 * Enter, Previous/Next/Finish and after a pause.
 */
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import type { AnswerInput } from '../../../shared/contract.ts';
import { AlphabetKeyboard } from '../../../components/alphabet-keyboard/alphabet-keyboard.tsx';
import examStyles from '../exam.module.css';
import styles from './question-types.module.css';

export interface TextAnswerProps {
  input: AnswerInput | null | undefined;
  /** What the text box shows (the draft while typing). */
  value: string;
  disabled: boolean;
  onType(value: string): void;
  onCommit(): void;
}

export const MAX_TEXT_LENGTH = 500;

export function TextAnswer({ input, value, disabled, onType, onCommit }: TextAnswerProps) {
  const inputId = useId();
  const alphabet = input?.kind === 'alphabet' ? input : null;
  const upperCase = alphabet?.upper_case === true;
  const type = (next: string) => onType((upperCase ? next.toUpperCase() : next).slice(0, MAX_TEXT_LENGTH));

  return (
    <div className={styles.typed}>
      <div className={`field ${styles.typedField}`}>
        <label htmlFor={inputId} className="field-label">
          <Trans>Your answer</Trans>
        </label>
        <input
          id={inputId}
          type="text"
          className={`input ${examStyles.textInput}`}
          value={value}
          maxLength={MAX_TEXT_LENGTH}
          dir="auto"
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize={upperCase ? 'characters' : 'off'}
          spellCheck={false}
          // The on-screen keyboard replaces the tablet's own.
          inputMode={alphabet ? 'none' : undefined}
          disabled={disabled}
          onChange={(event) => type(event.target.value)}
          onBlur={onCommit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onCommit();
          }}
        />
      </div>
      {alphabet && (
        <AlphabetKeyboard
          upperCase={upperCase}
          disabled={disabled}
          onInsert={(text) => type(value + text)}
          onBackspace={() => type([...value].slice(0, -1).join(''))}
        />
      )}
    </div>
  );
}
