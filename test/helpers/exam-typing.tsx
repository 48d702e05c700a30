/**
 * The exam screen with its typing as the app runs it: the draft, the keystrokes and the commit
 * go to a live position machine (machines/position, as the exam's child of a stand-in parent),
 * and the answers it gives reach `api.answer`, as they reach the exam. The rest of the api is the
 * test's. The machine's typing pause runs on the real timers (or Vitest's fake ones).
 */
import { useSelector } from '@xstate/react';
import { useLayoutEffect, useState } from 'react';
import { createActor, emit, setup } from 'xstate';
import type { ExamScreenApi } from '../../machines/exam/exam.connect.ts';
import { positionMachine } from '../../machines/position/position.machine.ts';
import type { PositionParentEvent } from '../../machines/position/position.types.ts';
import { ExamScreen } from '../../src/screens/exam/exam.tsx';

function startPosition(api: ExamScreenApi) {
  const parent = setup({
    types: { events: {} as PositionParentEvent, emitted: {} as Extract<PositionParentEvent, { type: 'answer.given' }> },
    actors: { position: positionMachine },
  }).createMachine({
    invoke: {
      id: 'position',
      src: 'position',
      input: {
        questionIds: api.questions.map((question) => question.id),
        questionIndex: api.index,
        view: { listOpen: api.listOpen, flagged: [...api.flagged], keyboardOpen: api.keyboardOpen, upperCase: api.upperCase },
      },
    },
    on: { 'answer.given': { actions: emit(({ event }) => event) } },
  });
  const actor = createActor(parent).start();
  const position = actor.getSnapshot().children.position;
  if (!position) throw new Error('the stand-in parent runs no position child');
  return { actor, position };
}

export function TypingExamScreen({ api }: { api: ExamScreenApi }) {
  const [{ actor, position }] = useState(() => startPosition(api));
  const { answer } = api;
  useLayoutEffect(() => {
    const given = actor.on('answer.given', (event) => answer(event.questionId, event.value));
    return () => given.unsubscribe();
  }, [actor, answer]);
  const draft = useSelector(position, (snapshot) => snapshot.context.draft);
  return (
    <ExamScreen
      api={{
        ...api,
        draft,
        type: (questionId, value) => position.send({ type: 'answer.typed', questionId, value, held: api.answers[questionId]?.value ?? '' }),
        commitDraft: () => position.send({ type: 'draft.committed' }),
      }}
    />
  );
}
