/**
 * The position machine walked transition by transition (machines/position): the pupil's moves
 * between the exam's questions, the toggles of the view, flags for review, the pause that reports
 * them (its end an explicit event of the path), the exam taking the position itself, and the
 * typed text of a text answer, given once typing pauses (`draft.paused`, an explicit event of the
 * path too) or the screen commits it. Its reports and answers to the exam are dropped, not sent
 * (no parent here); the exam's side of it is walked in
 * exam.model.test.ts, and both through the app in app-exam.model.test.tsx.
 */
import assert from 'node:assert/strict';
import type { AnyMachineSnapshot } from 'xstate';
import { positionMachine } from '../../machines/position/position.machine.ts';
import type { PositionContext, PositionInput } from '../../machines/position/position.types.ts';
import { describeModel } from './suite.ts';

const questionIds = [101, 102, 103];
const view = { listOpen: false, flagged: [], keyboardOpen: true, upperCase: false };

const machine = positionMachine.provide({ actions: { report: () => {}, giveAnswer: () => {} } });

const inputs: PositionInput[] = [
  { questionIds, questionIndex: 0, view },
  // A reload on the last question with the list open and one flag (the stored session's position).
  { questionIds, questionIndex: 2, view: { ...view, listOpen: true, flagged: [103] } },
];

describeModel({
  name: 'position',
  machine,
  inputs,
  samples: {
    'question.selected': [
      { type: 'question.selected', index: 1 },
      { type: 'question.selected', index: 3 },
      { type: 'question.selected', index: 0.5 },
    ],
    'question.flagged': [
      { type: 'question.flagged', questionId: 102 },
      { type: 'question.flagged', questionId: 999 },
    ],
    'answer.typed': [
      { type: 'answer.typed', questionId: 102, value: 'cold', held: '' },
      // Typed back to the answer the exam holds: kept, then given to nobody.
      { type: 'answer.typed', questionId: 102, value: 'hot', held: 'hot' },
      { type: 'answer.typed', questionId: 999, value: 'cold', held: '' },
    ],
  },
  // Typing adds five edges to every state (three keystrokes, the pause's end, a commit).
  limit: 200_000,
  contextKey: (context) => {
    const c = context as unknown as PositionContext;
    return [c.questionIndex, c.view.listOpen, c.view.keyboardOpen, c.view.upperCase, c.view.flagged, c.movedAgain];
  },
  // node:assert rather than expect: invariants run after every event of every path, where expect's cost dominates.
  invariants: (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as PositionContext;
    // The question on screen is one of the exam's.
    assert.equal(Number.isInteger(context.questionIndex), true);
    assert.ok(context.questionIndex >= 0);
    assert.ok(context.questionIndex < questionIds.length);
    // Only questions of the exam are flagged, each at most once.
    assert.equal(new Set(context.view.flagged).size, context.view.flagged.length);
    for (const id of context.view.flagged) assert.ok(questionIds.includes(id));
    // A draft is only ever of a question of the exam.
    if (context.draft) assert.ok(questionIds.includes(context.draft.questionId));
  },
});
