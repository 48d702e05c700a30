/**
 * The exam-tutorial screen wired to the kiosk machine: its props come from useScreen('exam-tutorial').
 */
import { ExamTutorialScreen } from '../../screens/exam-tutorial/exam-tutorial.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedExamTutorial() {
  return <ExamTutorialScreen {...useScreen('exam-tutorial')} />;
}
