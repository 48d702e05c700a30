/**
 * The exam-end screen wired to the kiosk machine: its props come from useScreen('exam-end').
 */
import { ExamEndScreen } from '../../screens/exam-end/exam-end.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedExamEnd() {
  return <ExamEndScreen {...useScreen('exam-end')} />;
}
