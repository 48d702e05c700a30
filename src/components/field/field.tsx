/**
 * One form field as every form of the kiosk shows it (login code, login ID and password, the
 * pupil's basic information, a proctor action's minutes and reason): the label, an optional
 * hint, the control, and the field's error under it. The control is the caller's (an input, a
 * textarea, a select, an input with a button beside it); `Field` hands it the id its label
 * points at and the aria attributes that tie it to the hint and the error, so a screen reader
 * reads the error with the field and `aria-invalid` marks it.
 *
 * What the error says is the machine's decision; the field only places it.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { ErrorIcon } from '../icon/icons.tsx';

/** What the control must carry: spread onto the input or select. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldProps {
  label: ReactNode;
  /** Under the label, read with the field (the login code's format). */
  hint?: ReactNode;
  /** The field's error; none when empty. */
  error?: ReactNode;
  children(control: FieldControlProps): ReactNode;
}

export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = useId();
  const errorId = useId();
  const invalid = error !== undefined && error !== null && error !== false && error !== '';
  const describedBy = [invalid ? errorId : null, hint ? hintId : null].filter((part) => part !== null).join(' ');
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {children({ id, 'aria-invalid': invalid ? true : undefined, 'aria-describedby': describedBy === '' ? undefined : describedBy })}
      {invalid && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="field-error">
      <ErrorIcon />
      <span>{children}</span>
    </p>
  );
}

/**
 * Typing on a shared terminal: the browser must not remember, complete, correct or capitalise
 * what one pupil types for the next (login IDs, passwords, e-mail addresses, codes).
 */
export const sharedTerminalTyping = {
  autoComplete: 'off',
  autoCapitalize: 'none',
  autoCorrect: 'off',
  spellCheck: false,
} as const;

/**
 * After a refused submit, the first field in error takes focus: only then, never while the
 * pupil types (errors that change on an edit must not pull the focus away). Call the returned
 * function in the submit handler; `errorKey` names the errors shown (it changes when they do),
 * `firstInvalid` finds the field to focus.
 */
export function useFocusFirstInvalid(errorKey: string, firstInvalid: () => HTMLElement | null | undefined): () => void {
  const submitted = useRef(false);
  useEffect(() => {
    if (!submitted.current) return;
    submitted.current = false;
    firstInvalid()?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- errorKey stands for the errors shown
  }, [errorKey]);
  return () => {
    submitted.current = true;
  };
}
