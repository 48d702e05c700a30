/**
 * One question: its prompt as the heading (focused when the question changes, so a screen
 * reader reads it), the answer input of its type, and whether its answer is saved.
 * single_choice: a radio group of large tiles labelled with the choices; text: a text box
 * "Your answer".
 */
import { Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef } from 'react';
import type { Question } from '../../shared/contract.ts';
import { CheckIcon, CircleIcon, SavingIcon, TerminalIcon, WarningIcon } from '../../components/icon/icons.tsx';
import type { ExamAnswer } from './exam.tsx';
import styles from './exam.module.css';

export interface QuestionViewProps {
  question: Question;
  answer: ExamAnswer | undefined;
  /** What the text box shows (the draft while typing). */
  textValue: string;
  disabled: boolean;
  onChoose(choiceId: string): void;
  onType(value: string): void;
  onCommit(): void;
}

export function QuestionView({ question, answer, textValue, disabled, onChoose, onType, onCommit }: QuestionViewProps) {
  const headingId = useId();
  const inputId = useId();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Mounted once per question (keyed by id): the new question is where reading starts.
    heading.current?.focus({ preventScroll: true });
  }, []);

  return (
    <section className={styles.question} aria-labelledby={headingId}>
      {/* Content is in the subject's language, not the interface's: its own direction (dir="auto"). */}
      <h1 ref={heading} id={headingId} tabIndex={-1} className={styles.prompt} dir="auto">
        {question.prompt}
      </h1>

      {question.type === 'single_choice' ? (
        <fieldset className={styles.choices} aria-labelledby={headingId} disabled={disabled}>
          {question.choices.map((choice) => (
            <label key={choice.id} className={styles.choice} data-checked={answer?.value === choice.id || undefined}>
              <input
                type="radio"
                name={`question-${question.id}`}
                value={choice.id}
                checked={answer?.value === choice.id}
                onChange={() => onChoose(choice.id)}
              />
              <span className={styles.choiceLabel} dir="auto">
                {choice.label}
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <div className={`field ${styles.textAnswer}`}>
          <label htmlFor={inputId} className="field-label">
            <Trans>Your answer</Trans>
          </label>
          <input
            id={inputId}
            type="text"
            className={`input ${styles.textInput}`}
            value={textValue}
            maxLength={500}
            dir="auto"
            autoComplete="off"
            autoCorrect="off"
            spellCheck={false}
            disabled={disabled}
            onChange={(event) => onType(event.target.value)}
            onBlur={onCommit}
            onKeyDown={(event) => {
              if (event.key === 'Enter') onCommit();
            }}
          />
        </div>
      )}

      <SavedIndicator answer={answer} />
    </section>
  );
}

/**
 * Where the answer is kept, in words with an icon (never colour alone): on the server, only on
 * this terminal (the network is down; it is sent later), being saved, or not saved.
 */
function SavedIndicator({ answer }: { answer: ExamAnswer | undefined }) {
  const state = !answer || answer.value.trim() === '' ? 'empty' : answer.saved;
  return (
    <p className={styles.saved} data-state={state} role="status">
      {state === 'server' && (
        <>
          <CheckIcon />
          <Trans>Saved on the server</Trans>
        </>
      )}
      {state === 'terminal' && (
        <>
          <TerminalIcon />
          <Trans>Saved on this terminal</Trans>
        </>
      )}
      {state === 'saving' && (
        <>
          <SavingIcon />
          <Trans>Saving…</Trans>
        </>
      )}
      {state === 'none' && (
        <>
          <WarningIcon />
          <Trans>Not saved</Trans>
        </>
      )}
      {state === 'empty' && (
        <>
          <CircleIcon />
          <Trans>Not answered yet</Trans>
        </>
      )}
    </p>
  );
}
