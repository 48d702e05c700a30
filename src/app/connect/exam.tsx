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
  if (!api) return <BootingScreen />;
  return (
    <ExamScreen
      status={api.status}
      questions={api.questions}
      index={api.index}
      answers={api.answers}
      deadlineAt={api.deadlineAt}
      clockOffsetMs={api.clockOffsetMs}
      timeLimitSeconds={api.timeLimitSeconds}
      confirmingFinish={api.confirmingFinish}
      error={api.error}
      flagged={api.flagged}
      listOpen={api.listOpen}
      keyboardOpen={api.keyboardOpen}
      upperCase={api.upperCase}
      onRetry={api.retry}
      onAnswer={api.answer}
      onNext={api.next}
      onPrevious={api.previous}
      onSelect={api.select}
      onFlag={api.flag}
      onToggleList={api.toggleList}
      onToggleKeyboard={api.toggleKeyboard}
      onToggleUpperCase={api.toggleUpperCase}
      onFinishRequest={api.requestFinish}
      onFinishConfirm={api.confirmFinish}
      onFinishCancel={api.cancelFinish}
      onFocusLost={api.focusLost}
    />
  );
}
