/**
 * The tutorial machine walked transition by transition: the settings loaded (with practice, or
 * none), failing (a network failure, and the failures that end the exam flow), retried; each
 * practice question answered right, wrong, empty or out of turn, checked, left and come back to;
 * the summary and "Practise again"; the keyboard toggles; and Continue from every state.
 * Invariants: what the screen gets (tutorial.connect.ts) always matches the machine, a verdict
 * always judges the value on screen, "Check my answer" only with an unchecked answer, and the
 * only child the machine ever runs is the one GET, while loading.
 *
 * Then, run as the exam's child would be: Continue tells the parent `tutorial.completed`, and a
 * load refused for a reason that ends the exam flow tells it the exam-level event; nothing else
 * (no answer) ever reaches the parent.
 */
import assert from 'node:assert/strict';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { isPracticeAnswerRight, type TutorialSetting } from '../../contract/tutorial.ts';
import { ApiFailure, type FailureCode } from '../../machines/shared/ports.ts';
import { connect, type TutorialSnapshot } from '../../machines/tutorial/tutorial.connect.ts';
import { currentPractice, tutorialMachine } from '../../machines/tutorial/tutorial.machine.ts';
import type { TutorialContext, TutorialInput } from '../../machines/tutorial/tutorial.types.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

const input: TutorialInput = { scheduleHistoryId: 7, questionCount: 20, timeLimitSeconds: 2400 };

/** A sample output that reads as its name in a path's description (the harness prints events as JSON). */
function named<T extends object>(value: T, name: string): T {
  return Object.defineProperty(value, 'toJSON', { value: () => name, enumerable: false });
}

const time = {
  limit_seconds: 1800,
  starts: 'at_start',
  at_end: 'finishes_itself',
  answers_saved: 'as_you_go',
  answers_changeable: 'until_finished',
} as const;

/** Two practice questions: a single choice and a number on the keypad with the fraction key. */
const withPractice: TutorialSetting = {
  schedule_history_id: 7,
  question_count: 12,
  question_types: ['single_choice', 'number'],
  time,
  practice: [
    {
      question: {
        id: -1,
        number: 1,
        type: 'single_choice',
        prompt: 'Which one is a fruit?',
        choices: [
          { id: 'a', label: 'a chair' },
          { id: 'b', label: 'an apple' },
        ],
        math: false,
        input: null,
        blocks: [],
      },
      answer: 'b',
      case_sensitive: false,
    },
    {
      question: {
        id: -2,
        number: 2,
        type: 'number',
        prompt: '1/4 + 2/4 = ?',
        choices: [],
        math: false,
        input: { kind: 'keypad', negative: false, decimal: true, fraction: true },
        blocks: [],
      },
      answer: '3/4',
      case_sensitive: false,
    },
  ],
  server_time: '2026-11-22T09:00:00.000Z',
};

const withoutPractice: TutorialSetting = { ...withPractice, question_count: 0, question_types: [], practice: [] };

/** Per practice question id: a right answer (the number in another notation), a wrong one. */
const rightAnswer: Record<number, string> = { [-1]: 'b', [-2]: '0.75' };
const wrongAnswer: Record<number, string> = { [-1]: 'a', [-2]: '2/4' };

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as TutorialContext;

const loadFailure = (code: FailureCode, status?: number) => ({
  type: 'xstate.error.actor.loadTutorialSetting',
  error: new ApiFailure(code, status),
});

const samples = {
  'xstate.done.actor.loadTutorialSetting': [
    { type: 'xstate.done.actor.loadTutorialSetting', output: named(withPractice, 'two practice questions') },
    { type: 'xstate.done.actor.loadTutorialSetting', output: named(withoutPractice, 'nothing to practise') },
  ],
  'xstate.error.actor.loadTutorialSetting': [loadFailure('NETWORK_ERROR'), loadFailure('NOT_LOGGED_IN', 401)],
  'answer.given': (snapshot: AnyMachineSnapshot): AnyEventObject[] => {
    const practice = currentPractice(contextOf(snapshot));
    if (!practice) return [];
    const id = practice.question.id;
    return [
      { type: 'answer.given', questionId: id, value: rightAnswer[id] },
      { type: 'answer.given', questionId: id, value: wrongAnswer[id] },
      { type: 'answer.given', questionId: id, value: '' },
      // A late hand-over from the question before (the keypad's, the text box's): not this one's.
      { type: 'answer.given', questionId: id === -1 ? -2 : -1, value: 'b' },
    ];
  },
};

const machine = tutorialMachine.provide({
  actors: { loadTutorialSetting: never() },
  actions: { reportCompleted: () => {}, reportEnding: () => {} },
});

describeModel({
  name: 'tutorial',
  machine,
  inputs: [input],
  samples,
  contextKey: (context) => {
    const c = context as unknown as TutorialContext;
    return [c.setting?.practice.length ?? null, c.error, c.index, c.answers];
  },
  // node:assert rather than expect: invariants run after every event of every path, where expect's cost dominates.
  invariants: (snapshot) => {
    const context = contextOf(snapshot);
    const api = connect(snapshot as unknown as TutorialSnapshot, () => {});
    const practising = snapshot.matches('practising');

    // The screen's status is the machine's state.
    const state = ['loading', 'failed', 'empty', 'practising', 'practised', 'done'].find((s) => snapshot.matches(s));
    assert.equal(api.status, state);
    assert.equal(snapshot.hasTag('busy'), snapshot.matches('loading'));

    // The only child is the one GET, while loading: nothing of the practice is ever sent.
    assert.deepStrictEqual(Object.keys(snapshot.children), snapshot.matches('loading') ? ['loadTutorialSetting'] : []);

    // The rules: the setting's once loaded, the exam details' before.
    assert.deepStrictEqual(
      api.rules,
      context.setting
        ? { questionCount: context.setting.question_count, timeLimitMinutes: 30, questionTypes: context.setting.question_types }
        : { questionCount: 20, timeLimitMinutes: 40, questionTypes: null },
    );
    assert.equal(api.error, snapshot.matches('failed') ? context.error : null);
    if (snapshot.matches('failed')) assert.notEqual(context.error, null);
    if (snapshot.matches('empty')) assert.deepStrictEqual(context.setting?.practice, []);

    // A practice question on screen exactly while practising, within the practice.
    assert.equal(api.practice !== null, practising);
    if (api.practice) {
      const practice = currentPractice(context)!;
      assert.equal(api.practice.question, practice.question);
      assert.equal(api.practice.position, context.index + 1);
      assert.equal(api.practice.total, context.setting!.practice.length);
      assert.equal(api.practice.isFirst, context.index === 0);
      assert.equal(api.practice.isLast, context.index === context.setting!.practice.length - 1);
      // A verdict judges the value on screen, and only in `checked`.
      assert.equal(api.practice.verdict !== null, snapshot.matches({ practising: 'checked' }));
      if (api.practice.verdict) {
        assert.equal(api.practice.verdict, isPracticeAnswerRight(practice, api.practice.value) ? 'right' : 'wrong');
      }
      assert.deepStrictEqual(api.practice.rightAnswer, practice.question.type === 'number' ? ['3/4'] : ['an apple']);
    }
    // Every verdict kept is the one its value earns.
    for (const practice of context.setting?.practice ?? []) {
      const answer = context.answers[practice.question.id];
      if (answer?.verdict) assert.equal(answer.verdict, isPracticeAnswerRight(practice, answer.value) ? 'right' : 'wrong');
    }
    // "Check my answer" only with an answer given, not checked yet.
    assert.equal(api.canCheck, snapshot.matches({ practising: 'answering' }) && (api.practice?.value.trim() ?? '') !== '');
    assert.equal(api.canGoBack, practising && context.index > 0);
    // The summary: how each practice question went.
    assert.deepStrictEqual(
      api.results,
      snapshot.matches('practised')
        ? context.setting!.practice.map(({ question }) => ({
            questionId: question.id,
            type: question.type,
            outcome: context.answers[question.id]?.verdict ?? 'unchecked',
          }))
        : [],
    );
    assert.equal(snapshot.status, snapshot.matches('done') ? 'done' : 'active');
  },
});

describe('the tutorial as the exam\'s child', () => {
  /** A parent that runs the tutorial with `load` and records every event the tutorial sends it. */
  function runUnderParent(load: () => Promise<TutorialSetting>) {
    const received: AnyEventObject[] = [];
    const parent = createMachine({
      invoke: {
        id: 'tutorial',
        src: tutorialMachine.provide({ actors: { loadTutorialSetting: fromPromise(load) } }),
        input,
      },
      on: {
        '*': { actions: ({ event }) => void received.push(event) },
      },
    });
    const actor = createActor(parent).start();
    const tutorial = () => actor.getSnapshot().children.tutorial as unknown as { getSnapshot(): AnyMachineSnapshot; send(e: AnyEventObject): void } | undefined;
    return { actor, received, tutorial };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('practising and then Continue: the parent hears tutorial.completed once, and no answer', async () => {
    const { received, tutorial } = runUnderParent(async () => withPractice);
    await settle();
    tutorial()!.send({ type: 'answer.given', questionId: -1, value: 'b' });
    tutorial()!.send({ type: 'answer.checked' });
    expect(tutorial()!.getSnapshot().context.answers[-1]).toEqual({ value: 'b', verdict: 'right' });
    tutorial()!.send({ type: 'practice.next' });
    tutorial()!.send({ type: 'answer.given', questionId: -2, value: '1/2' });
    tutorial()!.send({ type: 'answer.checked' });
    expect(received).toEqual([]);
    tutorial()!.send({ type: 'tutorial.finished' });
    expect(received.map((e) => e.type)).toEqual(['tutorial.completed', 'xstate.done.actor.tutorial']);
  });

  it('Continue while the setting still loads (never waits for the practice)', async () => {
    const { received, tutorial } = runUnderParent(() => new Promise(() => {}));
    expect(tutorial()!.getSnapshot().value).toBe('loading');
    tutorial()!.send({ type: 'tutorial.finished' });
    expect(received.map((e) => e.type)).toEqual(['tutorial.completed', 'xstate.done.actor.tutorial']);
  });

  it.each([
    ['NOT_LOGGED_IN', 401, { type: 'UNAUTHORIZED' }],
    ['ER_SCHEDULE_HISTORY_RETAKE', 401, { type: 'UPDATE_FLAG_RETAKE' }],
    ['DURING_MAINTENANCE', 401, { type: 'DURING_MAINTENANCE' }],
    ['INCORRECT_DEVICE', 403, { type: 'FINISH_WITH_ERROR', code: 'INCORRECT_DEVICE' }],
  ] as const)('a load refused with %s tells the exam %j', async (code, status, expected) => {
    const { received, tutorial } = runUnderParent(() => Promise.reject(new ApiFailure(code, status)));
    await settle();
    expect(received).toEqual([expected]);
    expect(tutorial()!.getSnapshot().value).toBe('failed');
  });

  it.each(['NETWORK_ERROR', 'ER_SCHEDULE_HISTORY_COMPLETED', 'GENERIC_ERROR'] as const)(
    'a load that fails with %s is only shown (Try again, or Continue)',
    async (code) => {
      const { received, tutorial } = runUnderParent(() => Promise.reject(new ApiFailure(code)));
      await settle();
      expect(received).toEqual([]);
      expect(tutorial()!.getSnapshot().value).toBe('failed');
      expect(tutorial()!.getSnapshot().context.error).toBe(code);
    },
  );
});
