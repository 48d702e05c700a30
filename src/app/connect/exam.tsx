/**
 * The exam screen wired to the kiosk machine: its props come from useScreen('exam').
 */
import { ExamScreen } from '../../screens/exam/exam.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedExam() {
  return <ExamScreen {...useScreen('exam')} />;
}
