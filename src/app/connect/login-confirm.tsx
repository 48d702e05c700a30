/**
 * "Is this you?" bound to the exam actor (machines/exam/exam.connect.ts): the screen renders what
 * the exam's `connect` gives and sends its events to the exam itself. Until the exam runs (the
 * kiosk is still judging the sign-in), the boot skeleton.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { LoginConfirmScreen } from '../../screens/login-confirm/login-confirm.tsx';
import { useExam } from './use-exam.ts';

export function ConnectedLoginConfirm() {
  const api = useExam()?.loginConfirm;
  return api ? <LoginConfirmScreen api={api} /> : <BootingScreen />;
}
