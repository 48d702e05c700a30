/**
 * What the two login screens (login-code, and login with ID and password) share: the "Log in"
 * button, which waits while a login is on its way, and the foot under the card with the
 * language picker and "Check this terminal". The login-code screen is the first screen, so this
 * file stays small: nothing here loads anything the first screen would not.
 */
import { Trans } from '@lingui/react/macro';
import { LanguagePicker } from '../language-picker/language-picker.tsx';
import { TerminalCheckLink } from '../terminal-check-link/terminal-check-link.tsx';
import styles from './login-parts.module.css';

/** "Log in", or "Logging in…" while busy: it keeps the focus (aria-disabled, not disabled). */
export function LoginButton({ busy }: { busy: boolean }) {
  return (
    <button type="submit" className="button" data-variant="primary" aria-busy={busy || undefined} aria-disabled={busy || undefined}>
      {busy ? <Trans>Logging in…</Trans> : <Trans>Log in</Trans>}
    </button>
  );
}

/** Under the card: the language picker, and "Check this terminal" when the screen offers it. */
export function LoginFoot({ onCheckTerminal }: { onCheckTerminal?: () => void }) {
  return (
    <div className={styles.foot}>
      <LanguagePicker />
      {onCheckTerminal && <TerminalCheckLink onOpen={onCheckTerminal} />}
    </div>
  );
}
