/**
 * The short-result screen wired to the kiosk machine: its props come from useScreen('short-result').
 */
import { ShortResultScreen } from '../../screens/short-result/short-result.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedShortResult() {
  return <ShortResultScreen {...useScreen('short-result')} />;
}
