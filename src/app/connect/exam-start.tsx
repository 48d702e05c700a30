/**
 * "Ready to start" bound to the exam actor (machines/exam/exam.connect.ts). Until the exam runs,
 * the boot skeleton.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ExamStartScreen } from '../../screens/exam-start/exam-start.tsx';
import { useExam } from './use-exam.ts';

export function ConnectedExamStart() {
  const api = useExam()?.examStart;
  return api ? <ExamStartScreen api={api} /> : <BootingScreen />;
}
