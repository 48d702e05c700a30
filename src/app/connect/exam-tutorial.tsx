/**
 * The exam-tutorial screen wired to its machines: while the exam runs its child `tutorial`
 * (machines/tutorial), the screen subscribes to that actor alone (`useSystemActor` and
 * `useSelector`) and renders what its pure `connect` gives, the practice included; Continue goes
 * through the tutorial, which tells the exam. Until the child runs (the kiosk still judging the
 * URL), the points from the exam's details; with no exam either, the boot skeleton.
 */
import { useSelector } from '@xstate/react';
import { connect } from '../../../machines/tutorial/tutorial.connect.ts';
import { ExamTutorialScreen } from '../../screens/exam-tutorial/exam-tutorial.tsx';
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { useSystemActor, type SystemActors } from '../actors.ts';
import { useExam } from './use-exam.ts';

export function BoundExamTutorial({ actor }: { actor: SystemActors['tutorial'] }) {
  const snapshot = useSelector(actor, (s) => s);
  return <ExamTutorialScreen api={connect(snapshot, actor.send)} />;
}

/** The four points alone, from the exam's details, while no tutorial child runs. */
function ExamTutorialPoints() {
  const points = useExam()?.tutorial;
  if (!points || points.questionCount === null) return <BootingScreen />;
  return <ExamTutorialScreen api={points} />;
}

export function ConnectedExamTutorial() {
  const actor = useSystemActor('tutorial');
  return actor ? <BoundExamTutorial actor={actor} /> : <ExamTutorialPoints />;
}
