/**
 * A button that waits while the machine works on what was asked (registering, sending): it
 * ignores presses and says so with aria-disabled rather than `disabled`, which would drop the
 * focus to <body> (WCAG 2.4.3), and the button whose work is under way says so with aria-busy.
 */
import type { ReactNode } from 'react';

export interface WaitingButtonProps {
  /** Presses are ignored for now. */
  waiting: boolean;
  /** This button's own work is under way (aria-busy); its words say so too. */
  busy?: boolean;
  primary?: boolean;
  onPress(): void;
  children: ReactNode;
}

export function WaitingButton({ waiting, busy = false, primary = false, onPress, children }: WaitingButtonProps) {
  return (
    <button
      type="button"
      className="button"
      data-variant={primary ? 'primary' : undefined}
      aria-busy={busy || undefined}
      aria-disabled={waiting || undefined}
      onClick={() => {
        if (!waiting) onPress();
      }}
    >
      {children}
    </button>
  );
}
