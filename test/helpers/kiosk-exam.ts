/**
 * The exam child of a kiosk actor: where a test that drives a pupil's journey through the root
 * sends the pupil's exam events (the kiosk does not forward them; the screens send to the exam
 * actor itself).
 */
import type { ActorRefFrom } from 'xstate';
import type { examMachine } from '../../machines/exam/exam.machine.ts';

type ExamRef = ActorRefFrom<typeof examMachine>;

/** The running exam of this kiosk; throws when none runs (the pupil is not in the exam). */
export function examOf(kiosk: { getSnapshot(): { children: { exam?: ExamRef } } }): ExamRef {
  const exam = kiosk.getSnapshot().children.exam;
  if (!exam) throw new Error('examOf: no exam runs under this kiosk');
  return exam;
}
