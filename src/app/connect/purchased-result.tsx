/**
 * The purchased result (seed section 2, `purchased-result`) bound to the results actor:
 * results.connect.ts decides what it shows and which events it may send.
 */
import { PurchasedResultScreen } from '../../screens/purchased-result/purchased-result.tsx';
import { useResults } from './use-results.ts';

export function ConnectedPurchasedResult() {
  return <PurchasedResultScreen api={useResults().purchasedResult} />;
}
