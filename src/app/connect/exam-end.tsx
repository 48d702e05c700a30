/**
 * The end of the test bound to the exam actor (machines/exam/exam.connect.ts). Without an exam
 * (seed section 2, rule 5's exception: the end screen kept after a reload without a login, for
 * INCORRECT_DEVICE and RETAKE), it says why from the session's stored error code, and "Log out"
 * goes to the login page (the session's event).
 */
import { useSelector } from '@xstate/react';
import { examEndWithoutExam } from '../../../machines/exam/exam.connect.ts';
import { ExamEndScreen } from '../../screens/exam-end/exam-end.tsx';
import { useSystemActor } from '../actors.ts';
import { useExam } from './use-exam.ts';

export function ConnectedExamEnd() {
  const api = useExam()?.examEnd;
  return api ? <ExamEndScreen api={api} /> : <ExamEndWithoutExam />;
}

function ExamEndWithoutExam() {
  const session = useSystemActor('session');
  const storedErrorCode = useSelector(session, (snapshot) => snapshot?.context.storedErrorCode ?? null);
  return <ExamEndScreen api={examEndWithoutExam(storedErrorCode, () => session?.send({ type: 'login.requested' }))} />;
}
