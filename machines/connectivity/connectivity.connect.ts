/**
 * The check page's binding, in the chakra-ui/zag style: `connect(snapshot, send)` turns a snapshot
 * of the connectivity machine into exactly what the screen renders and the events it may send,
 * and nothing else. Pure: no React, no DOM. Strings are the screen's (Lingui); this gives it
 * facts and codes.
 */
import { selectRows, selectSummary, type CheckRow, type ConnectivitySnapshot, type Summary } from './connectivity.selectors.ts';
import type { ConnectivityEvent } from './connectivity.types.ts';

export type { CheckRow, ConnectivitySnapshot, RowStatus, Summary } from './connectivity.selectors.ts';

export interface ConnectivityApi {
  /** A round of checks is under way. */
  running: boolean;
  summary: Summary;
  /** Every check, in the order they run. */
  rows: CheckRow[];
  /** "Check again" is offered once the round is done (never two rounds at once). */
  canCheckAgain: boolean;
  checkAgain(): void;
  /** "Back": leave the check (always possible, even mid-round). */
  close(): void;
  /** The interface language changed: its fonts are checked. */
  languageChanged(language: string): void;
}

export function connect(snapshot: ConnectivitySnapshot, send: (event: ConnectivityEvent) => void): ConnectivityApi {
  const running = snapshot.matches('checking');
  return {
    running,
    summary: selectSummary(snapshot),
    rows: selectRows(snapshot),
    canCheckAgain: snapshot.can({ type: 'check.requested' }),
    checkAgain: () => send({ type: 'check.requested' }),
    close: () => send({ type: 'check.closed' }),
    languageChanged: (language) => send({ type: 'language.changed', language }),
  };
}
