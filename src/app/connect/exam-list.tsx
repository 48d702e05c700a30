/**
 * The exam-list screen wired to the kiosk machine: its props come from useScreen('exam-list').
 */
import { ExamListScreen } from '../../screens/exam-list/exam-list.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedExamList() {
  return <ExamListScreen {...useScreen('exam-list')} />;
}
