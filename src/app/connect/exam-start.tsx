/**
 * The exam-start screen wired to the kiosk machine: its props come from useScreen('exam-start').
 */
import { ExamStartScreen } from '../../screens/exam-start/exam-start.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedExamStart() {
  return <ExamStartScreen {...useScreen('exam-start')} />;
}
