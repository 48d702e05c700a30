/**
 * A modal dialog: role "dialog" with aria-modal, titled by its heading, focus moved inside when
 * it opens, kept inside while it is open (Tab and Shift+Tab wrap), Escape cancels, and focus
 * returns to where it was when it closes. The caller makes the rest of the page `inert`.
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import styles from './modal-dialog.module.css';

export interface ModalDialogProps {
  title: ReactNode;
  children: ReactNode;
  /** Escape does what the dialog's cancel button does. */
  onCancel(): void;
  /** alertdialog for an urgent message that needs an answer (the retry dialog). */
  role?: 'dialog' | 'alertdialog';
}

const focusable = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ModalDialog({ title, children, onCancel, role = 'dialog' }: ModalDialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = ref.current?.querySelector<HTMLElement>('[data-autofocus]') ?? ref.current?.querySelector<HTMLElement>(focusable);
    (first ?? ref.current)?.focus();
    return () => before?.focus({ preventScroll: true });
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(focusable)];
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className={styles.backdrop}>
      <div
        ref={ref}
        className={styles.dialog}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
