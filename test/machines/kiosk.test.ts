/**
 * The kiosk machine with the real session and exam machines over a fake API: the journey of
 * one pupil, and the router's view of it (typed URLs and Back are events the machine judges).
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import { waitForKiosk as waitFor, watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { selectPath, selectScreen } from '../../machines/kiosk/kiosk.selectors.ts';
import { readSession, storageKeys } from '../../machines/shared/storage.ts';
import { createFakeApi, demoQuestions, VALID_CODE } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { examOf, positionOf } from '../helpers/kiosk-exam.ts';

function boot(storage = memoryStorage(), api = createFakeApi(), clock?: SimulatedClock) {
  const actor = createActor(createKioskMachine({ api, storage }), { input: { storedSession: readSession(storage) }, ...(clock ? { clock } : {}) });
  actor.start();
  return { actor, api, storage };
}

const settle = (actor: ReturnType<typeof boot>['actor'], path: string) =>
  waitFor(actor, (s) => selectPath(s) === path, 2000);

describe('kiosk', () => {
  it('walks the journey from login code to logout and leaves nothing of the pupil', async () => {
    // The machines' delays move only when the test says (the pupil's pause after a move).
    const clock = new SimulatedClock();
    const { actor, api, storage } = boot(memoryStorage(), createFakeApi(), clock);
    expect(selectPath(actor.getSnapshot())).toBe('/login-code');
    actor.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: 'ac3ef4ghj6km' });
    await settle(actor, '/login-confirm');
    expect(storage.getItem(storageKeys.token)).toBe('token-1');
    examOf(actor).send({ type: 'identity.confirmed' });
    expect(selectPath(actor.getSnapshot())).toBe('/exam-tutorial');
    examOf(actor).send({ type: 'tutorial.completed' });
    expect(selectScreen(actor.getSnapshot())).toBe('exam-start');
    examOf(actor).send({ type: 'start.confirmed' });
    await waitFor(actor, (s) => s.children.exam?.getSnapshot().matches('answering') ?? false);
    expect(selectPath(actor.getSnapshot())).toBe('/start');
    examOf(actor).send({ type: 'answer.given', questionId: demoQuestions[0]!.id, value: 'a' });
    positionOf(examOf(actor)).send({ type: 'question.next' });
    examOf(actor).send({ type: 'answer.given', questionId: demoQuestions[1]!.id, value: 'cold' });
    // The move is kept in the stored session (where a reload resumes) once the pupil pauses, not on the swap.
    expect(readSession(storage)?.question_index).toBe(0);
    clock.increment(POSITION_PAUSE_MS);
    expect(readSession(storage)?.question_index).toBe(1);
    examOf(actor).send({ type: 'finish.requested' });
    examOf(actor).send({ type: 'finish.confirmed' });
    await settle(actor, '/exam-end');
    expect(api.saved.get(102)?.value).toBe('cold');
    expect(readSession(storage)?.is_completed).toBe(true);
    examOf(actor).send({ type: 'logout.requested' });
    // Seed section 4: a code login ends on its login page with logout=1.
    await settle(actor, '/login-code?logout=1');
    expect(Object.keys(storage.dump())).toEqual([]);
    expect(api.calls).toContain('logout');
  });

  it('wakes the kiosk-wide watchers for the exam, not for a question swap (the position child)', async () => {
    const clock = new SimulatedClock();
    const { actor, storage } = boot(memoryStorage(), createFakeApi(), clock);
    actor.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await settle(actor, '/login-confirm');
    examOf(actor).send({ type: 'identity.confirmed' });
    examOf(actor).send({ type: 'tutorial.completed' });
    examOf(actor).send({ type: 'start.confirmed' });
    await waitFor(actor, (s) => s.children.exam?.getSnapshot().matches('answering') ?? false);
    let heard = 0;
    const stop = watchKiosk(actor, () => heard++);
    const position = positionOf(examOf(actor));
    position.send({ type: 'question.next' });
    position.send({ type: 'question.next' });
    position.send({ type: 'question.previous' });
    expect(position.getSnapshot().context.questionIndex).toBe(1);
    expect(heard).toBe(0);
    // The pause ends: the exam takes the position and reports it, which the watchers hear.
    clock.increment(POSITION_PAUSE_MS);
    clock.increment(POSITION_PAUSE_MS);
    expect(readSession(storage)?.question_index).toBe(1);
    expect(heard).toBeGreaterThan(0);
    heard = 0;
    examOf(actor).send({ type: 'answer.given', questionId: demoQuestions[0]!.id, value: 'a' });
    expect(heard).toBeGreaterThan(0);
    stop();
  });

  it('sends a typed /start before login to /403 (rule 7), and a typed / to the login page (rule 5)', () => {
    const { actor } = boot();
    actor.send({ type: 'location.changed', path: '/start' });
    expect(selectPath(actor.getSnapshot())).toBe('/403');
    actor.send({ type: 'location.changed', path: '/' });
    expect(selectPath(actor.getSnapshot())).toBe('/login-code');
    actor.send({ type: 'location.changed', path: '/no-such-page' });
    expect(selectPath(actor.getSnapshot())).toBe('/404');
  });

  it('keeps the exam when Back asks for the start screen', async () => {
    const { actor } = boot();
    actor.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await settle(actor, '/login-confirm');
    examOf(actor).send({ type: 'identity.confirmed' });
    examOf(actor).send({ type: 'tutorial.completed' });
    // Before Start, Back returns to the tutorial.
    actor.send({ type: 'location.changed', path: '/exam-tutorial' });
    expect(selectPath(actor.getSnapshot())).toBe('/exam-tutorial');
    examOf(actor).send({ type: 'tutorial.completed' });
    examOf(actor).send({ type: 'start.confirmed' });
    await settle(actor, '/start');
    actor.send({ type: 'location.changed', path: '/exam-start' });
    actor.send({ type: 'location.changed', path: '/exam-tutorial' });
    actor.send({ type: 'location.changed', path: '/login-code' });
    expect(selectPath(actor.getSnapshot())).toBe('/start');
  });

  it('resumes after a reload at the same question with the stored session', async () => {
    const storage = memoryStorage();
    const api = createFakeApi();
    // The machines' delays move only when the test says: the pupil's pause never ends on its own
    // while the test waits for the save (real time), so nothing is reported before the pagehide.
    const first = boot(storage, api, new SimulatedClock()).actor;
    first.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: VALID_CODE });
    await settle(first, '/login-confirm');
    examOf(first).send({ type: 'identity.confirmed' });
    examOf(first).send({ type: 'tutorial.completed' });
    examOf(first).send({ type: 'start.confirmed' });
    await settle(first, '/start');
    await waitFor(first, (s) => s.children.exam?.getSnapshot().matches('answering') ?? false);
    examOf(first).send({ type: 'answer.given', questionId: 101, value: 'a' });
    positionOf(examOf(first)).send({ type: 'question.next' });
    positionOf(examOf(first)).send({ type: 'question.next' });
    await waitFor(first, () => api.saved.has(101));
    // F5 right after the moves, before any pause: the browser's pagehide comes first, and the exam reports then.
    expect(readSession(storage)?.question_index).toBe(0);
    examOf(first).send({ type: 'page.changed', now: Date.now(), visible: false, cause: 'pagehide' });
    first.stop();

    const { actor } = boot(storage, api);
    await waitFor(actor, (s) => s.children.exam?.getSnapshot().matches('answering') ?? false);
    const exam = actor.getSnapshot().children.exam!.getSnapshot();
    expect(exam.context.questionIndex).toBe(2);
    expect(exam.context.answers[101]?.status).toBe('saved');
  });
});
