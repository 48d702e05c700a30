/**
 * The exam child of a kiosk actor: where a test that drives a pupil's journey through the root
 * sends the pupil's exam events (the kiosk does not forward them; the screens send to the exam
 * actor itself), and the exam's position child, where the screen sends the moves.
 */
import type { ActorRefFrom } from 'xstate';
import type { examMachine } from '../../machines/exam/exam.machine.ts';
import type { positionMachine } from '../../machines/position/position.machine.ts';

type ExamRef = ActorRefFrom<typeof examMachine>;

/** The running exam of this kiosk; throws when none runs (the pupil is not in the exam). */
export function examOf(kiosk: { getSnapshot(): { children: { exam?: ExamRef } } }): ExamRef {
  const exam = kiosk.getSnapshot().children.exam;
  if (!exam) throw new Error('examOf: no exam runs under this kiosk');
  return exam;
}

type PositionRef = ActorRefFrom<typeof positionMachine>;

/**
 * The exam's `position` child (machines/position): where the screen sends the pupil's moves and
 * toggles while answering. Throws when none runs (the exam is not answering).
 */
export function positionOf(exam: { getSnapshot(): { children: { position?: PositionRef } } }): PositionRef {
  const position = exam.getSnapshot().children.position;
  if (!position) throw new Error('positionOf: the exam runs no position child (it is not answering)');
  return position;
}
