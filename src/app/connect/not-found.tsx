/**
 * The not-found screen wired to the kiosk machine: its props come from useScreen('not-found').
 */
import { NotFoundScreen } from '../../screens/not-found/not-found.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedNotFound() {
  return <NotFoundScreen {...useScreen('not-found')} />;
}
