/**
 * The exam list (/exam, /exam-step-mode) bound to the session actor
 * (machines/session/session.connect.ts), which decides each row's order and what it offers.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ExamListScreen } from '../../screens/exam-list/exam-list.tsx';
import { useSession } from './use-session.ts';

export function ConnectedExamList() {
  const api = useSession()?.examList;
  return api ? <ExamListScreen api={api} /> : <BootingScreen />;
}
