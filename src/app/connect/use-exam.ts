/**
 * The exam's screens read the exam actor this way: found by name in the kiosk's tree
 * (useSystemActor), subscribed with `useSelector`, and turned into what they render by the
 * exam's pure `connect` (machines/exam/exam.connect.ts). Undefined while no exam runs.
 */
import { useSelector } from '@xstate/react';
import { connect, type ExamApi } from '../../../machines/exam/exam.connect.ts';
import { useSystemActor } from '../actors.ts';

export function useExam(): ExamApi | undefined {
  const actor = useSystemActor('exam');
  const snapshot = useSelector(actor, (current) => current);
  return actor && snapshot ? connect(snapshot, actor.send) : undefined;
}
