/**
 * The purchased-result screen wired to the kiosk machine: its props come from useScreen('purchased-result').
 */
import { PurchasedResultScreen } from '../../screens/purchased-result/purchased-result.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedPurchasedResult() {
  return <PurchasedResultScreen {...useScreen('purchased-result')} />;
}
