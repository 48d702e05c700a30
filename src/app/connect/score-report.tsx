/**
 * The score report (seed section 2, `score-report/{id}`) bound to the results actor:
 * results.connect.ts decides what it shows and which events it may send. Loaded lazily by its
 * route, so the charts library stays out of every other page.
 */
import { ScoreReportScreen } from '../../screens/score-report/score-report.tsx';
import { useResults } from './use-results.ts';

export function ConnectedScoreReport() {
  return <ScoreReportScreen api={useResults().scoreReport} />;
}
