/**
 * "Check this terminal": the login screens' way to the terminal check, for the lab
 * teacher who gets each terminal ready before exam day. A real link (its address is the check's
 * page, so it can be opened in a new tab too), but a click only tells the machine, which decides
 * where to go: the view navigates nowhere itself.
 */
import { Trans } from '@lingui/react/macro';
import type { MouseEvent } from 'react';
// Not from the connectivity machine: it loads on demand (machines/kiosk/kiosk.lazy.ts).
import { TERMINAL_CHECK_PATH as CHECK_PATH } from '../../../machines/kiosk/child-routes.ts';
import { TerminalIcon } from '../icon/icons.tsx';
import styles from './terminal-check-link.module.css';

export function TerminalCheckLink({ onOpen }: { onOpen(): void }) {
  function open(event: MouseEvent<HTMLAnchorElement>) {
    // A plain click: the machine decides. A click meant for a new tab or window is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen();
  }
  return (
    <a className={styles.link} href={CHECK_PATH} onClick={open}>
      <TerminalIcon />
      <Trans>Check this terminal</Trans>
    </a>
  );
}
