/**
 * `connectLazily` (machines/exam/exam.connect.ts), what the exam's screens read through
 * src/app/connect/use-exam.ts: the same parts as `connect` for the same snapshot, each made when
 * first read and then the same object for that snapshot (a question swap makes the exam screen's
 * part alone). Over the answering exam of the machine tests' terminal.
 */
import { describe, expect, it } from 'vitest';
import { connect, connectLazily } from '../../machines/exam/exam.connect.ts';
import { settle, setUp, startedExam } from '../helpers/exam-terminal.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';

const parts = ['loginConfirm', 'examStart', 'exam', 'examEnd', 'tutorial', 'retryDialog'] as const;

/** The exam's position child as src/app/connect/use-exam.ts hands it to the connect: its snapshot now, and its send. */
function positionLink(exam: Parameters<typeof positionOf>[0]) {
  const position = positionOf(exam);
  return { snapshot: position.getSnapshot(), send: position.send };
}

describe('the exam connect, part by part', () => {
  it('gives every part as connect does, and the same object each time it is read', async () => {
    const exam = await startedExam(setUp());
    await settle();
    positionOf(exam.actor).send({ type: 'question.next' });
    exam.actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
    const snapshot = exam.actor.getSnapshot();
    const send = exam.actor.send;
    const position = positionLink(exam.actor);
    const eager = connect(snapshot, send, position);
    const lazy = connectLazily(snapshot, send, position);
    for (const part of parts) {
      expect(lazy[part]).toEqual(eager[part]);
      expect(lazy[part]).toBe(lazy[part]);
    }
    expect(lazy.exam.index).toBe(1);
    expect(lazy.exam.answers[102]?.value).toBe('cold');
  });

  it('reads each snapshot as it is: a later snapshot gives a later part', async () => {
    const exam = await startedExam(setUp());
    const send = exam.actor.send;
    const first = connectLazily(exam.actor.getSnapshot(), send, positionLink(exam.actor));
    positionOf(exam.actor).send({ type: 'question.next' });
    const second = connectLazily(exam.actor.getSnapshot(), send, positionLink(exam.actor));
    expect([first.exam.index, second.exam.index]).toEqual([0, 1]);
    // What a swap does not change stays the same object (the handlers of one send, the questions).
    expect(second.exam.next).toBe(first.exam.next);
    expect(second.exam.questions).toBe(first.exam.questions);
    expect(second.exam.type).toBe(first.exam.type);
  });
});
