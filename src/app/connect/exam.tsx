/**
 * The exam screen (/start) bound to the exam actor (machines/exam/exam.connect.ts): it subscribes
 * to that actor alone, so answering a question re-renders this screen and nothing else, and every
 * event goes straight to the exam. Until the exam runs, the boot skeleton.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ExamScreen } from '../../screens/exam/exam.tsx';
import { useExam } from './use-exam.ts';

export function ConnectedExam() {
  const api = useExam()?.exam;
  return api ? <ExamScreen api={api} /> : <BootingScreen />;
}
