/**
 * The score report (seed section 2, `score-report/{id}`) wired to the kiosk machine. Loaded
 * lazily by its route, so the charts library stays out of every other page.
 */
import { ScoreReportScreen } from '../../screens/score-report/score-report.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedScoreReport() {
  return <ScoreReportScreen {...useScreen('score-report')} />;
}
