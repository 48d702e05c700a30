/**
 * machines/exam/exam.selectors.ts stated outright: where each answer is kept, the time limit the
 * timer counts down from (the exam's own, longer when the server moved the deadline), and the
 * retry dialog of whichever of the exam's calls runs in the retry machine (a plain promise has none).
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import type { ExamDetails } from '../../contract/exam.ts';
import {
  selectExamRetryDialog,
  selectRetryCall,
  selectSaveState,
  selectTimeLimitMinutes,
  selectTimeLimitSeconds,
  type ExamSnapshot,
} from '../../machines/exam/exam.selectors.ts';
import { retryMachine } from '../../machines/retry/retry.machine.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { never } from '../helpers/never.ts';

const details = (seconds: number) => ({ exam: { time_limit_seconds: seconds } }) as unknown as ExamDetails;
const entry = (status: 'writing' | 'local' | 'unsaved' | 'saved' | 'rejected' | 'replaced') => ({ value: 'a', answeredAt: '', key: 'k', status });

describe('exam selectors', () => {
  it('says where each answer is kept', () => {
    expect(selectSaveState(entry('saved'))).toBe('server');
    expect(selectSaveState(entry('local'))).toBe('terminal');
    expect(selectSaveState(entry('writing'))).toBe('saving');
    expect(selectSaveState(entry('replaced'))).toBe('replaced');
    expect(selectSaveState(entry('unsaved'))).toBe('none');
    expect(selectSaveState(entry('rejected'))).toBe('none');
  });

  it('counts down from the exam\'s own limit, 40 min before it is known, longer when the deadline moved', () => {
    expect(selectTimeLimitSeconds({ details: null, deadlineAt: null, startedAt: null })).toBe(2_400);
    // Without both the deadline and the start, the exam's own limit, whatever the other says.
    expect(selectTimeLimitSeconds({ details: details(1_800), deadlineAt: null, startedAt: -5_000_000 })).toBe(1_800);
    expect(selectTimeLimitSeconds({ details: details(1_800), deadlineAt: 5_000_000, startedAt: null })).toBe(1_800);
    // The deadline at the exam's own limit, or sooner: the own limit.
    expect(selectTimeLimitSeconds({ details: details(1_800), deadlineAt: 1_000_000 + 1_800_000, startedAt: 1_000_000 })).toBe(1_800);
    expect(selectTimeLimitSeconds({ details: details(1_800), deadlineAt: 1_000_000 + 1_700_000, startedAt: 1_000_000 })).toBe(1_800);
    // Five minutes more, and a part of a second counts as a second.
    expect(selectTimeLimitSeconds({ details: details(1_800), deadlineAt: 1_000_000 + 2_100_000, startedAt: 1_000_000 })).toBe(2_100);
    expect(selectTimeLimitSeconds({ details: details(1_800), deadlineAt: 1_000_000 + 2_100_001, startedAt: 1_000_000 })).toBe(2_101);
  });

  it('says the exam\'s own limit in whole minutes', () => {
    expect(selectTimeLimitMinutes({ details: null })).toBe(40);
    expect(selectTimeLimitMinutes({ details: details(1_770) })).toBe(30);
    expect(selectTimeLimitMinutes({ details: details(1_710) })).toBe(29);
  });

  it('finds the retry machine running one of the exam\'s calls; a plain promise or another child has no dialog', async () => {
    expect(selectRetryCall(undefined)).toBeUndefined();
    expect(selectExamRetryDialog(undefined)).toBeNull();
    const parentWith = (children: Record<string, unknown>) =>
      createActor(
        createMachine({
          invoke: Object.entries(children).map(([id, src]) => ({ id, src: src as never, input: { variant: 'autoConnect', input: null, windowMs: 0 } })),
        }),
      ).start();

    const plain = parentWith({ finishExam: never(), other: retryMachine.provide({ actors: { call: never() } }) });
    expect(selectRetryCall(plain.getSnapshot() as unknown as ExamSnapshot)).toBeUndefined();

    const failing = fromPromise(async () => {
      throw new ApiFailure('NETWORK_ERROR');
    });
    for (const id of ['loadExamDetails', 'loadQuestions', 'flushAnswers', 'finishExam']) {
      const parent = parentWith({ [id]: retryMachine.provide({ actors: { call: never() } }) });
      const snapshot = parent.getSnapshot() as unknown as ExamSnapshot;
      expect(selectRetryCall(snapshot)?.context.variant, id).toBe('autoConnect');
      expect(selectExamRetryDialog(snapshot), id).toBeNull();
    }
    const offline = parentWith({ flushAnswers: retryMachine.provide({ actors: { call: failing as never } }) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(selectExamRetryDialog(offline.getSnapshot() as unknown as ExamSnapshot)).toEqual({ kind: 'retry' });
  });
});
