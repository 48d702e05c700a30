/**
 * The entry screen wired to the kiosk machine: its props come from useScreen('entry').
 */
import { EntryScreen } from '../../screens/entry/entry.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedEntry() {
  return <EntryScreen {...useScreen('entry')} />;
}
