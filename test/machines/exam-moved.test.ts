/**
 * A pupil a proctor moved to another terminal: the new terminal has no stored position of its own
 * (a fresh login), and resumes at the question the server names (GET /exam-details'
 * `resume_question_index`), not at the first one. A terminal that resumes its own sitting keeps
 * its stored position whatever the server last heard.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { demoExaminee } from '../helpers/fake-api.ts';
import { setUp, startedExam } from '../helpers/exam-terminal.ts';
import { positionOf } from '../helpers/kiosk-exam.ts';

describe('an exam resumed on another terminal', () => {
  it('opens at the question the server names for a moved sitting', async () => {
    const terminal = setUp();
    const first = await startedExam(terminal);
    first.actor.stop();
    terminal.server.resumeQuestionIndex = 2;

    const fresh = sessionFromLogin({ access_token: 'token-2', examinee: demoExaminee, server_time: new Date().toISOString() }, 'uuid-2');
    expect(fresh.question_index).toBe(0);
    const moved = terminal.boot(fresh);
    moved.actor.start();
    moved.actor.send({ type: 'INIT_TEST' });
    await waitFor(moved.actor, (s) => s.matches('answering'));
    expect(moved.actor.getSnapshot().context.questionIndex).toBe(2);
    expect(positionOf(moved.actor).getSnapshot().context.questionIndex).toBe(2);
  });

  it('keeps its own stored position when the server names none', async () => {
    const terminal = setUp();
    await terminal.server.startExam(7);
    const own = terminal.boot({ ...terminal.session(), question_index: 1 });
    own.actor.start();
    own.actor.send({ type: 'INIT_TEST' });
    await waitFor(own.actor, (s) => s.matches('answering'));
    expect(positionOf(own.actor).getSnapshot().context.questionIndex).toBe(1);
  });
});
