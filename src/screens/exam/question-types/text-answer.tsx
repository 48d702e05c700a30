/**
 * A typed answer: a text box "Your answer" and, when the question asks for it
 * (input kind "alphabet"), the on-screen alphabet keyboard. Whether the keyboard is shown
 * (alphabets_keyboard_flag) and whether it types capitals (mode_upper_case_flag) are the exam
 * machine's, kept across questions and a reload: this view shows them and asks to change them.
 * A hidden keyboard gives the text box back to the device's own keyboard. A question written in
 * capital letters (upper_case) types capitals whatever the mode. On-screen keys add at the end
 * of the text. The draft is handed over like any typed answer (exam.tsx): on blur, Enter,
 * Previous/Next/Finish and after a pause.
 */
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import type { AnswerInput } from '../../../../contract/exam.ts';
import { AlphabetKeyboard } from '../../../components/alphabet-keyboard/alphabet-keyboard.tsx';
import examStyles from '../exam.module.css';
import styles from './question-types.module.css';

export interface TextAnswerProps {
  input: AnswerInput | null | undefined;
  /** What the text box shows (the draft while typing). */
  value: string;
  disabled: boolean;
  /** The on-screen alphabet keyboard is shown (where the question offers it). */
  keyboardOpen: boolean;
  /** The alphabet keyboard types capital letters. */
  capitals: boolean;
  onToggleKeyboard(): void;
  onToggleCapitals(): void;
  onType(value: string): void;
  onCommit(): void;
}

export const MAX_TEXT_LENGTH = 500;

export function TextAnswer(props: TextAnswerProps) {
  const { input, value, disabled, keyboardOpen, capitals, onToggleKeyboard, onToggleCapitals, onType, onCommit } = props;
  const inputId = useId();
  const keyboardId = useId();
  const alphabet = input?.kind === 'alphabet' ? input : null;
  const upperCaseOnly = alphabet?.upper_case === true;
  const keyboardShown = alphabet !== null && keyboardOpen;
  const type = (next: string) => onType((upperCaseOnly ? next.toUpperCase() : next).slice(0, MAX_TEXT_LENGTH));

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
          autoCapitalize={upperCaseOnly ? 'characters' : 'off'}
          spellCheck={false}
          // The on-screen keyboard, while shown, replaces the tablet's own.
          inputMode={keyboardShown ? 'none' : undefined}
          disabled={disabled}
          onChange={(event) => type(event.target.value)}
          onBlur={onCommit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onCommit();
          }}
        />
      </div>
      {keyboardShown && (
        <AlphabetKeyboard
          id={keyboardId}
          upperCaseOnly={upperCaseOnly}
          capitals={capitals}
          onToggleCapitals={onToggleCapitals}
          disabled={disabled}
          onInsert={(text) => type(value + text)}
          onBackspace={() => type([...value].slice(0, -1).join(''))}
        />
      )}
      {/* After the keyboard: one Tab from the text box still lands on the keys. */}
      {alphabet && (
        <button
          type="button"
          className="button"
          aria-expanded={keyboardShown}
          aria-controls={keyboardShown ? keyboardId : undefined}
          disabled={disabled}
          onClick={onToggleKeyboard}
        >
          {keyboardShown ? <Trans>Hide alphabet keyboard</Trans> : <Trans>Show alphabet keyboard</Trans>}
        </button>
      )}
    </div>
  );
}
