/**
 * The short result (seed section 2, `short-result`) bound to the results actor: results.connect.ts
 * decides what it shows and which events it may send.
 */
import { ShortResultScreen } from '../../screens/short-result/short-result.tsx';
import { useResults } from './use-results.ts';

export function ConnectedShortResult() {
  return <ShortResultScreen api={useResults().shortResult} />;
}
