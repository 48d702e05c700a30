/**
 * The tutorial (machines/tutorial/) stated outright, outside the model walk
 * (test/model/tutorial.model.test.ts): the load through the edge (parsed with the contract), which
 * failures end the exam flow, a practice question answered, checked, changed and come back to, the
 * summary and "Practise again", the keyboard, Continue from anywhere, and what the screen gets.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, toPromise, type AnyActorLogic, type AnyEventObject } from 'xstate';
import type { PracticeQuestion, TutorialSetting } from '../../contract/tutorial.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { tutorialImplementations } from '../../machines/tutorial/tutorial.actors.ts';
import { connect } from '../../machines/tutorial/tutorial.connect.ts';
import { currentAnswer, currentPractice, endingEventOf, tutorialMachine } from '../../machines/tutorial/tutorial.machine.ts';
import { rightAnswerOf, selectPractice, selectResults, selectRules, selectStatus } from '../../machines/tutorial/tutorial.selectors.ts';
import type { TutorialContext, TutorialEvent, TutorialInput } from '../../machines/tutorial/tutorial.types.ts';
import { never } from '../helpers/never.ts';

const input: TutorialInput = { scheduleHistoryId: 7, questionCount: 20, timeLimitSeconds: 2_400 };
const time = {
  limit_seconds: 1_770,
  starts: 'at_start',
  at_end: 'finishes_itself',
  answers_saved: 'as_you_go',
  answers_changeable: 'until_finished',
} as const;

const question = (id: number, type: PracticeQuestion['question']['type'], extra: Partial<PracticeQuestion['question']> = {}) => ({
  id, number: -id, type, prompt: `Question ${-id}`, choices: [], math: false, input: null, blocks: [], ...extra,
});

const choice: PracticeQuestion = {
  question: question(-1, 'single_choice', { choices: [{ id: 'a', label: 'a chair' }, { id: 'b', label: 'an apple' }] }),
  answer: 'b',
  case_sensitive: false,
};
const text: PracticeQuestion = { question: question(-2, 'text'), answer: 'Paris', case_sensitive: false };
const ordering: PracticeQuestion = {
  question: question(-3, 'ordering', { blocks: [{ id: 'x', label: 'first', category: 'motion' }, { id: 'y', label: 'second', category: 'event' }] }),
  answer: 'y,x,z',
  case_sensitive: false,
};

const setting: TutorialSetting = {
  schedule_history_id: 7,
  question_count: 12,
  question_types: ['single_choice', 'text', 'ordering'],
  time,
  practice: [choice, text, ordering],
  server_time: '2026-11-22T09:00:00.000Z',
};

function start() {
  const reported: string[] = [];
  const actor = createActor(
    tutorialMachine.provide({
      actors: { loadTutorialSetting: never() },
      actions: { reportCompleted: () => void reported.push('completed'), reportEnding: () => void reported.push('ending') },
    }),
    { input },
  ).start();
  const loaded = (output: TutorialSetting) => actor.send({ type: 'xstate.done.actor.loadTutorialSetting', output } as never);
  const failed = (error: unknown) => actor.send({ type: 'xstate.error.actor.loadTutorialSetting', error } as never);
  const send = (event: TutorialEvent) => actor.send(event);
  const context = () => actor.getSnapshot().context as TutorialContext;
  return { actor, loaded, failed, send, context, reported };
}

describe('the tutorial setting through the edge', () => {
  const run = (logic: unknown) => toPromise(createActor(logic as AnyActorLogic, { input: { scheduleHistoryId: 7 } }).start());
  const messageOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: ApiFailure) => `${e.code}: ${e.message}`);

  it('asks for the sitting\'s setting and hands it over parsed', async () => {
    const asked: number[] = [];
    const { actors } = tutorialImplementations({ api: { tutorialSetting: async (id) => (asked.push(id), setting) } });
    expect(await run(actors.loadTutorialSetting)).toEqual(setting);
    expect(asked).toEqual([7]);
  });

  it('fails as GENERIC_ERROR on a malformed setting, or an edge without the call', async () => {
    const malformed = tutorialImplementations({ api: { tutorialSetting: async () => ({ ...setting, practice: 'none' }) as never } });
    expect(await messageOf(run(malformed.actors.loadTutorialSetting))).toBe('GENERIC_ERROR: Unexpected tutorial setting');
    const without = tutorialImplementations({ api: {} });
    expect(await messageOf(run(without.actors.loadTutorialSetting))).toBe('GENERIC_ERROR: This edge has no GET /tutorial-setting');
  });

  it('unprovided, the load fails loudly', async () => {
    const message = await run(tutorialMachine.implementations.actors.loadTutorialSetting).catch((e: Error) => e.message);
    expect(message).toBe('loadTutorialSetting is provided by the edge (tutorial.actors.ts)');
  });
});

describe('the tutorial machine', () => {
  it('starts loading with the exam details\' rules, the keyboard shown in small letters', () => {
    const { actor, context } = start();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(context()).toEqual({
      scheduleHistoryId: 7, questionCount: 20, timeLimitSeconds: 2_400, setting: null, error: null, index: 0, answers: {},
      keyboardOpen: true, upperCase: false,
    });
    expect(selectRules(context())).toEqual({ questionCount: 20, timeLimitMinutes: 40, questionTypes: null });
  });

  it('asks for the setting of its own sitting', () => {
    const asked: unknown[] = [];
    createActor(
      tutorialMachine.provide({ actors: { loadTutorialSetting: fromPromise(({ input: given }) => (asked.push(given), new Promise<never>(() => {}))) } }),
      { input },
    ).start();
    expect(asked).toEqual([{ scheduleHistoryId: 7 }]);
    expect(currentPractice({ setting: null, index: 0 })).toBeUndefined();
  });

  it('the failures that end the exam flow are told to the exam; others only shown, and Try again loads again', () => {
    expect(endingEventOf('NOT_LOGGED_IN')).toEqual({ type: 'UNAUTHORIZED' });
    expect(endingEventOf('ER_SCHEDULE_HISTORY_RETAKE')).toEqual({ type: 'UPDATE_FLAG_RETAKE' });
    expect(endingEventOf('DURING_MAINTENANCE')).toEqual({ type: 'DURING_MAINTENANCE' });
    expect(endingEventOf('INCORRECT_DEVICE')).toEqual({ type: 'FINISH_WITH_ERROR', code: 'INCORRECT_DEVICE' });
    for (const code of ['NETWORK_ERROR', 'TIMEOUT', 'GENERIC_ERROR', 'TIME_END'] as const) expect(endingEventOf(code)).toBeNull();

    const shown = start();
    shown.failed(new ApiFailure('NETWORK_ERROR'));
    expect(shown.actor.getSnapshot().value).toBe('failed');
    expect(shown.context().error).toBe('NETWORK_ERROR');
    expect(shown.reported).toEqual([]);
    expect(connect(shown.actor.getSnapshot(), () => {}).error).toBe('NETWORK_ERROR');
    shown.send({ type: 'retry.requested' });
    expect(shown.actor.getSnapshot().value).toBe('loading');
    expect(shown.context().error).toBeNull();
    expect(connect(shown.actor.getSnapshot(), () => {}).error).toBeNull();

    const ending = start();
    ending.failed(new ApiFailure('NOT_LOGGED_IN', 401));
    expect(ending.actor.getSnapshot().value).toBe('failed');
    expect(ending.reported).toEqual(['ending']);
  });

  it('a setting without practice shows the points and Continue', () => {
    const { actor, loaded, context } = start();
    loaded({ ...setting, question_count: 0, question_types: [], practice: [] });
    expect(actor.getSnapshot().value).toBe('empty');
    expect(context().setting?.question_count).toBe(0);
    expect(selectStatus(actor.getSnapshot())).toBe('empty');
  });

  it('takes an answer only for the question on screen; checks it only when given and unchecked', () => {
    const { actor, loaded, send, context } = start();
    loaded(setting);
    expect(actor.getSnapshot().value).toEqual({ practising: 'answering' });
    expect(context()).toMatchObject({ setting, index: 0, answers: {}, error: null });
    send({ type: 'answer.checked' });
    expect(actor.getSnapshot().value).toEqual({ practising: 'answering' });
    send({ type: 'answer.given', questionId: -2, value: 'b' });
    expect(context().answers).toEqual({});
    send({ type: 'answer.given', questionId: -1, value: '  ' });
    expect(connect(actor.getSnapshot(), () => {}).canCheck).toBe(false);
    send({ type: 'answer.checked' });
    expect(context().answers[-1]).toEqual({ value: '  ', verdict: null });
    send({ type: 'answer.given', questionId: -1, value: 'a' });
    expect(connect(actor.getSnapshot(), () => {}).canCheck).toBe(true);
    send({ type: 'answer.checked' });
    expect(actor.getSnapshot().value).toEqual({ practising: 'checked' });
    expect(context().answers[-1]).toEqual({ value: 'a', verdict: 'wrong' });
    expect(connect(actor.getSnapshot(), () => {}).canCheck).toBe(false);
    // A new value clears the verdict; the right one is right.
    send({ type: 'answer.given', questionId: -1, value: 'b' });
    expect(context().answers[-1]).toEqual({ value: 'b', verdict: null });
    send({ type: 'answer.checked' });
    expect(context().answers[-1]).toEqual({ value: 'b', verdict: 'right' });
    expect(currentAnswer(context())).toEqual({ value: 'b', verdict: 'right' });
  });

  it('moves within the practice, comes back to a checked question as checked, and ends on the summary', () => {
    const { actor, loaded, send, context } = start();
    loaded(setting);
    send({ type: 'practice.previous' });
    expect(context().index).toBe(0);
    send({ type: 'answer.given', questionId: -1, value: 'b' });
    send({ type: 'answer.checked' });
    send({ type: 'practice.next' });
    expect(context().index).toBe(1);
    expect(actor.getSnapshot().value).toEqual({ practising: 'answering' });
    expect(currentPractice(context())).toBe(text);
    send({ type: 'answer.given', questionId: -2, value: ' paris ' });
    send({ type: 'practice.previous' });
    expect(context().index).toBe(0);
    expect(actor.getSnapshot().value).toEqual({ practising: 'checked' });
    send({ type: 'practice.next' });
    expect(actor.getSnapshot().value).toEqual({ practising: 'answering' });
    send({ type: 'answer.checked' });
    expect(context().answers[-2]?.verdict).toBe('right');
    send({ type: 'practice.next' });
    expect(context().index).toBe(2);
    send({ type: 'practice.next' });
    expect(actor.getSnapshot().value).toBe('practised');
    expect(context().index).toBe(2);
    expect(connect(actor.getSnapshot(), () => {}).results).toEqual([
      { questionId: -1, type: 'single_choice', outcome: 'right' },
      { questionId: -2, type: 'text', outcome: 'right' },
      { questionId: -3, type: 'ordering', outcome: 'unchecked' },
    ]);
    expect(selectPractice(actor.getSnapshot())).toBeNull();
    send({ type: 'practice.restarted' });
    expect(actor.getSnapshot().value).toEqual({ practising: 'answering' });
    expect(context()).toMatchObject({ index: 0, answers: {} });
  });

  it('toggles the keyboard and its capitals while practising', () => {
    const { loaded, send, context } = start();
    send({ type: 'keyboard.toggled' });
    expect(context().keyboardOpen).toBe(true);
    loaded(setting);
    send({ type: 'keyboard.toggled' });
    send({ type: 'upperCase.toggled' });
    expect(context()).toMatchObject({ keyboardOpen: false, upperCase: true });
    send({ type: 'keyboard.toggled' });
    send({ type: 'upperCase.toggled' });
    expect(context()).toMatchObject({ keyboardOpen: true, upperCase: false });
  });

  it('Continue ends it from any state and tells the exam', () => {
    for (const prepare of [
      () => {},
      (m: ReturnType<typeof start>) => m.failed(new ApiFailure('NETWORK_ERROR')),
      (m: ReturnType<typeof start>) => m.loaded(setting),
    ]) {
      const m = start();
      prepare(m);
      m.send({ type: 'tutorial.finished' });
      expect(m.actor.getSnapshot().status).toBe('done');
      expect(selectStatus(m.actor.getSnapshot())).toBe('done');
      expect(m.reported).toEqual(['completed']);
    }
  });

  it('as the exam\'s child, tells it only what it names', () => {
    const received: AnyEventObject[] = [];
    const parent = createMachine({
      invoke: { id: 'tutorial', src: tutorialMachine.provide({ actors: { loadTutorialSetting: never() } }), input },
      on: { '*': { actions: ({ event }) => void received.push(event) } },
    });
    const actor = createActor(parent).start();
    const child = actor.getSnapshot().children.tutorial!;
    child.send({ type: 'xstate.error.actor.loadTutorialSetting', error: new ApiFailure('INCORRECT_DEVICE', 403) } as never);
    child.send({ type: 'tutorial.finished' });
    expect(received.filter((e) => !e.type.startsWith('xstate.'))).toEqual([
      { type: 'FINISH_WITH_ERROR', code: 'INCORRECT_DEVICE' },
      { type: 'tutorial.completed' },
    ]);
  });
});

describe('what the tutorial screen gets', () => {
  it('the setting\'s rules once loaded, minutes rounded', () => {
    const { loaded, context } = start();
    loaded(setting);
    expect(selectRules(context())).toEqual({ questionCount: 12, timeLimitMinutes: 30, questionTypes: ['single_choice', 'text', 'ordering'] });
    expect(selectRules(context()).questionTypes).not.toBe(setting.question_types);
    expect(selectRules({ ...context(), setting: null, timeLimitSeconds: 89 }).timeLimitMinutes).toBe(1);
    expect(selectRules({ ...context(), setting: null, timeLimitSeconds: 90 }).timeLimitMinutes).toBe(2);
  });

  it('the right answer in words: the choice\'s label, the text, the number, the blocks in order', () => {
    expect(rightAnswerOf(choice)).toEqual(['an apple']);
    expect(rightAnswerOf(text)).toEqual(['Paris']);
    expect(rightAnswerOf({ ...text, question: { ...text.question, type: 'number' }, answer: '3/4' })).toEqual(['3/4']);
    // A block the question does not name is shown by its id.
    expect(rightAnswerOf(ordering)).toEqual(['second', 'first', 'z']);
    expect(rightAnswerOf({ ...ordering, question: { ...ordering.question, blocks: undefined }, answer: 'x,y' })).toEqual(['x', 'y']);
  });

  it('the practice question on screen, its place among them, and the pupil\'s answer', () => {
    const { actor, loaded, send } = start();
    expect(selectPractice(actor.getSnapshot())).toBeNull();
    loaded(setting);
    expect(selectPractice(actor.getSnapshot())).toEqual({
      position: 1, total: 3, question: choice.question, value: '', verdict: null, rightAnswer: ['an apple'], isFirst: true, isLast: false,
    });
    send({ type: 'answer.given', questionId: -1, value: 'a' });
    send({ type: 'answer.checked' });
    send({ type: 'practice.next' });
    send({ type: 'practice.next' });
    expect(selectPractice(actor.getSnapshot())).toMatchObject({ position: 3, isFirst: false, isLast: true, value: '' });
    send({ type: 'practice.previous' });
    send({ type: 'practice.previous' });
    expect(selectPractice(actor.getSnapshot())).toMatchObject({ position: 1, value: 'a', verdict: 'wrong' });
    expect(selectResults({ ...(actor.getSnapshot().context as TutorialContext), setting: null })).toEqual([]);
  });

  it('each status of the screen', () => {
    const m = start();
    expect(selectStatus(m.actor.getSnapshot())).toBe('loading');
    m.failed(new ApiFailure('TIMEOUT'));
    expect(selectStatus(m.actor.getSnapshot())).toBe('failed');
    const p = start();
    p.loaded(setting);
    expect(selectStatus(p.actor.getSnapshot())).toBe('practising');
    for (let i = 0; i < 3; i += 1) p.send({ type: 'practice.next' });
    expect(selectStatus(p.actor.getSnapshot())).toBe('practised');
  });

  it('every callback sends its event; an answer goes to the question on screen, and none without one', () => {
    const sent: TutorialEvent[] = [];
    const m = start();
    const loading = connect(m.actor.getSnapshot(), (event) => void sent.push(event));
    expect(loading).toMatchObject({ status: 'loading', error: null, practice: null, results: [], keyboardOpen: true, upperCase: false, canCheck: false, canGoBack: false });
    loading.answer('b');
    expect(sent).toEqual([]);
    m.loaded(setting);
    m.send({ type: 'practice.next' });
    const api = connect(m.actor.getSnapshot(), (event) => void sent.push(event));
    expect(api.canGoBack).toBe(true);
    api.answer('Paris');
    api.check();
    api.next();
    api.previous();
    api.retry();
    api.restart();
    api.toggleKeyboard();
    api.toggleUpperCase();
    api.finish();
    expect(sent).toEqual([
      { type: 'answer.given', questionId: -2, value: 'Paris' },
      { type: 'answer.checked' },
      { type: 'practice.next' },
      { type: 'practice.previous' },
      { type: 'retry.requested' },
      { type: 'practice.restarted' },
      { type: 'keyboard.toggled' },
      { type: 'upperCase.toggled' },
      { type: 'tutorial.finished' },
    ]);
    m.send({ type: 'keyboard.toggled' });
    m.send({ type: 'upperCase.toggled' });
    expect(connect(m.actor.getSnapshot(), () => {})).toMatchObject({ keyboardOpen: false, upperCase: true });
  });
});
